import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** / (lab home, spec §2) — being built; its issue replaces this module. */
export default function HomeRoute() {
  return <SectionInProgress page="home" />;
}
