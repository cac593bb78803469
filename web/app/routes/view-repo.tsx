import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /view-repo — being built; its issue replaces this module. */
export default function ViewRepoRoute() {
  return <SectionInProgress page="viewRepo" />;
}
