import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import type { DakPriority, LetterJson } from '#shared/schemas/letter.ts';

import { useFormatDate } from '#web/lib/use-format-date.ts';

/** Urgent and Most Immediate, written plainly on the letter; Normal shows nothing. */
export function PriorityBadge({ priority }: { priority: DakPriority }) {
  const { t } = useTranslation('letters');
  if (priority === 'Normal') return null;
  return (
    <Badge color={priority === 'Most Immediate' ? 'red.9' : '#9a3412'} variant="filled" radius="sm">
      {t(`dak.priority.${priority}`)}
    </Badge>
  );
}

/** "Due 21 Nov 2026", or "Overdue since 21 Nov 2026" in red. */
export function DueBadge({ dueDate, overdue }: { dueDate: string | null; overdue: boolean }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('letters');
  if (!dueDate) return null;
  return overdue ? (
    <Badge color="red.9" variant="filled" radius="sm" tt="none" style={{ flexShrink: 0, overflow: 'visible' }}>
      {t('dak.overdueSince', { date: formatDate(dueDate) })}
    </Badge>
  ) : (
    <Badge color="gray.8" variant="outline" radius="sm" tt="none" style={{ flexShrink: 0, overflow: 'visible' }}>
      {t('dak.dueOn', { date: formatDate(dueDate) })}
    </Badge>
  );
}

/** "Ravi Kumar, Scientist D", or the name alone when no designation is on record. */
const who = (h: { name: string; designation?: string }) => (h.designation ? `${h.name}, ${h.designation}` : h.name);

/**
 * Where the letter is now (decision 099): "With Ravi Kumar, Scientist D — received 21 Nov 2026", "Marked to Meena
 * Iyer, not yet received", or who closed it. The server sends it only with a letter the viewer may see (whose dak
 * trail they may read already); nothing before the letter first moves.
 */
export function Whereabouts({ dak }: { dak: LetterJson['dak'] }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('letters');
  if (!dak) return null;
  const lines = dak.holders.length
    ? dak.holders.map((h) =>
        h.status === 'received'
          ? t('dak.whereabouts.received', { who: who(h), when: formatDate(h.receivedAt) })
          : t('dak.whereabouts.pending', { who: who(h) }),
      )
    : [
        dak.closed
          ? t('dak.whereabouts.closed', { name: dak.closed.by.name, when: formatDate(dak.closed.at) })
          : t('dak.whereabouts.nobody'),
      ];
  return (
    <Text size="sm" data-testid="whereabouts">
      <Text span fw={600} size="sm">
        {t('dak.whereabouts.label')}:
      </Text>{' '}
      {lines.join('; ')}
    </Text>
  );
}
