import { Badge, Button, Group, Loader, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import type { ActiveSessionJson } from '#shared/schemas/auth.ts';

import { clearLogin } from '#web/lib/auth-storage.ts';
import { serverMessage } from '#web/lib/form-errors.ts';
import { paths } from '#web/lib/paths.ts';
import { useFormatDate } from '#web/lib/use-format-date.ts';

import { useEndSession, useMySessions } from '../api.ts';
import { deviceName } from '../device-name.ts';

/** "Chromium on Linux", "Chrome", "Linux", or "Unknown device". */
function useDevice() {
  const { t } = useTranslation('people');
  return (userAgent: string) => {
    const { browser, system } = deviceName(userAgent);
    if (browser && system) return t('security.device', { browser, system });
    return browser ?? system ?? t('security.unknownDevice');
  };
}

/**
 * My Account → Security: active sessions. Every live session of my account (GET
 * /api/auth/sessions) with its device, address, when it began, this one marked, and "Sign out" of each (DELETE
 * /api/auth/sessions/{id}); signing this one out signs this browser out and goes to the sign-in page.
 */
export function ActiveSessions() {
  const { t } = useTranslation('people');
  const { formatDateTime } = useFormatDate();
  const sessions = useMySessions();
  const end = useEndSession();
  const device = useDevice();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const signOut = (session: ActiveSessionJson) =>
    end.mutate(session._id, {
      onSuccess: () => {
        if (!session.current) {
          notifications.show({ color: 'green', message: t('security.signedOut') });
          return;
        }
        clearLogin();
        queryClient.clear();
        void navigate(paths.login, { replace: true });
      },
      onError: (err) => notifications.show({ color: 'red', message: serverMessage(err) || t('security.failed') }),
    });

  if (sessions.isPending) {
    return (
      <Group gap="sm" role="status">
        <Loader size="sm" />
        <Text>{t('security.loading')}</Text>
      </Group>
    );
  }
  if (sessions.isError) {
    return (
      <Text c="red.9" role="alert">
        {t('security.loadFailed')}
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      <Text size="sm" c="gray.8">
        {t('security.intro')}
      </Text>
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="xs" aria-label={t('security.sessions')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('security.deviceColumn')}</Table.Th>
              <Table.Th>{t('security.address')}</Table.Th>
              <Table.Th>{t('security.started')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('security.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sessions.data.map((s) => (
              <Table.Tr key={s._id}>
                <Table.Td>
                  <Group gap="xs">
                    <Text size="sm">{device(s.userAgent)}</Text>
                    {s.current && (
                      // NOTE: green 9 on the light green badge is 3.8:1 (axe, e2e/second-factor.e2e.ts); gray 9 passes AA.
                      <Badge color="green" variant="light" c="gray.9">
                        {t('security.thisOne')}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{s.address || t('security.unknownAddress')}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatDateTime(s.createdAt)}</Text>
                </Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="outline"
                    onClick={() => signOut(s)}
                    loading={end.isPending && end.variables === s._id}
                    aria-label={t('security.signOutOf', {
                      device: device(s.userAgent),
                      when: formatDateTime(s.createdAt),
                    })}
                  >
                    {t('security.signOut')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
