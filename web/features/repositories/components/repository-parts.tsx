import { Alert, Anchor, Button, Center, Group, Loader, Progress, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { ConfirmDelete, type RowRemoval, useConfirmedDelete } from '#web/components/confirm-delete.tsx';
import { ViewDocument } from '#web/components/document-viewer/view-document.tsx';
import { EmptyState } from '#web/components/empty-state.tsx';
import { serverMessage } from '#web/lib/form-errors.ts';

import { fileHref, readableSize } from '../form-data.ts';

/** The groups a form offers, as the route loads them (GET /api/repositories/upload-groups: only those the sender may use). */
export interface GroupOptions {
  groups: { _id: string; name: string }[];
  isPending: boolean;
  isError: boolean;
}

/** The Group select of both upload forms, with the spec's words when the groups cannot be loaded. */
export function GroupSelect({
  options,
  value,
  onChange,
  invalid,
}: {
  options: GroupOptions;
  value: string;
  onChange: (value: string) => void;
  invalid: boolean;
}) {
  const { t } = useTranslation('repositories');
  return (
    <Stack gap={4}>
      <Select
        label={t('form.group')}
        placeholder={options.isPending ? t('form.groupsLoading') : t('form.groupPlaceholder')}
        data={options.groups.map((g) => ({ value: g._id, label: g.name }))}
        value={value || null}
        onChange={(next) => onChange(next ?? '')}
        searchable
        // Clicking the chosen group again must not empty a required select.
        allowDeselect={false}
        nothingFoundMessage={t('form.noGroups')}
        disabled={options.isPending}
        required
        error={invalid || undefined}
      />
      {options.isError && (
        <Text c="red.9" size="sm" role="alert">
          {t('errors.loadGroups')}
        </Text>
      )}
    </Stack>
  );
}

/** The chosen file's name under the file input (spec §2: "The chosen file name is shown"). */
export function ChosenFile({ file }: { file: File | null }) {
  const { t } = useTranslation('repositories');
  if (!file) return null;
  return (
    <Text size="sm" c="gray.8" data-testid="chosen-file">
      {t('form.chosenFile', { name: file.name, size: readableSize(file.size, (u) => t(`sizeUnits.${u}`)) })}
    </Text>
  );
}

export type Banner = { kind: 'success' | 'error'; text: string } | null;

/** The success or error banner and, while sending, the progress bar (spec §2 upload screens). */
export function UploadStatus({
  banner,
  progress,
  listLink,
}: {
  banner: Banner;
  progress: number | null;
  /** After a successful upload, a way to the list the repository now appears in. */
  listLink?: { to: string; label: string };
}) {
  const { t } = useTranslation('repositories');
  return (
    <>
      {progress !== null && (
        <Stack gap={4}>
          <Progress value={progress} size="lg" animated aria-label={t('form.progress', { percent: progress })} />
          <Text size="sm" c="gray.8" aria-live="polite">
            {t('form.progress', { percent: progress })}
          </Text>
        </Stack>
      )}
      {banner && (
        <Alert
          color={banner.kind === 'success' ? 'green' : 'red'}
          variant="light"
          role={banner.kind === 'error' ? 'alert' : 'status'}
        >
          <Text c="gray.9">{banner.text}</Text>
          {banner.kind === 'success' && listLink && (
            <Anchor component={Link} to={listLink.to} fw={600} c="blue.9" mt={4} display="inline-block">
              {listLink.label}
            </Anchor>
          )}
        </Alert>
      )}
    </>
  );
}

/** 'Upload failed: ' plus the server message, or 'An unknown error occurred.' (spec §8 Repositories). */
export function useUploadFailure() {
  const { t } = useTranslation('repositories');
  return (err: unknown) => t('banner.uploadFailed', { message: serverMessage(err, t('banner.unknownError')) });
}

/** 'Download File' for an attached file, else a disabled 'No File Available' (spec §2 Software Repositories). */
export function FileDownload({
  filePath,
  originalName,
  fileSize,
}: {
  filePath: string | null;
  originalName: string | null;
  fileSize: number | null;
}) {
  const { t } = useTranslation('repositories');
  if (!filePath) {
    return (
      <Button variant="default" disabled>
        {t('card.noFile')}
      </Button>
    );
  }
  return (
    <>
      <Button
        component="a"
        href={fileHref(filePath)}
        download={originalName ?? true}
        aria-label={t('card.downloadLabel', {
          name: originalName ?? '',
          size: fileSize === null ? '' : readableSize(fileSize, (u) => t(`sizeUnits.${u}`)),
        })}
      >
        {t('card.download')}
      </Button>
      <ViewDocument fileUrl={fileHref(filePath)} name={originalName ?? ''} fileName={originalName} />
    </>
  );
}

/** One "Label: value" line of a card; `value` null shows 'N/A'. */
export function Detail({ label, children }: { label: string; children: ReactNode }) {
  const { t } = useTranslation('repositories');
  return (
    <Text size="sm" c="gray.9" style={{ overflowWrap: 'anywhere' }}>
      <Text span fw={700}>
        {label}:
      </Text>{' '}
      {children ?? t('card.notAvailable')}
    </Text>
  );
}

/** Delete with confirmation first (spec §5 Confirmations), shown to the uploader or an admin. */
export function DeleteRepositoryButton({ id, name, remove }: { id: string; name: string; remove: RowRemoval }) {
  const { t } = useTranslation('repositories');
  const deletion = useConfirmedDelete<{ _id: string }>(remove, {
    deleted: () => notifications.show({ color: 'green', message: t('card.deleted') }),
    failed: (err) =>
      notifications.show({
        color: 'red',
        message: t('card.deleteFailed', { message: serverMessage(err, t('banner.unknownError')) }),
      }),
  });
  return (
    <>
      <Button
        variant="outline"
        color="red.9"
        onClick={() => deletion.ask({ _id: id })}
        aria-label={t('card.deleteLabel', { name })}
      >
        {t('card.delete')}
      </Button>
      <ConfirmDelete {...deletion.dialog} message={t('card.confirmDelete')} />
    </>
  );
}

/**
 * The states every repository list has (spec §2): loading, an error with Retry, the empty state, else the cards and a
 * button for the next server page.
 */
export function RepositoryListStates<T>({
  query,
  loadingText,
  errorText,
  empty,
  children,
}: {
  query: UseInfiniteQueryResult<InfiniteData<T[]>>;
  loadingText: string;
  errorText: (err: unknown) => string;
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  const { t } = useTranslation('repositories');
  if (query.isPending) {
    return (
      <Center py="xl" role="status">
        <Group gap="sm">
          <Loader size="sm" aria-hidden="true" />
          <Text c="gray.8">{loadingText}</Text>
        </Group>
      </Center>
    );
  }
  if (query.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        <Stack gap="sm" align="flex-start">
          <Text c="gray.9">{errorText(query.error)}</Text>
          <Button variant="default" onClick={() => void query.refetch()} loading={query.isRefetching}>
            {t('list.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  const items = query.data.pages.flat();
  if (!items.length) return <EmptyState>{empty}</EmptyState>;
  return (
    <Stack gap="md">
      {children(items)}
      {query.hasNextPage && (
        <Group justify="center">
          <Button variant="default" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
            {t('list.loadMore')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
