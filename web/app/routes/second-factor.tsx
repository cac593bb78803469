import { Loader, Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';

import { PAGE_TOP_STATE } from '#web/components/layout/focus-moves.ts';
import { PageTitle } from '#web/components/page-title.tsx';
import { useSecondFactors } from '#web/features/auth/api.ts';
import { PasskeyStep } from '#web/features/auth/components/passkey-step.tsx';
import { SecondFactorPrompt, TotpEnrolment } from '#web/features/auth/components/second-factor.tsx';
import type { ReturnState } from '#web/lib/auth-storage.ts';
import { paths } from '#web/lib/paths.ts';

/**
 * /login/second-factor: a signed-in session the API refused until it passes the second factor its person must have
 * (decision 064; the API client sends it here on those 403s). A code from a factor, or setting one up; then back.
 */
export default function SecondFactorRoute() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const from = (useLocation().state as ReturnState | null)?.from;
  const mine = useSecondFactors();
  // Back to the page asked for, else home with the focus at the top of the page (decision 100).
  const done = () =>
    void (from && !from.startsWith(paths.login)
      ? navigate(from, { replace: true })
      : navigate(paths.home, { replace: true, state: PAGE_TOP_STATE }));
  const enrol = mine.data?.factors.length === 0;
  const hasPasskey = mine.data?.factors.some((f) => f.kind === 'passkey') ?? false;
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
      <PageTitle ta="center">{t('secondFactor.title')}</PageTitle>
      {!mine.data && <Loader mx="auto" display="block" aria-label={t('secondFactor.loading')} />}
      {mine.data && (
        // A passkey first, the stronger (decision 065): added at enrolment, or used by a person who has one.
        <PasskeyStep mode={enrol ? 'enrol' : hasPasskey ? 'prompt' : 'none'} onDone={done}>
          {enrol ? <TotpEnrolment onDone={done} /> : <SecondFactorPrompt onDone={done} />}
        </PasskeyStep>
      )}
    </Paper>
  );
}
