import { Alert, Button, Stack, Text } from '@mantine/core';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { SessionJson } from '#shared/schemas/auth.ts';

import { serverMessage } from '#web/lib/form-errors.ts';

import { passkeyCancelled, usePasskeySignIn } from '../passkeys-api.ts';

/**
 * "Use a passkey" (decision 065): the stronger second step, offered first to a person who has one. With the password
 * step's `ticket`, the session it answers is stored and handed to `onSignedIn`.
 */
export function PasskeySignInButton({ ticket, onSignedIn }: { ticket?: string; onSignedIn: (s: SessionJson) => void }) {
  const { t } = useTranslation('auth');
  const signIn = usePasskeySignIn();
  const [error, setError] = useState<string | null>(null);
  if (!browserSupportsWebAuthn()) return <Text c="gray.8">{t('passkey.unsupported')}</Text>;

  const use = () => {
    setError(null);
    signIn.mutate(
      { ticket },
      {
        onSuccess: onSignedIn,
        onError: (err) =>
          setError(passkeyCancelled(err) ? t('passkey.cancelled') : serverMessage(err, t('passkey.failed'))),
      },
    );
  };
  return (
    <Stack gap="xs">
      <Button fullWidth size="md" onClick={use} loading={signIn.isPending}>
        {t('passkey.use')}
      </Button>
      <Text size="sm" c="gray.8" ta="center">
        {t('passkey.useHint')}
      </Text>
      {error && (
        <Alert color="red" variant="light" role="alert">
          <Text c="gray.9">{error}</Text>
        </Alert>
      )}
    </Stack>
  );
}
