import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import type { DakPriority } from '#shared/schemas/letter.ts';

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
