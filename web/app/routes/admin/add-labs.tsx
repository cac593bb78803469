import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /admin/add-labs (Add New Lab Information) — being built; its issue replaces this module. */
export default function AddLabsRoute() {
  return <SectionInProgress page="addLabs" />;
}
