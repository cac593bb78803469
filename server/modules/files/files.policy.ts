import type { Db } from '#server/db/client.ts';
import type { FileRow } from '#server/db/schema/index.ts';
import type { Actor } from '#server/plugins/auth.ts';

/** Decides whether a signed-in person may download a private file. */
export type FileAccessCheck = (db: Db, actor: Actor, file: FileRow) => Promise<boolean>;

const checks = new Map<string, FileAccessCheck>();

/** Each module that owns a private area says who may download its files (e.g. letters: uploader, director, admin). */
export function registerFileAccess(area: string, check: FileAccessCheck) {
  checks.set(area, check);
}

/**
 * May this person download this private file? Admins always may. An area whose module has not registered a rule
 * is open only to the person who uploaded the file.
 */
export async function canDownloadFile(db: Db, actor: Actor, file: FileRow): Promise<boolean> {
  if (actor.role === 'admin') return true;
  const check = checks.get(file.area);
  if (check) return check(db, actor, file);
  return file.uploadedBy === actor.id;
}
