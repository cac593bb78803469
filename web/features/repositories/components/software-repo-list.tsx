import { Code, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import type { SoftwareRepoJson } from '#shared/schemas/repository.ts';

import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useDeleteSoftwareRepo, useSoftwareRepos } from '../api.ts';
import { formatMetadata, typeKey } from '../form-data.ts';
import { ExternalLink, FileDetail, RepositoryCard, RepositoryCardList, type Viewer } from './repository-card.tsx';
import { Detail } from './repository-parts.tsx';

function SoftwareRepoCard({ repo, viewer }: { repo: SoftwareRepoJson; viewer: Viewer }) {
  const { formatDateTime } = useFormatDate();
  const { t } = useTranslation('repositories');
  const remove = useDeleteSoftwareRepo();
  const metadata = formatMetadata(repo.metadata);
  return (
    <RepositoryCard repo={repo} headingPrefix="software-repo" viewer={viewer} remove={remove}>
      <Detail label={t('card.type')}>{typeKey(repo.type) ? t(typeKey(repo.type)!) : repo.type}</Detail>
      <Detail label={t('card.githubUrl')}>{repo.githubUrl ? <ExternalLink href={repo.githubUrl} /> : null}</Detail>
      <Detail label={t('card.clonedPath')}>{repo.clonedRepoPath || null}</Detail>
      <div>
        <Text size="sm" fw={700} c="gray.9">
          {t('card.metadata')}:
        </Text>
        {metadata ? (
          <Code block c="gray.9" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {metadata}
          </Code>
        ) : (
          <Text size="sm" c="gray.9">
            {t('card.notAvailable')}
          </Text>
        )}
      </div>
      <FileDetail repo={repo} />
      <Detail label={t('card.uploadedBy')}>{repo.uploadedBy?.personalDetails.name ?? t('card.unknown')}</Detail>
      <Detail label={t('card.uploadedOn')}>{formatDateTime(repo.createdAt)}</Detail>
    </RepositoryCard>
  );
}

/** Software Repositories (spec §2 /view-repo): cards sorted by group name; loading, error with Retry, empty. */
export function SoftwareRepoList({ viewer }: { viewer: Viewer }) {
  const { t } = useTranslation('repositories');
  return (
    <RepositoryCardList
      query={useSoftwareRepos()}
      loadingText={t('software.loading')}
      errorText={() => t('software.loadFailed')}
      emptyTitle={t('software.empty')}
      emptyText={t('software.emptyText')}
      card={(repo) => <SoftwareRepoCard key={repo._id} repo={repo} viewer={viewer} />}
    />
  );
}
