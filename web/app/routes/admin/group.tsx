import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /admin/group/:id (group admin panel) — being built; its issue replaces this module. */
export default function AdminGroupRoute() {
  return <SectionInProgress page="adminGroup" />;
}
