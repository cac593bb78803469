import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { ManageUsers } from '#web/features/users/components/manage-users.tsx';

/** /admin/manage — Manage Users of the lab admin panel (spec §2): the people feature's table, beside the side menu. */
export default function AdminManageRoute() {
  const { t } = useTranslation('lab');
  return (
    <>
      <PageTitle>{t('admin.manageUsers')}</PageTitle>
      <ManageUsers />
    </>
  );
}
