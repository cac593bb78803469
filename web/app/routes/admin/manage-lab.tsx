import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /admin/manage-lab (lab admin panel) — being built; its issue replaces this module. */
export default function ManageLabRoute() {
  return <SectionInProgress page="manageLab" />;
}
