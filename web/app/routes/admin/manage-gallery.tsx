import { useTranslation } from 'react-i18next';

import { PageTitle } from '#web/components/page-title.tsx';
import { ManagePhotos } from '#web/features/gallery/components/manage-photos.tsx';
import { useOnlyLab } from '#web/features/labs/api.ts';

/** /admin/manageGallery — Manage Lab Photos (spec §2): it first fetches the single lab's id. */
export default function ManageGalleryRoute() {
  const { t } = useTranslation('common');
  const lab = useOnlyLab();
  return (
    <>
      <PageTitle>{t('pages.manageGallery')}</PageTitle>
      <ManagePhotos labId={lab.data?._id} labFailed={lab.isError} />
    </>
  );
}
