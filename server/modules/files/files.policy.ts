import { forbidden } from '#server/lib/errors.ts';
import { definePolicy } from '#server/lib/policy.ts';
import { adminsOnly } from '#server/lib/roles.policy.ts';
import type { Actor } from '#server/plugins/auth.ts';

/** Who may do what in this module (decision 035). */
export const filesPolicy = definePolicy({
  /**
   * Downloading a private file (GET /uploads/{area}/{name}): `areaAllows` is what its area's rule answered
   * (`app.fileAccess.canDownload`, which loads the record the file belongs to).
   */
  'files.download': (_actor: Actor | null, { areaAllows }: { areaAllows: boolean }) =>
    areaAllows ? true : forbidden('files.open_forbidden'),
  /** How many scans wait for OCR and failed, and queueing the failed ones again (decision 113): admins. */
  'files.ocr_administer': adminsOnly,
});
