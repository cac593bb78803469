import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /admin/add-groups (Create New Research Group) — being built; its issue replaces this module. */
export default function AddGroupsRoute() {
  return <SectionInProgress page="addGroups" />;
}
