import { Alert, Badge, Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { AcknowledgementStatus, MyAcknowledgementJson } from '#shared/schemas/acknowledgements.ts';

import { EmptyState } from '#web/components/empty-state.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';
import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useAcknowledge, useMyAcknowledgements, useOpenAcknowledgement } from '../api.ts';
import { OwnerLine } from './acknowledgement-parts.tsx';

/** Where the focus goes once an acknowledged row has left the pending list: that list's heading. */
const PENDING_HEADING = 'acknowledgements-pending-heading';

function AcknowledgementCard({
  row,
  onAcknowledge,
}: {
  row: MyAcknowledgementJson;
  onAcknowledge: (row: MyAcknowledgementJson) => void;
}) {
  const { formatDate, formatDateTime } = useFormatDate();
  const { t } = useTranslation('acknowledgements');
  const headingId = useId();
  const hintId = useId();
  const open = useOpenAcknowledgement();
  // Opened on this page: Acknowledge is enabled at once, while the list refreshes with the server's openedAt.
  const [openedHere, setOpenedHere] = useState(false);
  const { document: doc } = row;
  const acknowledged = row.acknowledgedAt !== null;
  const opened = row.openedAt !== null || openedHere;

  const tellOpened = () =>
    open.mutate(row._id, {
      onSuccess: () => setOpenedHere(true),
      onError: (err) => notifications.show({ color: 'red', message: serverMessage(err, t('mine.openFailed')) }),
    });

  return (
    <Card component="article" withBorder radius="md" padding="lg" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap" align="center">
          {/* Under the list's h2 (axe heading-order). */}
          <Title order={3} size="h4" id={headingId} style={{ overflowWrap: 'anywhere' }}>
            {doc.name}
          </Title>
          <Badge color="gray.8" variant="outline" radius="sm" tt="none">
            {t(`kinds.${doc.kind}`)}
          </Badge>
          {row.overdue && (
            <Badge color="red.9" variant="filled" radius="sm" tt="none">
              {t('mine.overdue')}
            </Badge>
          )}
        </Group>
        <OwnerLine owner={doc.owner} />
        {doc.description && (
          <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }} lineClamp={4}>
            {doc.description}
          </Text>
        )}
        <Text size="sm" fw={acknowledged ? undefined : 600} c={row.overdue ? 'red.9' : 'gray.9'}>
          {acknowledged
            ? t('mine.deadline', { date: formatDate(row.dueOn) })
            : row.overdue
              ? t('mine.overdueSince', { date: formatDate(row.dueOn) })
              : t('mine.dueOn', { date: formatDate(row.dueOn) })}
        </Text>
        <Text size="sm" c="gray.8" id={hintId}>
          {acknowledged
            ? t('mine.acknowledgedAt', { when: formatDateTime(row.acknowledgedAt) })
            : row.openedAt
              ? t('mine.openedAt', { when: formatDateTime(row.openedAt) })
              : opened
                ? null
                : t('mine.notOpened')}
        </Text>
        <Group gap="sm">
          {doc.fileUrl ? (
            <Button
              component="a"
              href={doc.fileUrl}
              target="_blank"
              rel="noopener noreferrer"
              variant={opened ? 'default' : 'filled'}
              onClick={acknowledged ? undefined : tellOpened}
              loading={open.isPending}
              aria-label={`${t('mine.openLabel', { name: doc.name })} ${t('common:opensInNewTab')}`}
            >
              {t('mine.open')}
            </Button>
          ) : (
            !acknowledged && (
              <Button variant={opened ? 'default' : 'filled'} onClick={tellOpened} loading={open.isPending}>
                {t('mine.open')}
              </Button>
            )
          )}
          {!acknowledged && (
            <Button
              variant={opened ? 'filled' : 'default'}
              disabled={!opened}
              onClick={() => onAcknowledge(row)}
              aria-label={t('mine.acknowledgeLabel', { name: doc.name })}
              aria-describedby={opened ? undefined : hintId}
            >
              {t('mine.acknowledge')}
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}

function AcknowledgementList({
  status,
  headingId,
  onAcknowledge,
}: {
  status: AcknowledgementStatus;
  headingId: string;
  onAcknowledge: (row: MyAcknowledgementJson) => void;
}) {
  const { t } = useTranslation('acknowledgements');
  const list = useMyAcknowledgements(status);
  const rows = list.data?.pages.flat() ?? [];
  return (
    <Stack component="section" gap="sm" aria-labelledby={headingId}>
      <Title order={2} size="h3" id={headingId} tabIndex={-1}>
        {status === 'pending' ? t('mine.pendingTitle') : t('mine.acknowledgedTitle')}
      </Title>
      <div aria-live="polite" aria-busy={list.isFetching}>
        {list.isPending ? (
          <PanelLoader label={t('mine.loading')} />
        ) : list.isError ? (
          <Alert color="red" variant="light" role="alert" title={serverMessage(list.error) || t('mine.failed')}>
            <Button variant="default" size="xs" onClick={() => void list.refetch()}>
              {t('mine.retry')}
            </Button>
          </Alert>
        ) : rows.length === 0 ? (
          <EmptyState>{status === 'pending' ? t('mine.emptyPending') : t('mine.emptyAcknowledged')}</EmptyState>
        ) : null}
      </div>
      {rows.length > 0 && (
        <Stack component="ul" gap="md" p={0} m={0} style={{ listStyle: 'none' }}>
          {rows.map((row) => (
            <li key={row._id}>
              <AcknowledgementCard row={row} onAcknowledge={onAcknowledge} />
            </li>
          ))}
        </Stack>
      )}
      {list.hasNextPage && (
        <Group justify="center">
          <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
            {t('mine.loadMore')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

/**
 * "To acknowledge" (decision 074): the notices and circulars the signed-in person is asked to acknowledge, those
 * still waiting first (overdue first, marked), then those acknowledged. Open opens the document in a new tab and tells
 * the server so; Acknowledge is enabled after that and asks for a confirmation. The lists and the header's badge then
 * refresh.
 */
export function MyAcknowledgements() {
  const { t } = useTranslation('acknowledgements');
  const [asking, setAsking] = useState<MyAcknowledgementJson | null>(null);
  const acknowledge = useAcknowledge();
  // Set once a row is acknowledged: the dialog then hands the focus to the pending list, not to the row's button.
  const [done, setDone] = useState(false);

  const confirm = () => {
    if (!asking) return;
    const row = asking;
    acknowledge.mutate(row._id, {
      onSuccess: () => {
        setDone(true);
        notifications.show({ color: 'green', message: t('mine.done', { name: row.document.name }) });
        setAsking(null);
      },
      onError: (err) =>
        notifications.show({ color: 'red', message: serverMessage(err, t('mine.failedToAcknowledge')) }),
    });
  };

  return (
    <Stack gap="xl">
      <Text c="gray.9">{t('mine.intro')}</Text>
      <AcknowledgementList status="pending" headingId={PENDING_HEADING} onAcknowledge={setAsking} />
      <AcknowledgementList status="acknowledged" headingId="acknowledgements-done-heading" onAcknowledge={setAsking} />
      <Modal
        opened={asking !== null}
        onClose={() => setAsking(null)}
        title={t('mine.confirmTitle')}
        centered
        // The row that opened the dialog leaves the pending list once acknowledged: the focus goes to that list.
        returnFocus={!done}
        onExitTransitionEnd={() => {
          if (done) document.getElementById(PENDING_HEADING)?.focus();
          setDone(false);
        }}
      >
        <Text mb="lg">{t('mine.confirmText', { name: asking?.document.name ?? '' })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setAsking(null)} data-autofocus>
            {t('mine.cancel')}
          </Button>
          <Button onClick={confirm} loading={acknowledge.isPending}>
            {t('mine.confirm')}
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
