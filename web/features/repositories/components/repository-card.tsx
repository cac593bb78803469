import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import type { SoftwareRepoJson, TrialRepoJson } from '#shared/schemas/repository.ts';

import { readableSize } from '../form-data.ts';
import { DeleteRepositoryButton, Detail, FileDownload, RepositoryListStates } from './repository-parts.tsx';

/** Who is looking: the uploader of a repository and an admin may delete it. */
export interface Viewer {
  userId: string | null;
  isAdmin: boolean;
}

/** The fields both kinds of repository share (spec §3). */
type RepositoryJson = SoftwareRepoJson | TrialRepoJson;

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

/** The "File:" line of a card: the attached file's name and size, else 'N/A'. */
export function FileDetail({ repo }: { repo: RepositoryJson }) {
  const { t } = useTranslation('repositories');
  return (
    <Detail label={t('card.file')}>
      {repo.originalName && repo.fileSize !== null
        ? t('card.fileValue', {
            name: repo.originalName,
            size: readableSize(repo.fileSize, (u) => t(`sizeUnits.${u}`)),
          })
        : null}
    </Detail>
  );
}

/**
 * A repository's card (spec §2): the group's name as its heading, the kind's own lines (`children`), then Download
 * File and, for the uploader or an admin, Delete.
 */
export function RepositoryCard({
  repo,
  headingPrefix,
  viewer,
  remove,
  children,
}: {
  repo: RepositoryJson;
  headingPrefix: string;
  viewer: Viewer;
  remove: Parameters<typeof DeleteRepositoryButton>[0]['remove'];
  children: ReactNode;
}) {
  const { t } = useTranslation('repositories');
  const name = repo.group.name || t('software.unnamed');
  const headingId = `${headingPrefix}-${repo._id}`;
  const mayDelete = viewer.isAdmin || (viewer.userId !== null && repo.uploadedBy?._id === viewer.userId);
  return (
    <Card withBorder radius="md" padding="lg" component="article" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Title order={2} size="h4" id={headingId}>
          {name}
        </Title>
        {children}
        <Group mt="xs">
          <FileDownload filePath={repo.filePath} originalName={repo.originalName} fileSize={repo.fileSize} />
          {mayDelete && <DeleteRepositoryButton id={repo._id} name={name} remove={remove} />}
        </Group>
      </Stack>
    </Card>
  );
}

/** A list of repository cards, two columns on wide screens, with the states of RepositoryListStates. */
export function RepositoryCardList<T extends RepositoryJson>({
  query,
  loadingText,
  errorText,
  emptyTitle,
  emptyText,
  card,
}: {
  query: UseInfiniteQueryResult<InfiniteData<T[]>>;
  loadingText: string;
  errorText: (err: unknown) => string;
  emptyTitle: string;
  emptyText: string;
  card: (repo: T) => ReactNode;
}) {
  return (
    <RepositoryListStates
      query={query}
      loadingText={loadingText}
      errorText={errorText}
      empty={
        // EmptyState wraps its children in a paragraph: spans only inside.
        <>
          <Text span fw={700} display="block">
            {emptyTitle}
          </Text>
          <Text span display="block">
            {emptyText}
          </Text>
        </>
      }
    >
      {(repos) => (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
          {repos.map(card)}
        </SimpleGrid>
      )}
    </RepositoryListStates>
  );
}
