import { and, type AnyColumn, asc, desc, eq, getTableColumns, isNotNull, ne, type SQL, sql } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';
import {
  type CreateLetterInput,
  LETTER_FIELDS,
  type LetterHistoryAction,
  type UpdateLetterInput,
} from '#shared/schemas/letter.ts';

import type { Db, DbOrTx, Tx } from '#server/db/client.ts';
import { prepared } from '#server/db/prepared.ts';
import {
  files,
  letterCounters,
  letterHistory,
  letterMovements,
  type LetterRow,
  letters,
  users,
} from '#server/db/schema/index.ts';
import { conflict, notFound } from '#server/lib/errors.ts';
import { countWhere } from '#server/lib/paging.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { type AuditWho, recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import {
  type FileStore,
  saveFileRow,
  type StoredFile,
  transactionDroppingFiles,
} from '#server/modules/files/storage.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { activeDelegators } from './letters.delegation.ts';
import { refuseUnclearedHolders } from './letters.holders.ts';
import { lettersPolicy } from './letters.policy.ts';
import { type LetterSearch, searchLetterIds } from './letters.search.ts';
import { loadWhereabouts, type Whereabouts } from './letters.whereabouts.ts';

/** A letter with what its card shows besides its own columns. */
export interface LetterView {
  letter: Omit<LetterRow, 'searchText'>;
  uploader: { id: string; name: string } | null;
  deleter: { id: string; name: string } | null;
  originalName: string | null;
  /** Marked to someone at least once: the register fields are frozen except for an admin (issue 17). */
  frozen: boolean;
  /** The person the view was loaded for was marked the letter, or marked it. */
  involved: boolean;
  /** That person holds it now (marked to them, not yet closed, sent on or back). */
  holds: boolean;
  /** Who holds it now, or who closed it (decision 099); null before it first moves. */
  whereabouts: Whereabouts | null;
}

// Everything a card shows; not the search text, which no screen needs and which is the widest column.
const { searchText: _searchText, ...viewColumns } = getTableColumns(letters);

// Names by scalar subqueries on primary keys, and the ids as one array parameter: the cheapest plan to make and to
// run for a page of letters (half the time of joins on PGlite).
const nameOf = (id: AnyColumn) => sql<string | null>`(select ${users.name} from ${users} where ${users.id} = ${id})`;

/** A page of letters with what the views need; `involved` and `holds` are the viewer's (or false without one). */
const viewsSelect = (db: DbOrTx, involved: SQL<boolean>, holds: SQL<boolean>) =>
  db
    .select({
      letter: viewColumns,
      uploaderName: nameOf(letters.uploadedBy),
      deleterName: nameOf(letters.deletedBy),
      originalName: sql<
        string | null
      >`(select ${files.originalName} from ${files} where ${files.id} = ${letters.fileId})`,
      // NOTE: `letters.id` written out: drizzle leaves a column of the only table unqualified, and inside the
      // subquery an unqualified "id" would be the movement's.
      frozen: sql<boolean>`exists (select 1 from ${letterMovements} m where m.letter_id = letters.id)`,
      involved,
      holds,
    })
    .from(letters);

// Every letters page, inbox and letter opened by a signed-in person: the same columns as viewsSelect, from the function
// of migration 0035, whose plan PostgreSQL makes once per connection (a statement of its own was planned on every run);
// the statement that calls it is built once (db/prepared.ts). The function's columns are named as the letter's, and
// each is read and converted as its column of the table.
type ViewColumns = typeof viewColumns;
const functionColumns = Object.fromEntries(
  Object.entries(viewColumns).map(([key, column]) => [key, sql`${column}`.mapWith(column)]),
) as {
  [K in keyof ViewColumns]: SQL<
    ViewColumns[K]['_']['data'] | (ViewColumns[K]['_']['notNull'] extends true ? never : null)
  >;
};
const viewsFor = prepared('letter_views_for_viewer', (db) =>
  db
    .select({
      letter: functionColumns,
      uploaderName: sql<string | null>`uploader_name`,
      deleterName: sql<string | null>`deleter_name`,
      originalName: sql<string | null>`original_name`,
      frozen: sql<boolean>`frozen`,
      involved: sql<boolean>`involved`,
      holds: sql<boolean>`holds`,
    })
    .from(
      sql`letter_views_for_viewer(${sql.placeholder('ids')}::uuid[], ${sql.placeholder('viewerId')}::uuid) as ${letters}`,
    ),
);

/**
 * Loads letters with their uploader, deleter and file name, whether they have moved, and whether `viewerId` took
 * part in their movement or holds them, in the order of `ids`. No permission check.
 */
