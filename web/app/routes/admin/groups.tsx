import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /admin/groups/:id — being built; its issue replaces this module. */
export default function AdminGroupsRoute() {
  return <SectionInProgress page="adminGroups" />;
}
