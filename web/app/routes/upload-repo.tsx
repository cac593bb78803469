import { useTranslation } from 'react-i18next';
import { mayUploadRepositories } from '#web/lib/access.policy.ts';
import { PageTitle } from '#web/components/page-title.tsx';
import { PanelLoader } from '#web/components/panel-loader.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { useUploadGroups } from '#web/features/repositories/api.ts';
import { defaultUploadGroup } from '#web/features/repositories/components/upload-repo-form.tsx';
import { UploaderOnly } from '#web/features/repositories/components/uploader-only.tsx';
import { UploadSoftwareRepoForm } from '#web/features/repositories/components/upload-software-repo-form.tsx';

/** /upload-repo — Upload Software Repository (spec §2), for associate directors and admins (the server decides). */
export default function UploadRepoRoute() {
  const { t } = useTranslation('repositories');
  const { role, user } = useSession();
  const groups = useUploadGroups({ enabled: mayUploadRepositories(role) });
  return (
    <>
      <PageTitle>{t('software.uploadTitle')}</PageTitle>
      <UploaderOnly role={role}>
        {/* The form starts once the groups it may offer are known, so its default group is one of them. */}
        {groups.isPending ? (
          <PanelLoader />
        ) : (
          <UploadSoftwareRepoForm
            groups={{ groups: groups.data ?? [], isPending: groups.isPending, isError: groups.isError }}
            defaultGroup={defaultUploadGroup(groups.data, user?.group?._id)}
          />
        )}
      </UploaderOnly>
    </>
  );
}
