import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '#web/components/page-title.tsx';

/**
 * /admin/manage — Manage Users of the lab admin panel (spec §2). It renders `ManageUsers` of the people feature
 * (web/features/users/components/manage-users.tsx) once that exists.
 */
export default function AdminManageRoute() {
  const { t } = useTranslation('lab');
  return (
    <>
      <PageTitle>{t('admin.manageUsers')}</PageTitle>
      <Text>{t('admin.usersBeingBuilt')}</Text>
    </>
  );
}
