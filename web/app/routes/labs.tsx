import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /labs — being built; its issue replaces this module. */
export default function LabsRoute() {
  return <SectionInProgress page="labs" />;
}
