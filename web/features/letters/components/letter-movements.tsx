import { Alert, Badge, Button, Group, List, Loader, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';

import type { MovementJson } from '#shared/schemas/letter.ts';

import { useStoredLogin } from '#web/lib/auth-storage.ts';
import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useLetterMovements, usePullBack } from '../api.ts';
import { DueBadge, PriorityBadge } from './dak-parts.tsx';

function Movement({ m, letterId }: { m: MovementJson; letterId: string }) {
  const { formatDateTime } = useFormatDate();
  const { t } = useTranslation('letters');
  const userId = useStoredLogin().user?._id ?? null;
  const pullBack = usePullBack();
  const state = m.forInformation
    ? m.outcome
      ? t(`dak.outcome.${m.outcome}`, { when: formatDateTime(m.endedAt) })
      : m.readAt
        ? t('dak.movement.seen', { when: formatDateTime(m.readAt) })
        : t('dak.movement.notSeen')
    : m.outcome
      ? t(`dak.outcome.${m.outcome}`, { when: formatDateTime(m.endedAt) })
      : m.receivedAt
        ? t('dak.state.received', { when: formatDateTime(m.receivedAt) })
        : t('dak.state.pending');
  // Whoever marked it (or marked it for the officer) may pull it back until it is opened (decision 079); the server
  // decides for a delegate, who sees the button on the officer's markings too.
  const canPullBack =
    !m.outcome &&
    !m.readAt &&
    !m.receivedAt &&
    (m.forInformation || m.status === 'pending') &&
    (m.from?._id === userId || m.markedBy?._id === userId);
  const onPullBack = () =>
    pullBack.mutate(
      { id: m.letter, movementId: m._id },
      {
        onSuccess: () =>
          notifications.show({ color: 'green', message: t('dak.pullBack.done', { letterId, name: m.to.name }) }),
        onError: (err) => notifications.show({ color: 'red', message: serverMessage(err) || t('dak.failed') }),
      },
    );
  return (
    <List.Item>
      <Stack gap={2}>
        <Group gap="xs" wrap="wrap">
          <Text size="sm" fw={600}>
            {t('dak.movement.line', { from: m.from?.name ?? t('unknown'), to: m.to.name })}
          </Text>
          {m.forInformation && (
            <Badge color="gray.8" variant="outline" radius="sm" tt="none">
              {t('dak.movement.forInformation')}
            </Badge>
          )}
          <PriorityBadge priority={m.priority} />
          <DueBadge dueDate={m.dueDate} overdue={m.overdue} />
        </Group>
        <Text size="sm" c="gray.8">
          {t('dak.movement.period', { from: formatDateTime(m.markedAt) })} · {state}
        </Text>
        {m.markedBy && m.from && (
          <Text size="sm">{t('dak.movement.markedFor', { name: m.markedBy.name, officer: m.from.name })}</Text>
        )}
        {m.receivedBy && (
          <Text size="sm">{t('dak.movement.receivedFor', { name: m.receivedBy.name, officer: m.to.name })}</Text>
        )}
        {m.endedBy && m.outcome && m.outcome !== 'pulled_back' && (
          <Text size="sm">{t('dak.movement.endedFor', { name: m.endedBy.name, officer: m.to.name })}</Text>
        )}
        {m.remarks && <Text size="sm">{t('dak.movement.remarks', { remarks: m.remarks })}</Text>}
        {m.disposal && (
          <Text size="sm">
            {t('dak.movement.disposal', { disposal: m.disposal })}
            {m.fileNo ? ` · ${t('dak.movement.fileNo', { fileNo: m.fileNo })}` : ''}
            {m.replyRef ? ` · ${t('dak.movement.replyRef', { replyRef: m.replyRef })}` : ''}
          </Text>
        )}
        {canPullBack && (
          <Group>
            <Button
              size="xs"
              variant="default"
              onClick={onPullBack}
              loading={pullBack.isPending}
              aria-label={t('dak.pullBack.label', { letterId, name: m.to.name })}
            >
              {t('dak.pullBack.button')}
            </Button>
          </Group>
        )}
      </Stack>
    </List.Item>
  );
}

/** Who had the letter, from when to when, with remarks and disposal (decision 020), oldest first. */
export function LetterMovements({ letterId, letterRef }: { letterId: string; letterRef?: string }) {
  const { t } = useTranslation('letters');
  const movements = useLetterMovements(letterId, true);
  if (movements.isPending) return <Loader size="sm" role="status" aria-label={t('dak.movement.loading')} />;
  if (movements.isError) {
    return (
      <Alert color="red" variant="light" role="alert">
        <Text c="gray.9">{t('dak.movement.failed')}</Text>
      </Alert>
    );
  }
  if (!movements.data.length) return <Text size="sm">{t('dak.movement.none')}</Text>;
  return (
    <List spacing="sm" listStyleType="none" aria-label={t('dak.movement.title')}>
      {movements.data.map((m) => (
        <Movement key={m._id} m={m} letterId={letterRef ?? ''} />
      ))}
    </List>
  );
}
