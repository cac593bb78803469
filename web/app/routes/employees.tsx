import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { useGroupNames } from '#web/features/groups/api.ts';
import { EmployeeDirectory } from '#web/features/users/components/employee-directory.tsx';

/** /employees: the employee directory (spec §2), with the group filter's options from the groups feature. */
export default function EmployeesRoute() {
  const { t } = useTranslation('people');
  const groups = useGroupNames();
  return (
    <>
      <PageTitle>{t('directory.title')}</PageTitle>
      <EmployeeDirectory groups={groups.data ?? []} />
    </>
  );
}
