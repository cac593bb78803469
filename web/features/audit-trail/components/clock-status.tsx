import { Alert, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { formatDateTime } from '#shared/format.ts';

import { currentLanguage } from '#web/i18n/index.ts';
import { api } from '#web/lib/api-client.ts';

/** What GET /api/health says of the clock when NTP_SERVER is set (decision 126). */
interface HealthClock {
  clock?: { server: string; offsetMs: number | null; checkedAt: string | null; warning: boolean };
}

/**
 * The server's clock against NTP_SERVER, above the audit trail (whose times rest on it; decision 126): its offset and
 * when it was checked, yellow when over a second or unknown. Nothing without NTP_SERVER.
 */
export function ClockStatus() {
  const { t } = useTranslation('audit');
  const { data } = useQuery({
    queryKey: ['health', 'clock'],
    queryFn: () => api.get<HealthClock>('/api/health'),
    staleTime: 60_000,
  });
  const clock = data?.clock;
  if (!clock) return null;
  const at = formatDateTime(clock.checkedAt, '', currentLanguage());
  const seconds = clock.offsetMs === null ? '' : (clock.offsetMs / 1000).toFixed(2);
  return (
    <Alert color={clock.warning ? 'yellow' : 'green'} variant="light" mb="md" role="status">
      <Text c="gray.9" size="sm">
        {clock.offsetMs === null
          ? t('clock.unknown', { server: clock.server, at })
          : t(clock.warning ? 'clock.off' : 'clock.ok', { server: clock.server, seconds, at })}
      </Text>
    </Alert>
  );
}
