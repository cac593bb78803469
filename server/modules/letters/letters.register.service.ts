import { asc, eq, getTableColumns, sql } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';
import {
  type CreateLetterInput,
  LETTER_FIELDS,
  type LetterHistoryAction,
  type UpdateLetterInput,
} from '#shared/schemas/letter.ts';

import type { Db, DbOrTx, Tx } from '#server/db/client.ts';
import { letterCounters, letterHistory, letterMovements, type LetterRow, letters } from '#server/db/schema/index.ts';
import { notFound } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { type AuditWho, recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import { files } from '#server/modules/files/files.view.ts';
import {
  type FileStore,
  saveFileRow,
  type StoredFile,
  transactionDroppingFiles,
} from '#server/modules/files/storage.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { activeDelegators } from './letters.delegation.ts';
import { letterInvolvement, refuseUnclearedHolders } from './letters.holders.ts';
import { lettersPolicy } from './letters.policy.ts';
import { type LetterView, loadViews, viewColumns } from './letters.register.views.ts';

/**
 * The register (docs/decisions/105): a letter as a record. Opening it, uploading it with its Letter ID, editing its
 * fields and replacing its file, and its history. The recycle bin is letters.register.bin.ts; the cards
 * letters.register.views.ts.
 */

/** A letter the actor may see (admins also see the recycle bin), else 404: its existence is not disclosed. */
export async function getLetter(db: DbOrTx, actor: Actor, id: string): Promise<LetterView> {
  const [view] = await loadViews(db, [id], actor.id);
  if (!view) throw notFound('letters.not_found');
  if (!lettersPolicy.allows(actor, 'letters.view', view)) {
    // A delegate sees the letters of the officers they stand in for today, and those they acted on.
    const { involved } = await letterInvolvement(db, id, actor.id, await activeDelegators(db, actor.id));
    view.involved = involved;
  }
  lettersPolicy.authorize(actor, 'letters.view', view);
  return view;
}

/**
 * A letter opened by the actor (GET /api/dac/{id}, its history and dak trail): as getLetter, and a Secret letter (by
 * STEP_UP_CLASSIFICATIONS) needs a step-up (letters.open, decision 066).
 */
export async function openLetter(db: DbOrTx, actor: Actor, id: string): Promise<LetterView> {
  const view = await getLetter(db, actor, id);
  lettersPolicy.authorize(actor, 'letters.open', view);
  return view;
}

/** May this person see this letter, counting the letters marked to or by them (file downloads). */
export async function actorMayViewLetter(db: DbOrTx, actor: Actor, letter: LetterRow): Promise<boolean> {
  if (lettersPolicy.allows(actor, 'letters.view', { letter })) return true;
  const { involved } = await letterInvolvement(db, letter.id, actor.id, await activeDelegators(db, actor.id));
  return lettersPolicy.allows(actor, 'letters.view', { letter, involved });
}

/**
 * 404 if the actor may not even see the letter (its existence is not disclosed), 403 if they may only see it, 409
 * once it has moved and the actor is not an admin (decision 020: frozen register fields).
 */
export async function refuseUnlessEditable(
  db: DbOrTx,
  actor: Actor,
  letter: LetterRow | undefined,
): Promise<LetterRow> {
  if (!letter) throw notFound('letters.not_found');
  const { moved, involved } = await letterInvolvement(db, letter.id, actor.id);
  lettersPolicy.authorize(actor, 'letters.view', { letter, involved });
  // Only admins see the recycle bin: the rule tells them the truth rather than "only the uploader".
  lettersPolicy.authorize(actor, 'letters.edit', { letter, frozen: moved });
  return letter;
}

/** Refuses a person who may not change this letter, before their upload is read (PUT /api/dac/{id}/file). */
export async function assertCanEditLetter(db: Db, actor: Actor, id: string): Promise<void> {
  const [letter] = await db.select().from(letters).where(eq(letters.id, id)).limit(1);
  await refuseUnlessEditable(db, actor, letter);
}

/** Locks a letter for a change by its uploader (until it moves) or an admin. */
async function lockForEdit(tx: Tx, actor: Actor, id: string): Promise<LetterRow> {
  const [letter] = await tx.select().from(letters).where(eq(letters.id, id)).limit(1).for('update');
  return refuseUnlessEditable(tx, actor, letter);
}

/** The calendar year of a moment in India, where the lab is: Letter IDs count per year. */
const indianYear = (d: Date) => Number(todayInIndia(d).slice(0, 4));

/**
 * Hands out the next Letter ID of the year, L-YYYY-NNNNNN, inside the caller's transaction. The counter row is
 * locked until the transaction ends, so two uploads never get the same number; a number is never handed out again,
 * even after its letter is purged (a rolled-back upload returns its number, which no letter ever carried).
 */
export async function nextLetterId(tx: Tx, at = new Date()): Promise<string> {
  const year = indianYear(at);
  const [counter] = await tx
    .insert(letterCounters)
    .values({ year, last: 1 })
    .onConflictDoUpdate({ target: letterCounters.year, set: { last: sql`${letterCounters.last} + 1` } })
    .returning({ last: letterCounters.last });
  return `L-${year}-${String(counter!.last).padStart(6, '0')}`;
}

/** A line of the letter's history, in the caller's transaction. */
export async function addHistory(
  tx: Tx,
  letterId: string,
  actor: Actor,
  action: LetterHistoryAction,
  changes: Record<string, { from: unknown; to: unknown }> | null,
) {
  await tx.insert(letterHistory).values({ letterId, actorId: actor.id, action, changes });
}

/**
 * Registers a letter with its file (POST /api/dac). Any signed-in member of staff may upload; the server assigns
 * the Letter ID. The file is already on disk: the caller discards it if this throws.
 */
export async function createLetter(
  db: Db,
  actor: Actor,
  input: CreateLetterInput,
  file: StoredFile,
): Promise<LetterView> {
  return db.transaction(async (tx) => {
    const fileRow = await saveFileRow(tx, file, actor.id);
    const letterId = await nextLetterId(tx);
    const [letter] = await tx
      .insert(letters)
      .values({ ...input, letterId, fileId: fileRow.id, uploadedBy: actor.id })
      .returning(viewColumns);
    await addHistory(tx, letter!.id, actor, 'uploaded', null);
    await recordActivity(
      tx,
      actor,
      'activity.letter_uploaded',
      { letter: letterId },
      { type: 'letter', id: letter!.id },
    );
    // Its card, from what was just written: a new letter has moved nowhere, and its uploader is the actor (one
    // database call fewer per upload than reading it back).
    return {
      letter: letter!,
      uploader: { id: actor.id, name: actor.name },
      deleter: null,
      originalName: fileRow.originalName,
      frozen: false,
      involved: false,
      holds: false,
      whereabouts: null,
    };
  });
}

/** Edits the nine fields (and the classification when sent) of a letter: its uploader or an admin (PUT /api/dac/{id}). */
export async function updateLetter(
  db: Db,
  actor: Actor,
  who: AuditWho,
  id: string,
  input: UpdateLetterInput,
): Promise<LetterView> {
  await db.transaction(async (tx) => {
    const letter = await lockForEdit(tx, actor, id);
    const next = { ...input, classification: input.classification ?? letter.classification };
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const field of [...LETTER_FIELDS, 'classification'] as const) {
      if (letter[field] !== next[field]) changes[field] = { from: letter[field], to: next[field] };
    }
    if (!Object.keys(changes).length) return; // nothing changed, nothing written
    if (changes.classification && next.classification !== 'Normal') {
      await refuseUnclearedHolders(tx, id, next.classification);
    }
    await tx.update(letters).set(next).where(eq(letters.id, id));
    if (changes.classification) {
      // Keep the movements' copy of "classified" in step (pendency and visibility read it; decision 020).
      await tx
        .update(letterMovements)
        .set({ classified: next.classification !== 'Normal' })
        .where(eq(letterMovements.letterId, id));
    }
    await addHistory(tx, id, actor, 'updated', changes);
    await recordActivity(
      tx,
      actor,
      'activity.letter_updated',
      { letter: letter.letterId, fields: Object.keys(changes).join(', ') },
      { type: 'letter', id },
    );
    // A change of who may see it is the audit trail's too (decision 069): one event, with the class before and after.
    if (changes.classification) {
      await recordAudit(tx, who, {
        action: 'classification_changed',
        object: { type: 'letter', id, label: letter.letterId },
        classification: next.classification,
        outcome: 'success',
        details: { from: letter.classification, to: next.classification },
      });
    }
  });
  return getLetter(db, actor, id);
}

