import { SectionInProgress } from '#web/components/section-in-progress.tsx';

/** /upload-repo — being built; its issue replaces this module. */
export default function UploadRepoRoute() {
  return <SectionInProgress page="uploadRepo" />;
}
