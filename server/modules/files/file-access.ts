import type { Db } from '#server/db/client.ts';
import type { FileRow } from '#server/db/schema/index.ts';
import { isAdmin } from '#server/lib/roles.policy.ts';
import type { ReadAction, RecordedItem } from '#server/modules/audit-trail/classified-reads.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { PRIVATE_AREAS } from './storage-areas.ts';

/** Decides whether a signed-in person may download a private file. */
export type FileAccessCheck = (db: Db, actor: Actor, file: FileRow) => Promise<boolean>;

/**
 * A file whose downloads are recorded in the audit trail (decision 070): the item it belongs to, the action a download
 * is recorded as, and whether a PDF of it is watermarked (decision 071) rather than sent as it is.
 */
export interface RecordedFile extends RecordedItem {
  action: ReadAction;
  watermark: boolean;
}

/** Which files of an area are recorded when downloaded (and refused): null for a file that is not. */
export type RecordedFileCheck = (db: Db, file: FileRow) => Promise<RecordedFile | null>;

export interface FileAccessOptions {
  /** The area's rule is asked for admins too (it may refuse them by throwing). */
  everyone?: boolean;
  /** Which of the area's files are classified material, recorded when downloaded or refused. */
  recorded?: RecordedFileCheck;
}

/** Who may download the files of each private area: the app's `app.fileAccess` (server/app.ts). */
export interface FileAccessRules {
  /** Each module that owns a private area says, as its plugin registers, who may download its files. */
  register(area: string, check: FileAccessCheck, opts?: FileAccessOptions): void;
  /** The record of a file whose downloads are recorded (its area's `recorded`), or null. */
  recordedFile(db: Db, file: FileRow): Promise<RecordedFile | null>;
  /**
   * May this person download this private file? Admins always may (an area registered with `everyone` asks its rule
   * for admins too, which may refuse them by throwing: the step-up before Secret letters, decision 066); an area
   * without a rule only its uploader.
   */
  canDownload(db: Db, actor: Actor, file: FileRow): Promise<boolean>;
  /** Private areas no module has given a rule (checked when the app is ready). */
  missing(): string[];
}

export function createFileAccess(): FileAccessRules {
  const checks = new Map<string, { check: FileAccessCheck; everyone: boolean; recorded?: RecordedFileCheck }>();
  return {
    register(area, check, opts = {}) {
      checks.set(area, { check, everyone: opts.everyone ?? false, recorded: opts.recorded });
    },
    async recordedFile(db, file) {
      return (await checks.get(file.area)?.recorded?.(db, file)) ?? null;
    },
    async canDownload(db, actor, file) {
      const rule = checks.get(file.area);
      if (isAdmin(actor)) {
        if (rule?.everyone) await rule.check(db, actor, file); // for its refusals only: an admin may see any file
        return true;
      }
      if (rule) return rule.check(db, actor, file);
      return file.uploadedBy === actor.id;
    },
    missing: () => PRIVATE_AREAS.filter((area) => !checks.has(area)),
  };
}
