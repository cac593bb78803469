import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /admin/logs (Admin Activity Logs) — being built; its issue replaces this module. */
export default function LogsRoute() {
  return <SectionInProgress page="logs" />;
}
