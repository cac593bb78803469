import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /add-group — being built; its issue replaces this module. */
export default function AddGroupRoute() {
  return <SectionInProgress page="addGroup" />;
}
