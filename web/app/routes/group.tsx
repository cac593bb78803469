import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /group/id/:id (group page) — being built; its issue replaces this module. */
export default function GroupRoute() {
  return <SectionInProgress page="group" />;
}
