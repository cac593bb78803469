import { and, desc, eq, isNotNull, ne } from 'drizzle-orm';

import type { Db, Tx } from '#server/db/client.ts';
import { letterMovements, type LetterRow, letters } from '#server/db/schema/index.ts';
import { conflict, notFound } from '#server/lib/errors.ts';
import { countWhere } from '#server/lib/paging.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { type FileStore, transactionDroppingFiles } from '#server/modules/files/storage.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { lettersPolicy } from './letters.policy.ts';
import { addHistory, getLetter, refuseUnlessEditable } from './letters.register.service.ts';
import { type LetterView, loadViews } from './letters.register.views.ts';

/**
 * The register's recycle bin (docs/decisions/105): a letter moved there by its uploader or an admin, listed, restored
 * or purged by an admin.
 */

/** Moves a letter to the recycle bin: its uploader or an admin (DELETE /api/dac/{id}). */
export async function deleteLetter(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [found] = await tx.select().from(letters).where(eq(letters.id, id)).limit(1).for('update');
    if (found?.deletedAt && lettersPolicy.allows(actor, 'letters.view', { letter: found })) {
      throw conflict('letters.already_in_recycle_bin');
    }
    const letter = await refuseUnlessEditable(tx, actor, found);
    // A letter someone still holds stays in the register until it is closed or sent back (decision 020: pendency
    // never counts a letter nobody can see).
    const [held] = await tx
      .select({ name: users.name })
      .from(letterMovements)
      .innerJoin(users, eq(users.id, letterMovements.toUserId))
      .where(and(eq(letterMovements.letterId, id), ne(letterMovements.box, 'closed')))
      .limit(1);
    if (held) {
      throw conflict('letters.still_held', undefined, { name: held.name });
    }
    await tx.update(letters).set({ deletedAt: new Date(), deletedBy: actor.id }).where(eq(letters.id, id));
    await addHistory(tx, id, actor, 'deleted', null);
    await recordActivity(tx, actor, 'activity.letter_binned', { letter: letter.letterId }, { type: 'letter', id });
  });
}

/** Locks a letter in the recycle bin. Callers check that the actor is an admin. */
async function lockBinned(tx: Tx, id: string): Promise<LetterRow> {
  const [letter] = await tx.select().from(letters).where(eq(letters.id, id)).limit(1).for('update');
  if (!letter) throw notFound('letters.not_found');
  if (!letter.deletedAt) throw conflict('letters.not_in_recycle_bin');
  return letter;
}

/** Letters in the recycle bin, most recently deleted first. Callers check that the actor is an admin. */
export async function listRecycleBin(db: Db, page: { limit: number; offset: number }): Promise<LetterView[]> {
  const rows = await db
    .select({ id: letters.id })
    .from(letters)
    .where(isNotNull(letters.deletedAt))
    .orderBy(desc(letters.deletedAt), desc(letters.id))
    .limit(page.limit)
    .offset(page.offset);
  return loadViews(
    db,
    rows.map((r) => r.id),
  );
}

/** How many letters are in the recycle bin (its partial index). Callers check that the actor is an admin. */
export const countRecycleBin = (db: Db) => countWhere(db, letters, isNotNull(letters.deletedAt));

/** Takes a letter out of the recycle bin. Callers check that the actor is an admin. */
export async function restoreLetter(db: Db, actor: Actor, id: string): Promise<LetterView> {
  await db.transaction(async (tx) => {
    const letter = await lockBinned(tx, id);
    await tx.update(letters).set({ deletedAt: null, deletedBy: null }).where(eq(letters.id, id));
    await addHistory(tx, id, actor, 'restored', null);
    await recordActivity(tx, actor, 'activity.letter_restored', { letter: letter.letterId }, { type: 'letter', id });
  });
  return getLetter(db, actor, id);
}

/**
 * Deletes a letter in the recycle bin for good, with its history and file (the stored bytes once this has committed).
 * Its Letter ID is never handed out again. Callers check for an admin.
 */
export async function purgeLetter(db: Db, store: FileStore, actor: Actor, id: string): Promise<void> {
  await transactionDroppingFiles(db, store, async (tx, dropFiles) => {
    const letter = await lockBinned(tx, id);
    await tx.delete(letters).where(eq(letters.id, id));
    await dropFiles([letter.fileId]);
    const purged = { letter: letter.letterId, subject: letter.letterSub };
    await recordActivity(tx, actor, 'activity.letter_purged', purged, { type: 'letter', id });
  });
}
