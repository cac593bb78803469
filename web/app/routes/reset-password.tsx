import { Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';

import { PageTitle } from '#web/components/page-title.tsx';
import { ResetPasswordForm } from '#web/features/auth/components/reset-password-form.tsx';

/** /reset-password?token=… (decision 077): public; the mailed link opens it. */
export default function ResetPasswordRoute() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
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
      <PageTitle ta="center">{t('reset.title')}</PageTitle>
      <ResetPasswordForm token={params.get('token') ?? ''} />
    </Paper>
  );
}
