import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /admin/manageGallery (Manage Lab Photos) — being built; its issue replaces this module. */
export default function ManageGalleryRoute() {
  return <SectionInProgress page="manageGallery" />;
}
