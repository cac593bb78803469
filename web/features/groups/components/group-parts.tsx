import { Badge, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';

import type { GroupItemJson } from '#shared/schemas/group.ts';

import { FileTitle } from '#web/components/new-tab-link.tsx';
import i18n from '#web/i18n/index.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { serverMessage } from '#web/lib/form-errors.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

/** `fallback` followed by the server's sentence when there is one, e.g. 'Failed to save. Entry not found.' */
export function withServer(fallback: string, err: unknown): string {
  const detail = serverMessage(err);
  return detail ? `${fallback}: ${detail}` : fallback;
}

/** True when the failure is the server refusing access (403). */
export const isForbidden = (err: unknown) => err instanceof ApiError && err.status === 403;
/** True when the server could not be reached at all. */
export const isOffline = (err: unknown) => err instanceof ApiError && err.status === 0;

/** One notice, circular or file: a link to its file (new tab), its description and date. */
export function GroupItemEntry({ item }: { item: GroupItemJson }) {
  const { formatDate } = useFormatDate();
  const { t } = useTranslation(['groups', 'site']);
  return (
    <Stack gap={2}>
      <Group gap="xs" wrap="wrap">
        <FileTitle name={item.name} fileUrl={item.fileUrl} />
        {item.expired && (
          <Badge color="gray.7" variant="filled" size="sm">
            {t('page.archived')}
          </Badge>
        )}
      </Group>
      {item.description && (
        <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
          {item.description}
        </Text>
      )}
      <Text size="xs" c="gray.7">
        {t('page.posted', { date: formatDate(item.createdAt) })}
        {item.validUntil ? ` · ${t('page.validUntil', { date: formatDate(item.validUntil) })}` : ''}
        {` · ${t('site:lastUpdated', { date: formatDate(item.updatedAt) })}`}
        {item.fileName ? ` · ${item.fileName}` : ''}
      </Text>
    </Stack>
  );
}

/** A toast whose close button has a name (axe button-name); green for done, red for failed. */
export function toast(color: 'green' | 'red', message: string) {
  notifications.show({ color, message, closeButtonProps: { 'aria-label': i18n.t('close', { ns: 'groups' }) } });
}
