import { Alert, Group, List, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import type { MovementJson } from '#shared/schemas/letter.ts';

import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useLetterMovements } from '../api.ts';
import { DueBadge, PriorityBadge } from './dak-parts.tsx';

function Movement({ m }: { m: MovementJson }) {
  const { formatDateTime } = useFormatDate();
  const { t } = useTranslation('letters');
  const state = m.outcome
    ? t(`dak.outcome.${m.outcome}`, { when: formatDateTime(m.endedAt) })
    : m.receivedAt
      ? t('dak.state.received', { when: formatDateTime(m.receivedAt) })
      : t('dak.state.pending');
  return (
    <List.Item>
      <Stack gap={2}>
        <Group gap="xs" wrap="wrap">
          <Text size="sm" fw={600}>
            {t('dak.movement.line', { from: m.from?.name ?? t('unknown'), to: m.to.name })}
          </Text>
          <PriorityBadge priority={m.priority} />
          <DueBadge dueDate={m.dueDate} overdue={m.overdue} />
        </Group>
        <Text size="sm" c="gray.8">
          {t('dak.movement.period', { from: formatDateTime(m.markedAt) })} · {state}
        </Text>
        {m.remarks && <Text size="sm">{t('dak.movement.remarks', { remarks: m.remarks })}</Text>}
        {m.disposal && (
          <Text size="sm">
            {t('dak.movement.disposal', { disposal: m.disposal })}
            {m.fileNo ? ` · ${t('dak.movement.fileNo', { fileNo: m.fileNo })}` : ''}
            {m.replyRef ? ` · ${t('dak.movement.replyRef', { replyRef: m.replyRef })}` : ''}
          </Text>
        )}
      </Stack>
    </List.Item>
  );
}

/** Who had the letter, from when to when, with remarks and disposal (issue 17 item 4), oldest first. */
export function LetterMovements({ letterId }: { letterId: string }) {
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
        <Movement key={m._id} m={m} />
      ))}
    </List>
  );
}
