import { Anchor, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { PageTitle } from '#web/components/page-title.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { HelpContent } from '#web/features/site/components/help-content.tsx';
import { paths } from '#web/lib/paths.ts';

/** /help — how to do the main tasks, per role (decision 019). Public. */
export default function HelpRoute() {
  const { t } = useTranslation('help');
  const { role } = useSession();
  return (
    <>
      <PageTitle>{t('title')}</PageTitle>
      <Text mb="md">{t('lead')}</Text>
      <HelpContent role={role} />
      <Text mt="lg">
        <Anchor component={Link} to={paths.feedback} fw={600}>
          {t('contact')}
        </Anchor>
      </Text>
    </>
  );
}
