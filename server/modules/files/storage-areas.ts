// The storage areas (decision 017): each upload lives in one, as <area>/<file id> (storage.ts).

/** Served without sign-in (lab home, news flash, photos). */
const PUBLIC = ['notices', 'circulars', 'products', 'advertisements', 'photos', 'directors', 'profile-photos'] as const;
/** Served only to those allowed to see the record: each has its module's rule in `app.fileAccess`. */
export const PRIVATE_AREAS = [
  'group-files',
  'user-documents',
  'close-groups',
  'letters',
  'software-repos',
  'trial-repos',
  // Documents uploaded into e-files (decision 107).
  'efiles',
] as const;
export const AREAS = [...PUBLIC, ...PRIVATE_AREAS] as const;
export type Area = (typeof AREAS)[number];
export const PUBLIC_AREAS: ReadonlySet<Area> = new Set<Area>(PUBLIC);

/**
 * Not an area: the audit trail's checkpoints (decision 068) are kept in DATA_DIR/audit-checkpoints and, with
 * STORAGE=s3, under this prefix of the bucket. A listing of uploads skips them, so the start-up sweep never removes them.
 */
export const AUDIT_CHECKPOINTS = 'audit-checkpoints';

/** The link a client uses for a stored file (relative to the portal's own origin). */
export const fileUrl = (area: string, fileId: string | null | undefined) =>
  fileId ? `/uploads/${area}/${fileId}` : null;
