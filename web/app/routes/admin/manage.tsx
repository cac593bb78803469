import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /admin/manage — being built; its issue replaces this module. */
export default function AdminManageRoute() {
  return <SectionInProgress page="adminManage" />;
}
