import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageTitle } from './page-title.tsx';

/** A screen of a later issue, until its helper replaces the route module: its title and a line saying so. */
export function SectionInProgress({ page }: { page: string }) {
  const { t } = useTranslation('common');
  return (
    <>
      <PageTitle>{t(`pages.${page}`)}</PageTitle>
      <Text>{t('sectionInProgress')}</Text>
    </>
  );
}
