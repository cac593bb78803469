import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /upload-trialRepo — being built; its issue replaces this module. */
export default function UploadTrialRepoRoute() {
  return <SectionInProgress page="uploadTrialRepo" />;
}
