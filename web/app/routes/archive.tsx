import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { ArchiveList } from '#web/features/site/components/archive-list.tsx';

/** /archive — expired notices and circulars by year (decision 019). Public; staff also see their groups'. */
export default function ArchiveRoute() {
  const { t } = useTranslation('site');
  const { isSignedIn } = useSession();
  return (
    <>
      <PageTitle>{t('archive.title')}</PageTitle>
      <Text mb="md">{t('archive.lead')}</Text>
      <ArchiveList signedIn={isSignedIn} />
    </>
  );
}
