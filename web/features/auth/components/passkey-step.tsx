import { Divider, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { SessionJson } from '#shared/schemas/auth.ts';

import { AddPasskeyForm } from './add-passkey-form.tsx';
import { PasskeySignInButton } from './passkey-sign-in-button.tsx';
import { RecoveryCodesShown } from './second-factor.tsx';

/**
 * The passkey part of the second step (decision 065), above the code prompt or the authenticator app's set-up
 * (`children`, decision 064): "Use a passkey" first for a person who has one (`prompt`), "Add a passkey" where a first
 * factor is to be set up (`enrol`), then the first factor's recovery codes once. With the sign-in `ticket`, or
 * without for a signed-in session (/login/second-factor). `onDone` gets the session a ticket started, else null.
 */
export function PasskeyStep({
  mode,
  ticket,
  onDone,
  children,
}: {
  mode: 'prompt' | 'enrol' | 'none';
  ticket?: string;
  onDone: (session: SessionJson | null) => void;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation('auth');
  const [shown, setShown] = useState<{ codes: string[]; session: SessionJson | null } | null>(null);
  if (shown) return <RecoveryCodesShown codes={shown.codes} onContinue={() => onDone(shown.session)} />;
  if (mode === 'none') return <>{children}</>;

  return (
    <Stack gap="md">
      <Title order={2} size="h4">
        {t(mode === 'enrol' ? 'passkey.enrolTitle' : 'passkey.stepTitle')}
      </Title>
      <Text size="sm">{t(mode === 'enrol' ? 'passkey.enrolIntro' : 'passkey.stepIntro')}</Text>
      {mode === 'prompt' ? (
        <PasskeySignInButton ticket={ticket} onSignedIn={onDone} />
      ) : (
        <AddPasskeyForm
          ticket={ticket}
          onAdded={(answer) => {
            const session = answer.token && answer.user ? { token: answer.token, user: answer.user } : null;
            if (answer.recoveryCodes?.length) setShown({ codes: answer.recoveryCodes, session });
            else onDone(session);
          }}
        />
      )}
      <Divider label={t(mode === 'enrol' ? 'passkey.orApp' : 'passkey.orCode')} labelPosition="center" />
      {children}
    </Stack>
  );
}
