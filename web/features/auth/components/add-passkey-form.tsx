import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { TotpConfirmJson } from '#shared/schemas/auth.ts';
import { PASSKEY_LABEL_MAX } from '#shared/schemas/passkeys.ts';

import { serverMessage } from '#web/lib/form-errors.ts';

import { passkeyCancelled, useAddPasskey } from '../passkeys-api.ts';

/**
 * "Add a passkey" with a name for it (decision 065): signed in from My Account, or at enrolment with the sign-in
 * `ticket`. `onAdded` gets the server's answer: the session (enrolment) and the recovery codes of a first factor.
 */
export function AddPasskeyForm({ ticket, onAdded }: { ticket?: string; onAdded: (answer: TotpConfirmJson) => void }) {
  const { t } = useTranslation('auth');
  const add = useAddPasskey();
  const [label, setLabel] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!browserSupportsWebAuthn()) return <Text c="gray.8">{t('passkey.unsupported')}</Text>;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    add.mutate(
      { ticket, label: label.trim() },
      {
        onSuccess: (answer) => {
          setLabel('');
          onAdded(answer);
        },
        onError: (err) =>
          setError(passkeyCancelled(err) ? t('passkey.cancelled') : serverMessage(err, t('passkey.failed'))),
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('passkey.label')}
          description={t('passkey.labelHint')}
          value={label}
          maxLength={PASSKEY_LABEL_MAX}
          onChange={(e) => setLabel(e.currentTarget.value)}
        />
        {error && (
          <Alert color="red" variant="light" role="alert">
            <Text c="gray.9">{error}</Text>
          </Alert>
        )}
        <div>
          <Button type="submit" loading={add.isPending}>
            {t('passkey.add')}
          </Button>
        </div>
      </Stack>
    </form>
  );
}
