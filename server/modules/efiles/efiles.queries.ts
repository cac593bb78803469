import { and, eq, inArray } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { efileItems, efileMovements, efiles, efileSettings } from '#server/db/schema/index.ts';

/*
 * Reads of the e-files' tables that other modules call (decision 103: a module owns its tables): the mail words a
 * notice of a file by these.
 */

/** Files by id: number, subject and classification. No permission check (the caller words a notice to its person). */
export async function efilesByIds(db: DbOrTx, ids: string[]) {
  if (!ids.length) return [];
  return db
    .select({ id: efiles.id, number: efiles.number, subject: efiles.subject, classification: efiles.classification })
    .from(efiles)
    .where(inArray(efiles.id, ids));
}

/** The due dates of movements of files, by movement id. */
export async function efileMovementsByIds(db: DbOrTx, ids: string[]) {
  if (!ids.length) return [];
  return db
    .select({ id: efileMovements.id, dueDate: efileMovements.dueDate })
    .from(efileMovements)
    .where(inArray(efileMovements.id, ids));
}

/** A correspondence item (C/n) of a file, by id, for the dispatch register (decision 120); undefined if not there. */
export async function efileItemOf(db: DbOrTx, efileId: string, itemId: string) {
  const [row] = await db
    .select({ id: efileItems.id, seq: efileItems.seq, title: efileItems.title, fileId: efileItems.fileId })
    .from(efileItems)
    .where(and(eq(efileItems.efileId, efileId), eq(efileItems.id, itemId)))
    .limit(1);
  return row;
}

/** The lab's short code of the e-file numbering scheme (the outward numbers of the dispatch register begin with it). */
export async function efileLabCode(db: DbOrTx): Promise<string> {
  const [row] = await db.select({ labCode: efileSettings.labCode }).from(efileSettings).limit(1);
  return row?.labCode ?? 'LAB';
}
