import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Group,
  Indicator,
  Loader,
  Popover,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import type { NotificationJson } from '#shared/schemas/notification.ts';

import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useNotificationCount, useNotifications, useReadAllNotifications, useReadNotification } from '../api.ts';

function BellIcon() {
  return (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M12 3a6 6 0 0 0-6 6v3.6l-1.7 2.9A1 1 0 0 0 5.2 17h13.6a1 1 0 0 0 .9-1.5L18 12.6V9a6 6 0 0 0-6-6Zm-2 15a2 2 0 0 0 4 0"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/**
 * The bell in the header (decision 020): how many notices are unread, and the newest of them — a letter was
 * marked or sent back to you, a letter you marked is overdue. Choosing one marks it read and opens where it is
 * acted on. `linkFor` says where a notice leads (the app decides the URLs).
 */
export function NotificationBell({ linkFor }: { linkFor: (n: NotificationJson) => string }) {
  const { formatDateTime } = useFormatDate();
  const { t } = useTranslation('common');
  const [opened, setOpened] = useState(false);
  const count = useNotificationCount(true);
  const list = useNotifications(opened);
  const read = useReadNotification();
  const readAll = useReadAllNotifications();
  const navigate = useNavigate();
  const unread = count.data?.unread ?? 0;

  const open = (n: NotificationJson) => {
    if (!n.readAt) read.mutate(n._id);
    setOpened(false);
    void navigate(linkFor(n));
  };

  return (
    <Indicator disabled={!unread} label={unread > 99 ? '99+' : unread} size={18} color="red.9" offset={4}>
      <Popover
        opened={opened}
        onChange={setOpened}
        position="bottom-end"
        width={340}
        shadow="md"
        withinPortal
        trapFocus
      >
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="navy"
            size="lg"
            onClick={() => setOpened((o) => !o)}
            aria-label={unread ? t('notifications.bellUnread', { count: unread }) : t('notifications.bell')}
          >
            <BellIcon />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown>
          <Stack gap="xs">
            <Group justify="space-between">
              <Text fw={700}>{t('notifications.title')}</Text>
              {unread > 0 && (
                <Button size="compact-sm" variant="subtle" onClick={() => readAll.mutate()} loading={readAll.isPending}>
                  {t('notifications.readAll')}
                </Button>
              )}
            </Group>
            {list.isPending ? (
              <Loader size="sm" role="status" aria-label={t('notifications.loading')} />
            ) : list.isError ? (
              <Text size="sm" c="red.9">
                {t('notifications.failed')}
              </Text>
            ) : list.data.notifications.length === 0 ? (
              <Text size="sm" c="gray.8">
                {t('notifications.empty')}
              </Text>
            ) : (
              <Stack
                component="ul"
                gap={4}
                p={0}
                m={0}
                style={{ listStyle: 'none', maxHeight: 360, overflowY: 'auto' }}
              >
                {list.data.notifications.map((n) => (
                  <li key={n._id}>
                    <UnstyledButton
                      onClick={() => open(n)}
                      w="100%"
                      p="xs"
                      style={{ borderRadius: 6, background: n.readAt ? undefined : 'var(--mantine-color-blue-0)' }}
                    >
                      <Group gap={6} wrap="nowrap" align="flex-start">
                        <Box style={{ flex: 1 }}>
                          <Text size="sm">
                            {t(`notifications.kinds.${n.kind}`, { name: n.actor?.name ?? t('notifications.someone') })}
                          </Text>
                          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                            {n.subject.ref} · {n.subject.title}
                          </Text>
                          <Text size="xs" c="gray.8">
                            {formatDateTime(n.createdAt)}
                          </Text>
                        </Box>
                        {!n.readAt && (
                          <Badge size="xs" color="blue.9" variant="filled">
                            {t('notifications.new')}
                          </Badge>
                        )}
                      </Group>
                    </UnstyledButton>
                  </li>
                ))}
              </Stack>
            )}
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
