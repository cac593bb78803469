import { inArray } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { efileMovements, efiles } from '#server/db/schema/index.ts';

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
