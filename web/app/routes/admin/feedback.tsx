import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { FeedbackAdmin } from '#web/features/site/components/feedback-admin.tsx';

/** /admin/feedback — the admins read, answer and mark feedback (decision 019). Admin guard. */
export default function AdminFeedbackRoute() {
  const { t } = useTranslation('site');
  return (
    <>
      <PageTitle>{t('admin.title')}</PageTitle>
      <FeedbackAdmin />
    </>
  );
}
