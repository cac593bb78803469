import { Button, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { PageTitle } from '#web/components/page-title.tsx';
import { paths } from '#web/lib/paths.ts';

/** Any address that is not a screen of the portal. */
export default function NotFoundRoute() {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle>{t('errors.notFound.title')}</PageTitle>
      <Text mb="md">{t('errors.notFound.text')}</Text>
      <Button component={Link} to={paths.home}>
        {t('errors.goHome')}
      </Button>
    </>
  );
}
