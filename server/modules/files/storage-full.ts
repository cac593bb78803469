import { AppError } from '#server/lib/errors.ts';


// ENOSPC: no space left on the device; EDQUOT: the user's disk quota is used up (both from write, mkdir, copyFile).
// PostgreSQL's disk_full (53100) when the database shares the disk. libvips (sharp) reports only the words.
const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', '53100']);
const FULL_TEXT = /No space left on device|Disk quota exceeded/i;

/** Did this error (or what caused it, as Drizzle wraps driver errors) come from a full disk? */
export function isStorageFull(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    depth++
  ) {
    if (typeof e.code === 'string' && FULL_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && FULL_TEXT.test(e.message)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/**
 * 507 Insufficient Storage (RFC 4918 §11.5): the server cannot store what it was sent. Not the sender's fault and
 * nothing they can fix by trying again, so the words send them to the administrator.
 */
export const storageFull = () => new AppError(507, 'storage.full');
