import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { MyCloseGroups } from '#web/features/close-groups/components/my-close-groups.tsx';

/** /closeGroup (spec §2 My Group Documents): the signed-in user's close groups and their shared documents. */
export default function CloseGroupRoute() {
  const { t } = useTranslation('common');
  const { isAdmin } = useSession();
  return (
    <>
      <PageTitle>{t('pages.closeGroup')}</PageTitle>
      <MyCloseGroups isAdmin={isAdmin} />
    </>
  );
}
