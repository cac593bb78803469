import type { Db } from '#server/db/client.ts';
import type { FileRow } from '#server/db/schema/index.ts';
import { isAdmin } from '#server/lib/roles.policy.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { PRIVATE_AREAS } from './storage-areas.ts';

/** Decides whether a signed-in person may download a private file. */
export type FileAccessCheck = (db: Db, actor: Actor, file: FileRow) => Promise<boolean>;

/** Who may download the files of each private area: the app's `app.fileAccess` (server/app.ts). */
export interface FileAccessRules {
  /** Each module that owns a private area says, as its plugin registers, who may download its files. */
  register(area: string, check: FileAccessCheck): void;
  /** May this person download this private file? Admins always may; an area without a rule only its uploader. */
  canDownload(db: Db, actor: Actor, file: FileRow): Promise<boolean>;
  /** Private areas no module has given a rule (checked when the app is ready). */
  missing(): string[];
}

export function createFileAccess(): FileAccessRules {
  const checks = new Map<string, FileAccessCheck>();
  return {
    register(area, check) {
      checks.set(area, check);
    },
    async canDownload(db, actor, file) {
      if (isAdmin(actor)) return true;
      const check = checks.get(file.area);
      if (check) return check(db, actor, file);
      return file.uploadedBy === actor.id;
    },
    missing: () => PRIVATE_AREAS.filter((area) => !checks.has(area)),
  };
}
