import { Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TrialRepoJson } from '#shared/schemas/repository.ts';
import { formatDateTime } from '#shared/format.ts';
import { useDeleteTrialRepo, useTrialRepos } from '../api.ts';
import {
  DeleteRepositoryButton,
  Detail,
  FileDownload,
  RepositoryListStates,
  serverMessage,
} from './repository-parts.tsx';
import { readableSize } from '../form-data.ts';
import { ExternalLink, type Viewer } from './software-repo-list.tsx';

function TrialRepoCard({ repo, viewer }: { repo: TrialRepoJson; viewer: Viewer }) {
  const { t } = useTranslation('repositories');
  const remove = useDeleteTrialRepo();
  const name = repo.group.name || t('software.unnamed');
  const headingId = `trial-repo-${repo._id}`;
  const mayDelete = viewer.isAdmin || (viewer.userId !== null && repo.uploadedBy?._id === viewer.userId);
  const { sizeInKB, duration, languageUsed } = repo.metadata;
  return (
    <Card withBorder radius="md" padding="lg" component="article" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Title order={2} size="h4" id={headingId}>
          {name}
        </Title>
        <Detail label={t('card.type')}>{repo.type}</Detail>
        <Detail label={t('card.uploadedBy')}>{repo.uploadedBy?.personalDetails.name ?? t('card.unknown')}</Detail>
        <Detail label={t('card.githubUrl')}>{repo.githubUrl ? <ExternalLink href={repo.githubUrl} /> : null}</Detail>
        <Detail label={t('card.languages')}>{languageUsed.length ? languageUsed.join(', ') : null}</Detail>
        {sizeInKB !== null && <Detail label={t('card.size')}>{t('card.sizeValue', { value: sizeInKB })}</Detail>}
        {duration !== null && (
          <Detail label={t('card.duration')}>{t('card.durationValue', { count: duration })}</Detail>
        )}
        {repo.clonedRepoPath && <Detail label={t('card.clonedPath')}>{repo.clonedRepoPath}</Detail>}
        <Detail label={t('card.file')}>
          {repo.originalName && repo.fileSize !== null
            ? t('card.fileValue', { name: repo.originalName, size: readableSize(repo.fileSize) })
            : null}
        </Detail>
        <Detail label={t('card.uploadedOn')}>{formatDateTime(repo.createdAt)}</Detail>
        <Group mt="xs">
          <FileDownload filePath={repo.filePath} originalName={repo.originalName} fileSize={repo.fileSize} />
          {mayDelete && <DeleteRepositoryButton id={repo._id} name={name} remove={remove} />}
        </Group>
      </Stack>
    </Card>
  );
}

/** My Group Trial Repositories (spec §2 /view-trialRepo): cards sorted by group name; loading, error with Retry, empty. */
export function TrialRepoList({ viewer }: { viewer: Viewer }) {
  const { t } = useTranslation('repositories');
  const query = useTrialRepos();
  return (
    <RepositoryListStates
      query={query}
      loadingText={t('trial.loading')}
      // spec §8: the server message, else its own words.
      errorText={(err) => serverMessage(err, t('trial.loadFailed'))}
      empty={
        // EmptyState wraps its children in a paragraph: spans only inside.
        <>
          <Text span fw={700} display="block">
            {t('trial.empty')}
          </Text>
          <Text span display="block">
            {t('trial.emptyText')}
          </Text>
        </>
      }
    >
      {(repos) => (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          {repos.map((repo) => (
            <TrialRepoCard key={repo._id} repo={repo} viewer={viewer} />
          ))}
        </SimpleGrid>
      )}
    </RepositoryListStates>
  );
}
