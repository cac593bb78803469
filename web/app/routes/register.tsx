import { Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { RegisterForm } from '#web/features/auth/components/register-form.tsx';

/** /register (spec §2): 'Register New User'. */
export default function RegisterRoute() {
  const { t } = useTranslation('auth');
  return (
    <Paper withBorder shadow="sm" radius="md" p={{ base: 'md', sm: 'xl' }} maw={900} mx="auto">
      <PageTitle>{t('register.title')}</PageTitle>
      <Text mb="lg">{t('register.intro')}</Text>
      <RegisterForm />
    </Paper>
  );
}
