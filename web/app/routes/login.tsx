import { Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { LoginJson } from '#shared/schemas/auth.ts';
import type { ReturnState } from '#web/app/guards.tsx';
import { paths } from '#web/app/paths.ts';
import { PageTitle } from '#web/components/page-title.tsx';
import { LoginForm } from '#web/features/auth/components/login-form.tsx';

/** /login (spec §2): after signing in, back to the guarded page that sent the person here, else home. */
export default function LoginRoute() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const from = (useLocation().state as ReturnState | null)?.from;

  const onSignedIn = ({ user }: LoginJson) => {
    if (user.role === 'pending_director') return void navigate(paths.pendingApproval, { replace: true });
    const back = from && !from.startsWith(paths.login) ? from : paths.home;
    void navigate(back, { replace: true });
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
      <PageTitle ta="center">{t('login.title')}</PageTitle>
      <LoginForm onSignedIn={onSignedIn} onPending={() => void navigate(paths.pendingApproval)} />
    </Paper>
  );
}
