import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { SoftwareRepoList } from '#web/features/repositories/components/software-repo-list.tsx';

/** /view-repo — Software Repositories (spec §2): every group's for directors and admins, else the person's group's. */
export default function ViewRepoRoute() {
  const { t } = useTranslation('repositories');
  const { userId, isAdmin } = useSession();
  return (
    <>
      <PageTitle>{t('software.listTitle')}</PageTitle>
      <SoftwareRepoList viewer={{ userId, isAdmin }} />
    </>
  );
}
