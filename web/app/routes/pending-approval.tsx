import { Button, Group, List, Paper, Text, ThemeIcon } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { PageTitle } from '#web/components/page-title.tsx';
import { paths } from '#web/lib/paths.ts';

function HourglassIcon() {
  return (
    <svg width="28" height="28" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d="M6 2h12v2h-1v3.5a5 5 0 0 1-2.6 4.4L14 12l.4.1A5 5 0 0 1 17 16.5V20h1v2H6v-2h1v-3.5a5 5 0 0 1 2.6-4.4L10 12l-.4-.1A5 5 0 0 1 7 7.5V4H6V2zm3 2v3.5a3 3 0 0 0 1.6 2.6L12 11l1.4-.9A3 3 0 0 0 15 7.5V4H9z"
        fill="currentColor"
      />
    </svg>
  );
}

/**
 * /pending-approval (spec §4): a person whose account is not approved yet is told to wait for an administrator.
 * Public: such a person holds no token.
 */
export default function PendingApprovalRoute() {
  const { t } = useTranslation('auth');
  return (
    <Paper
      withBorder
      shadow="sm"
      radius="md"
      p={{ base: 'md', sm: 'xl' }}
      maw={640}
      mx="auto"
      mt={{ base: 0, sm: 'lg' }}
    >
      <Group gap="md" wrap="nowrap" align="center" mb="sm">
        <ThemeIcon size={52} radius="xl" color="yellow.4" c="gray.9" aria-hidden="true">
          <HourglassIcon />
        </ThemeIcon>
        <PageTitle mb={0}>{t('pending.title')}</PageTitle>
      </Group>
      <Text size="lg" mb="md">
        {t('pending.lead')}
      </Text>
      <List spacing="xs" mb="lg">
        <List.Item>{t('pending.step1')}</List.Item>
        <List.Item>{t('pending.step2')}</List.Item>
        <List.Item>{t('pending.step3')}</List.Item>
      </List>
      <Group>
        <Button component={Link} to={paths.login}>
          {t('pending.backToLogin')}
        </Button>
        <Button component={Link} to={paths.home} variant="default">
          {t('pending.home')}
        </Button>
      </Group>
    </Paper>
  );
}
