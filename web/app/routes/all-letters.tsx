import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /allLetter (Letters & Correspondence) — being built; its issue replaces this module. */
export default function AllLettersRoute() {
  return <SectionInProgress page="allLetters" />;
}
