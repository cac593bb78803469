import { Anchor, Card, Code, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SoftwareRepoJson } from '#shared/schemas/repository.ts';
import { formatDateTime } from '#shared/format.ts';
import { useDeleteSoftwareRepo, useSoftwareRepos } from '../api.ts';
import { formatMetadata, readableSize, typeKey } from '../form-data.ts';
import { DeleteRepositoryButton, Detail, FileDownload, RepositoryListStates } from './repository-parts.tsx';

export interface Viewer {
  userId: string | null;
  isAdmin: boolean;
}

/** A link that leaves the portal: new tab, no opener, and said so to screen readers. */
export function ExternalLink({ href }: { href: string }) {
  const { t } = useTranslation('repositories');
  return (
    <Anchor href={href} target="_blank" rel="noopener noreferrer" style={{ overflowWrap: 'anywhere' }}>
      {href}
      <span className="visually-hidden">{t('card.opensInNewTab')}</span>
    </Anchor>
  );
}

function SoftwareRepoCard({ repo, viewer }: { repo: SoftwareRepoJson; viewer: Viewer }) {
  const { t } = useTranslation('repositories');
  const remove = useDeleteSoftwareRepo();
  const name = repo.group.name || t('software.unnamed');
  const metadata = formatMetadata(repo.metadata);
  const headingId = `software-repo-${repo._id}`;
  const mayDelete = viewer.isAdmin || (viewer.userId !== null && repo.uploadedBy?._id === viewer.userId);
  return (
    <Card withBorder radius="md" padding="lg" component="article" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Title order={2} size="h4" id={headingId}>
          {name}
        </Title>
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
        <Detail label={t('card.file')}>
          {repo.originalName && repo.fileSize !== null
            ? t('card.fileValue', { name: repo.originalName, size: readableSize(repo.fileSize) })
            : null}
        </Detail>
        <Detail label={t('card.uploadedBy')}>{repo.uploadedBy?.personalDetails.name ?? t('card.unknown')}</Detail>
        <Detail label={t('card.uploadedOn')}>{formatDateTime(repo.createdAt)}</Detail>
        <Group mt="xs">
          <FileDownload filePath={repo.filePath} originalName={repo.originalName} fileSize={repo.fileSize} />
          {mayDelete && <DeleteRepositoryButton id={repo._id} name={name} remove={remove} />}
        </Group>
      </Stack>
    </Card>
  );
}

/** Software Repositories (spec §2 /view-repo): cards sorted by group name; loading, error with Retry, empty. */
export function SoftwareRepoList({ viewer }: { viewer: Viewer }) {
  const { t } = useTranslation('repositories');
  const query = useSoftwareRepos();
  return (
    <RepositoryListStates
      query={query}
      loadingText={t('software.loading')}
      errorText={() => t('software.loadFailed')}
      empty={
        // EmptyState wraps its children in a paragraph: spans only inside.
        <>
          <Text span fw={700} display="block">
            {t('software.empty')}
          </Text>
          <Text span display="block">
            {t('software.emptyText')}
          </Text>
        </>
      }
    >
      {(repos) => (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          {repos.map((repo) => (
            <SoftwareRepoCard key={repo._id} repo={repo} viewer={viewer} />
          ))}
        </SimpleGrid>
      )}
    </RepositoryListStates>
  );
}
