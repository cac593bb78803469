import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { clearLogin } from '#web/lib/auth-storage.ts';
import { paths } from '#web/lib/paths.ts';

import { useSignOutEverywhere } from '../api.ts';

/**
 * Sign out of all devices (decision 047): every session of the account ends on the server, this one included, and the
 * browser goes to the sign-in page with nothing of the person left in the page.
 */
export function SignOutEverywhere() {
  const { t } = useTranslation('people');
  const signOut = useSignOutEverywhere();
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  const submit = () =>
    signOut.mutate(undefined, {
      onSuccess: () => {
        clearLogin();
        queryClient.clear();
        void navigate(paths.login, { replace: true });
      },
      onError: () => notifications.show({ color: 'red', message: t('sessions.failed') }),
    });

  return (
    <Stack gap="sm">
      <Text size="sm" c="gray.8">
        {t('sessions.intro')}
      </Text>
      <Group>
        <Button variant="outline" onClick={submit} loading={signOut.isPending}>
          {t('sessions.submit')}
        </Button>
      </Group>
    </Stack>
  );
}