/**
 * Replaces the file of a letter: its uploader or an admin (PUT /api/dac/{id}/file). The replaced file goes once this
 * has committed.
 */
export async function replaceLetterFile(
  db: Db,
  store: FileStore,
  actor: Actor,
  id: string,
  file: StoredFile,
): Promise<LetterView> {
  await transactionDroppingFiles(db, store, async (tx, dropFiles) => {
    const letter = await lockForEdit(tx, actor, id);
    const [old] = letter.fileId ? await tx.select().from(files).where(eq(files.id, letter.fileId)).limit(1) : [];
    const fileRow = await saveFileRow(tx, file, actor.id);
    await tx.update(letters).set({ fileId: fileRow.id }).where(eq(letters.id, id));
    await dropFiles([old?.id]);
    await addHistory(tx, id, actor, 'file_replaced', {
      file: { from: old?.originalName ?? null, to: fileRow.originalName },
    });
    await recordActivity(
      tx,
      actor,
      'activity.letter_file_replaced',
      { letter: letter.letterId },
      { type: 'letter', id },
    );
  });
  return getLetter(db, actor, id);
}

/** Who changed what on a letter, oldest first. Callers have checked that the actor may see the letter. */
export async function listLetterHistory(db: Db, letterId: string) {
  return db
    .select({ entry: getTableColumns(letterHistory), actor: { id: users.id, name: users.name } })
    .from(letterHistory)
    .leftJoin(users, eq(users.id, letterHistory.actorId))
    .where(eq(letterHistory.letterId, letterId))
    .orderBy(asc(letterHistory.at), asc(letterHistory.id));
}

/** The letter that owns a stored file, if any (for download authorisation). */
export async function findLetterByFile(db: DbOrTx, fileId: string): Promise<LetterRow | undefined> {
  const [letter] = await db.select().from(letters).where(eq(letters.fileId, fileId)).limit(1);
  return letter;
}
