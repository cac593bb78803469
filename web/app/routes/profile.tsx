import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /profile (my profile dashboard) — being built; its issue replaces this module. */
export default function ProfileRoute() {
  return <SectionInProgress page="profile" />;
}
