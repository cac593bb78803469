import { Badge, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import type { CloseGroupJson, CloseGroupStatus } from '#shared/schemas/close-group.ts';

import { useFormatDate } from '#web/lib/use-format-date.ts';

// Shade 9 (and gray 8) keep white badge text above 4.5:1 (teal rather than green: green 9 is 4.4:1).
const STATUS_COLOR: Record<CloseGroupStatus, string> = { upcoming: 'blue.9', active: 'teal.9', ended: 'gray.8' };

/** Upcoming, Active or Ended: where the close group stands against its duration (the server's clock, India time). */
export function CloseGroupStatusBadge({ status }: { status: CloseGroupStatus }) {
  const { t } = useTranslation('close-groups');
  return (
    <Badge color={STATUS_COLOR[status]} variant="filled" tt="none" styles={{ label: { overflow: 'visible' } }}>
      {t(`status.${status}`)}
    </Badge>
  );
}

/** "1 Jun 2026 to 30 Jun 2026" (Indian style dates, spec §9). */
export function CloseGroupDuration({ group }: { group: Pick<CloseGroupJson, 'groupDuration'> }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation('close-groups');
  return (
    <Text size="sm" style={{ whiteSpace: 'nowrap' }} component="span">
      {t('durationRange', { from: formatDate(group.groupDuration.from), to: formatDate(group.groupDuration.to) })}
    </Text>
  );
}
