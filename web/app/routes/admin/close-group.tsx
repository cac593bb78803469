import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /admin/closeGroup (Manage Close Groups) — being built; its issue replaces this module. */
export default function AdminCloseGroupRoute() {
  return <SectionInProgress page="adminCloseGroup" />;
}
