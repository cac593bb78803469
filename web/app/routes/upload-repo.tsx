import { useTranslation } from 'react-i18next';
import { PageTitle } from '#web/components/page-title.tsx';
import { useSession } from '#web/features/auth/use-session.ts';
import { useGroupNames } from '#web/features/groups/api.ts';
import { UploaderOnly } from '#web/features/repositories/components/uploader-only.tsx';
import { UploadSoftwareRepoForm } from '#web/features/repositories/components/upload-software-repo-form.tsx';

/** /upload-repo — Upload Software Repository (spec §2), for associate directors and admins (the server decides). */
export default function UploadRepoRoute() {
  const { t } = useTranslation('repositories');
  const { role, user } = useSession();
  const groups = useGroupNames();
  return (
    <>
      <PageTitle>{t('software.uploadTitle')}</PageTitle>
      <UploaderOnly role={role}>
        <UploadSoftwareRepoForm
          groups={{ groups: groups.data ?? [], isPending: groups.isPending, isError: groups.isError }}
          defaultGroup={user?.group?._id ?? ''}
        />
      </UploaderOnly>
    </>
  );
}
