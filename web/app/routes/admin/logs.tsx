import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { ActivityLogs } from '#web/features/users/components/activity-logs.tsx';

/** /admin/logs: Admin Activity Logs (spec §2). */
export default function LogsRoute() {
  const { t } = useTranslation('people');
  return (
    <>
      <PageTitle>{t('logs.title')}</PageTitle>
      <ActivityLogs />
    </>
  );
}
