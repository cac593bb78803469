import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { SecondFactorStepJson, SessionJson } from '#shared/schemas/auth.ts';

import { AddPasskeyForm } from './add-passkey-form.tsx';
import { PasskeySignInButton } from './passkey-sign-in-button.tsx';
import { RecoveryCodesNote } from './recovery-codes-note.tsx';

/**
 * The sign-in's second step (decisions 064, 065) as far as passkeys go: "Use a passkey" first for a person who has
 * one; at enrolment, "Add a passkey" with the ticket, then the recovery codes once. The code prompt of an
 * authenticator app (totp branch) sits below `children`.
 */
export function SecondFactorStep({
  step,
  onSignedIn,
  onBack,
  children,
}: {
  step: SecondFactorStepJson;
  onSignedIn: (session: SessionJson) => void;
  onBack: () => void;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation('auth');
  const [enrolled, setEnrolled] = useState<{ session: SessionJson; codes: string[] } | null>(null);
  const enrolment = step.code === 'auth.second_factor_enrolment_required';

  if (enrolled) {
    return (
      <Stack gap="md">
        <RecoveryCodesNote codes={enrolled.codes} />
        <Button onClick={() => onSignedIn(enrolled.session)}>{t('passkey.continue')}</Button>
      </Stack>
    );
  }
  return (
    <Stack gap="md">
      <Title order={2} size="h4">
        {t(enrolment ? 'passkey.enrolTitle' : 'passkey.stepTitle')}
      </Title>
      <Text c="gray.8">{t(enrolment ? 'passkey.enrolIntro' : 'passkey.stepIntro')}</Text>
      {step.methods.includes('passkey') &&
        (enrolment ? (
          <AddPasskeyForm
            ticket={step.ticket}
            onAdded={(answer) => {
              if (!answer.token || !answer.user) return;
              const session = { token: answer.token, user: answer.user };
              if (answer.recoveryCodes?.length) setEnrolled({ session, codes: answer.recoveryCodes });
              else onSignedIn(session);
            }}
          />
        ) : (
          <PasskeySignInButton ticket={step.ticket} onSignedIn={onSignedIn} />
        ))}
      {children}
      <Anchor component="button" type="button" onClick={onBack} size="sm">
        {t('passkey.backToLogin')}
      </Anchor>
    </Stack>
  );
}
