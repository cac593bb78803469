import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /view-trialRepo — being built; its issue replaces this module. */
export default function ViewTrialRepoRoute() {
  return <SectionInProgress page="viewTrialRepo" />;
}