export async function loadViews(db: DbOrTx, ids: string[], viewerId?: string): Promise<LetterView[]> {
  if (!ids.length) return [];
  const rows = viewerId
    ? await viewsFor(db, { ids: `{${ids.join(',')}}`, viewerId })
    : await viewsSelect(db, sql`false`, sql`false`).where(sql`${letters.id} = any(${`{${ids.join(',')}}`}::uuid[])`);
  const where = await loadWhereabouts(
    db,
    rows.filter((r) => r.frozen).map((r) => r.letter.id),
  );
  const byId = new Map(
    rows.map((r) => [
      r.letter.id,
      {
        letter: r.letter,
        uploader:
          r.letter.uploadedBy && r.uploaderName !== null ? { id: r.letter.uploadedBy, name: r.uploaderName } : null,
        deleter: r.letter.deletedBy && r.deleterName !== null ? { id: r.letter.deletedBy, name: r.deleterName } : null,
        originalName: r.originalName ?? null,
        frozen: Boolean(r.frozen),
        involved: Boolean(r.involved),
        holds: Boolean(r.holds),
        whereabouts: where.get(r.letter.id) ?? null,
      },
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * One page of the letters the actor may see, matching the search, newest upload first (spec §2 Letters &
 * Correspondence). Any signed-in person may call it; visibility is applied in the query (letters.policy.ts).
 */
export async function searchLetters(db: Db, actor: Actor, search: LetterSearch) {
  const result = await searchLetterIds(db, actor, search);
  return { views: await loadViews(db, result.ids, actor.id), next: result.next };
}

/** A letter the actor may see (admins also see the recycle bin), else 404: its existence is not disclosed. */
export async function getLetter(db: DbOrTx, actor: Actor, id: string): Promise<LetterView> {
  const [view] = await loadViews(db, [id], actor.id);
  if (!view) throw notFound('letters.not_found');
  if (!lettersPolicy.allows(actor, 'letters.view', view)) {
    // A delegate sees the letters of the officers they stand in for today (issue 32), and those they acted on.
    const { involved } = await letterInvolvement(db, id, actor.id, await activeDelegators(db, actor.id));
    view.involved = involved;
  }
  lettersPolicy.authorize(actor, 'letters.view', view);
  return view;
}

/**
 * A letter opened by the actor (GET /api/dac/{id}, its history and dak trail): as getLetter, and a Secret letter (by
 * STEP_UP_CLASSIFICATIONS) needs a fresh check (letters.open, decision 066).
 */
export async function openLetter(db: DbOrTx, actor: Actor, id: string): Promise<LetterView> {
  const view = await getLetter(db, actor, id);
  lettersPolicy.authorize(actor, 'letters.open', view);
  return view;
}

/** Has the letter been marked to anyone, and was `personId` marked it (or did they mark it)? */
export async function letterInvolvement(db: DbOrTx, letterId: string, personId: string, standsFor: string[] = []) {
  // Issue 32: a delegate is involved in the letters of the officers they stand in for today (`standsFor`), and in
  // those they acted on for an officer.
  const people = sql`array[${sql.join(
    [personId, ...standsFor].map((p) => sql`${p}`),
    sql`, `,
  )}]::uuid[]`;
  const [row] = await db
    .select({
      moved: sql<boolean>`true`,
      involved: sql<boolean>`bool_or(${letterMovements.toUserId} = any(${people}) or ${letterMovements.fromUserId} = any(${people})
        or ${letterMovements.markedBy} = ${personId} or ${letterMovements.receivedBy} = ${personId} or ${letterMovements.endedBy} = ${personId})`,
    })
    .from(letterMovements)
    .where(eq(letterMovements.letterId, letterId))
    .groupBy(letterMovements.letterId);
  return { moved: Boolean(row?.moved), involved: Boolean(row?.involved) };
}

/** May this person see this letter, counting the letters marked to or by them (file downloads). */
export async function actorMayViewLetter(db: DbOrTx, actor: Actor, letter: LetterRow): Promise<boolean> {
  if (lettersPolicy.allows(actor, 'letters.view', { letter })) return true;
  const { involved } = await letterInvolvement(db, letter.id, actor.id, await activeDelegators(db, actor.id));
  return lettersPolicy.allows(actor, 'letters.view', { letter, involved });
}

/**
 * 404 if the actor may not even see the letter (its existence is not disclosed), 403 if they may only see it, 409
 * once it has moved and the actor is not an admin (issue 17 item 3: frozen register fields).
 */
async function refuseUnlessEditable(db: DbOrTx, actor: Actor, letter: LetterRow | undefined): Promise<LetterRow> {
  if (!letter) throw notFound('letters.not_found');
  const { moved, involved } = await letterInvolvement(db, letter.id, actor.id);
  lettersPolicy.authorize(actor, 'letters.view', { letter, involved });
  // Only admins see the recycle bin: the rule tells them the truth rather than "only the uploader" (issue 13).
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

async function addHistory(
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
    // database call fewer per upload than reading it back, issue 12).
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

/** Moves a letter to the recycle bin: its uploader or an admin (DELETE /api/dac/{id}). */
export async function deleteLetter(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [found] = await tx.select().from(letters).where(eq(letters.id, id)).limit(1).for('update');
    if (found?.deletedAt && lettersPolicy.allows(actor, 'letters.view', { letter: found })) {
      throw conflict('letters.already_in_recycle_bin');
    }
    const letter = await refuseUnlessEditable(tx, actor, found);
    // A letter someone still holds stays in the register until it is closed or sent back (issue 17: pendency
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
