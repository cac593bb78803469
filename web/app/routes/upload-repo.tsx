import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { useUploadGroups } from '#web/features/repositories/api.ts';
import { defaultUploadGroup } from '#web/features/repositories/components/upload-repo-form.tsx';
import { UploadSoftwareRepoForm } from '#web/features/repositories/components/upload-software-repo-form.tsx';
import { UploadTrialRepoForm } from '#web/features/repositories/components/upload-trial-repo-form.tsx';
import { UploaderOnly } from '#web/features/repositories/components/uploader-only.tsx';
import { mayUploadRepositories } from '#web/lib/access.policy.ts';

/** What differs between the two upload screens: the title and the form. */
const SCREENS = {
  software: { titleKey: 'software.uploadTitle', Form: UploadSoftwareRepoForm },
  trial: { titleKey: 'trial.uploadTitle', Form: UploadTrialRepoForm },
} as const;

/**
 * An upload screen of spec §2 (Upload Software Repository, Upload Trial Repository), for associate directors and
 * admins (the server decides).
 */
function UploadRepository({ kind }: { kind: keyof typeof SCREENS }) {
  const { t } = useTranslation('repositories');
  const { role, user } = useSession();
  const groups = useUploadGroups({ enabled: mayUploadRepositories(role) });
  const { titleKey, Form } = SCREENS[kind];
  return (
    <>
      <PageTitle>{t(titleKey)}</PageTitle>
      <UploaderOnly role={role}>
        {/* The form starts once the groups it may offer are known, so its default group is one of them. */}
        {groups.isPending ? (
          <PanelLoader />
        ) : (
          <Form
            groups={{ groups: groups.data ?? [], isPending: groups.isPending, isError: groups.isError }}
            defaultGroup={defaultUploadGroup(groups.data, user?.group?._id)}
          />
        )}
      </UploaderOnly>
    </>
  );
}

/** /upload-repo — Upload Software Repository. */
export default function UploadRepoRoute() {
  return <UploadRepository kind="software" />;
}

/** /upload-trialRepo — Upload Trial Repository (the router loads it from this module). */
export function UploadTrialRepoRoute() {
  return <UploadRepository kind="trial" />;
}
