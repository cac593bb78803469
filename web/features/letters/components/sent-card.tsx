import { Badge, Button, Card, Collapse, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { InboxLetterJson } from '#shared/schemas/letter.ts';

import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { usePullBack } from '../api.ts';
import { DueBadge, PriorityBadge, Whereabouts } from './dak-parts.tsx';
import { LetterMovements } from './letter-movements.tsx';
import { ClassificationBadge } from './letter-parts.tsx';

/**
 * A letter I marked on or copied, in "Sent" (decision 099): to whom and when, what became of my marking, where the
 * letter is now, and Pull Back while the recipient has not received (or, a copy, seen) it.
 */
export function SentCard({ letter }: { letter: InboxLetterJson }) {
  const { formatDateTime } = useFormatDate();
  const { t } = useTranslation('letters');
  const headingId = useId();
  const detailsId = useId();
  const [open, setOpen] = useState(false);
  const pullBack = usePullBack();
  const m = letter.movement;
  const subject = letter.letterSub || t('noSubject');
  const to = m.to.designation ? `${m.to.name}, ${m.to.designation}` : m.to.name;
  const info = m.forInformation;
  // The rule of letters.pull_back (decision 079); the server decides.
  const canPullBack = !m.outcome && !m.readAt && !m.receivedAt && (info || m.status === 'pending');
  const state = info
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
  const onPullBack = () =>
    pullBack.mutate(
      { id: letter._id, movementId: m._id },
      {
        onSuccess: () =>
          notifications.show({
            color: 'green',
            message: t('dak.pullBack.done', { letterId: letter.letterId, name: m.to.name }),
          }),
        onError: (err) => notifications.show({ color: 'red', message: serverMessage(err) || t('dak.failed') }),
      },
    );
  return (
    <Card component="article" withBorder radius="md" padding="lg" aria-labelledby={headingId}>
      <Stack gap="xs">
        <Title order={2} size="h4" id={headingId} style={{ overflowWrap: 'anywhere' }}>
          {subject}
        </Title>
        <Group gap={6} wrap="wrap">
          {info && (
            <Badge color="gray.8" variant="outline" radius="sm" tt="none">
              {t('dak.movement.forInformation')}
            </Badge>
          )}
          <ClassificationBadge classification={letter.classification} />
          <PriorityBadge priority={m.priority} />
          <DueBadge dueDate={m.dueDate} overdue={m.overdue} />
        </Group>
        <Text size="sm">
          {t(info ? 'dak.inbox.copiedTo' : 'dak.inbox.sentTo', {
            letterId: letter.letterId,
            who: to,
            when: formatDateTime(m.markedAt),
          })}
        </Text>
        {m.markedBy && m.from && (
          <Text size="sm">{t('dak.movement.markedFor', { name: m.markedBy.name, officer: m.from.name })}</Text>
        )}
        <Text size="sm" c="gray.8">
          {state}
        </Text>
        <Whereabouts dak={letter.dak} />
        {m.remarks && <Text size="sm">{t('dak.movement.remarks', { remarks: m.remarks })}</Text>}
        <Group gap="sm">
          {canPullBack && (
            <Button
              variant="default"
              onClick={onPullBack}
              loading={pullBack.isPending}
              aria-label={t('dak.pullBack.label', { letterId: letter.letterId, name: m.to.name })}
            >
              {t('dak.pullBack.button')}
            </Button>
          )}
          <Button
            variant="subtle"
            onClick={() => setOpen((v) => !v)}
            aria-expanded={open}
            aria-controls={detailsId}
            aria-label={t(open ? 'dak.inbox.hideDetailsLabel' : 'dak.inbox.showDetailsLabel', {
              letterId: letter.letterId,
            })}
          >
            {open ? t('dak.inbox.hideDetails') : t('dak.inbox.showDetails')}
          </Button>
        </Group>
        <Collapse expanded={open} id={detailsId}>
          {open && (
            <Stack gap="sm" pt="xs">
              <Text fw={600} size="sm">
                {t('dak.movement.title')}
              </Text>
              <LetterMovements letterId={letter._id} letterRef={letter.letterId} />
            </Stack>
          )}
        </Collapse>
      </Stack>
    </Card>
  );
}
