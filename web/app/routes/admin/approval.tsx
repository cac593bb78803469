import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /admin/approval (Pending User Approvals) — being built; its issue replaces this module. */
export default function ApprovalRoute() {
  return <SectionInProgress page="approval" />;
}
