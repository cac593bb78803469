import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /directorprofile — being built; its issue replaces this module. */
export default function DirectorProfileRoute() {
  return <SectionInProgress page="directorProfile" />;
}
