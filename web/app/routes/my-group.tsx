import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /my-group — being built; its issue replaces this module. */
export default function MyGroupRoute() {
  return <SectionInProgress page="myGroup" />;
}
