import { Alert, Paper, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';

import { isSignInStep, type LoginJson, type SignInStepJson } from '#shared/schemas/auth.ts';

import { PAGE_TOP_STATE } from '#web/components/layout/focus-moves.ts';
import { PageTitle } from '#web/components/page-title.tsx';
import { ExpiredPasswordForm } from '#web/features/auth/components/expired-password-form.tsx';
import { LoginForm, RegisterPrompt } from '#web/features/auth/components/login-form.tsx';
import { PasskeyStep } from '#web/features/auth/components/passkey-step.tsx';
import { SecondFactorPrompt, TotpEnrolment } from '#web/features/auth/components/second-factor.tsx';
import { SsoSignIn } from '#web/features/auth/components/sso-sign-in.tsx';
import { awaitsDirectorApproval } from '#web/lib/access.policy.ts';
import type { ReturnState } from '#web/lib/auth-storage.ts';
import { sessionExpiredNote } from '#web/lib/auth-storage.ts';
import { paths } from '#web/lib/paths.ts';

/** /login (spec §2): after signing in, back to the guarded page that sent the person here, else home. */
export default function LoginRoute() {
  const { t } = useTranslation(['auth', 'site']);
  const navigate = useNavigate();
  const state = useLocation().state as ReturnState | null;
  const from = state?.from;
  // Signed out at the end of the session (decision 019): said once, then forgotten.
  const [expired] = useState(() => Boolean(state?.expired) || sessionExpiredNote());
  useEffect(() => void sessionExpiredNote({ forget: true }), []);

  // The second step of a sign-in where a second factor is required (decision 064): the code, or setting one up; or
  // the change of an expired password (decision 117), which may lead to the second factor.
  const [step, setStep] = useState<SignInStepJson | null>(null);

  const onSignedIn = (login: LoginJson | null) => {
    if (login && isSignInStep(login)) return setStep(login);
    const user = login?.user;
    if (user && awaitsDirectorApproval(user.role)) return void navigate(paths.pendingApproval, { replace: true });
    // Back to the page asked for (its heading takes the focus), else home with the focus at the top of the page
    // (decision 100).
    if (from && !from.startsWith(paths.login)) return void navigate(from, { replace: true });
    void navigate(paths.home, { replace: true, state: PAGE_TOP_STATE });
  };

  return (
    <Paper
      withBorder
      shadow="sm"
      radius="md"
      p={{ base: 'md', sm: 'xl' }}
      maw={440}
      mx="auto"
      mt={{ base: 0, sm: 'lg' }}
    >
      <PageTitle ta="center">
        {step?.code === 'auth.password_expired'
          ? t('reset.title')
          : step
            ? t(
                step.code === 'auth.second_factor_required' || step.methods.includes('passkey')
                  ? 'secondFactor.title'
                  : 'secondFactor.enrolTitle',
              )
            : t('login.title')}
      </PageTitle>
      {expired && (
        // Signed out at the end of the session (decision 019): say why, then come back to `from` after signing in.
        <Alert color="yellow" variant="light" role="status" mb="md">
          <Text c="gray.9">{t('site:session.expired')}</Text>
        </Alert>
      )}
      {!step && (
        <>
          <SsoSignIn onSignedIn={onSignedIn}>
            <LoginForm onSignedIn={onSignedIn} onPending={() => void navigate(paths.pendingApproval)} />
          </SsoSignIn>
          <RegisterPrompt />
        </>
      )}
      {step?.code === 'auth.password_expired' && (
        <ExpiredPasswordForm key={step.ticket} step={step} onDone={onSignedIn} />
      )}
      {step && step.code !== 'auth.password_expired' && (
        // A passkey first, the stronger (decision 065), then the code or the authenticator app (decision 064).
        <PasskeyStep
          ticket={step.ticket}
          mode={
            !step.methods.includes('passkey')
              ? 'none'
              : step.code === 'auth.second_factor_required'
                ? 'prompt'
                : 'enrol'
          }
          onDone={onSignedIn}
        >
          {step.code === 'auth.second_factor_required' ? (
            <SecondFactorPrompt ticket={step.ticket} onDone={onSignedIn} />
          ) : (
            <TotpEnrolment ticket={step.ticket} onDone={onSignedIn} />
          )}
        </PasskeyStep>
      )}
    </Paper>
  );
}
