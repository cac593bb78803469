import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { TrialRepoList } from '#web/features/repositories/components/trial-repo-list.tsx';
import { seesEveryRepository } from '#web/lib/access.policy.ts';

/**
 * /view-trialRepo — My Group Trial Repositories (spec §2). Directors and admins see every group's, so their title is
 * the menu's "All Trial Repositories" (spec §6).
 */
export default function ViewTrialRepoRoute() {
  const { t } = useTranslation('repositories');
  const { role, userId, isAdmin } = useSession();
  const seesAll = seesEveryRepository(role);
  return (
    <>
      <PageTitle>{seesAll ? t('trial.allTitle') : t('trial.listTitle')}</PageTitle>
      <TrialRepoList viewer={{ userId, isAdmin }} />
    </>
  );
}
