import { Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { ForgotPasswordForm } from '#web/features/auth/components/forgot-password-form.tsx';

/** /forgot-password (decision 077): public; the email to send a link to choose a new password to. */
export default function ForgotPasswordRoute() {
  const { t } = useTranslation('auth');
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
      <PageTitle ta="center">{t('forgot.title')}</PageTitle>
      <ForgotPasswordForm />
    </Paper>
  );
}
