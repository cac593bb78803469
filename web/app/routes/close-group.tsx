import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /closeGroup (my group documents) — being built; its issue replaces this module. */
export default function CloseGroupRoute() {
  return <SectionInProgress page="closeGroup" />;
}
