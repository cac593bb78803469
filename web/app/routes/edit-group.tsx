import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /groups/:id/edit — being built; its issue replaces this module. */
export default function EditGroupRoute() {
  return <SectionInProgress page="editGroup" />;
}
