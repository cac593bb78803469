import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /dac (Letters Manager) — being built; its issue replaces this module. */
export default function LettersManagerRoute() {
  return <SectionInProgress page="dac" />;
}
