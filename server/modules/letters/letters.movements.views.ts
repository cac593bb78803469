import { asc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';

import type { Db, DbOrTx } from '#server/db/client.ts';
import { type LetterMovementRow, letterMovements, letters } from '#server/db/schema/index.ts';
import type { ReadContext } from '#server/modules/audit-trail/classified-reads.ts';
import { usersAs } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { openLetterRecorded } from './letters.reads.ts';

/**
 * Reading a letter's movements (docs/decisions/020-dak-movement.md): a movement with the names of who
 * marked it and to whom, for the dak commands, the inbox and the CSV export.
 */

const fromUser = usersAs('from_user');
const toUser = usersAs('to_user');
const markedByUser = usersAs('marked_by_user');
const receivedByUser = usersAs('received_by_user');
const endedByUser = usersAs('ended_by_user');

/** A movement's columns but its copy of the letter's search text (the inbox index's, never shown). */
const { searchText: _searchText, ...movementRecordColumns } = getTableColumns(letterMovements);
type MovementRecord = Omit<LetterMovementRow, 'searchText'>;

/** A movement with the names of who marked it and to whom. */
export interface MovementView {
  movement: MovementRecord;
  from: { id: string; name: string } | null;
  to: { id: string; name: string; designation: string };
  /** A delegate who acted for the officer: marked it, received it, or ended the holding. */
  markedBy: { id: string; name: string } | null;
  receivedBy: { id: string; name: string } | null;
  endedBy: { id: string; name: string } | null;
}

const movementColumns = {
  movement: movementRecordColumns,
  fromId: fromUser.id,
  fromName: fromUser.name,
  toName: toUser.name,
  toDesignation: toUser.designation,
  markedByName: markedByUser.name,
  receivedByName: receivedByUser.name,
  endedByName: endedByUser.name,
};

const named = (id: string | null, name: string | null) => (id && name !== null ? { id, name } : null);

function toView(r: {
  movement: MovementRecord;
  fromId: string | null;
  fromName: string | null;
  toName: string;
  toDesignation: string;
  markedByName: string | null;
  receivedByName: string | null;
  endedByName: string | null;
}): MovementView {
  return {
    movement: r.movement,
    from: r.fromId && r.fromName !== null ? { id: r.fromId, name: r.fromName } : null,
    to: { id: r.movement.toUserId, name: r.toName, designation: r.toDesignation },
    markedBy: named(r.movement.markedBy, r.markedByName),
    receivedBy: named(r.movement.receivedBy, r.receivedByName),
    endedBy: named(r.movement.endedBy, r.endedByName),
  };
}

/** Movements with the names, and each one's marked_at as PostgreSQL prints it (microseconds kept: a page's cursor). */
const selectMovements = (db: DbOrTx) =>
  db
    .select({ ...movementColumns, at: sql<string>`${letterMovements.markedAt}::text` })
    .from(letterMovements)
    .innerJoin(toUser, eq(toUser.id, letterMovements.toUserId))
    .leftJoin(fromUser, eq(fromUser.id, letterMovements.fromUserId))
    .leftJoin(markedByUser, eq(markedByUser.id, letterMovements.markedBy))
    .leftJoin(receivedByUser, eq(receivedByUser.id, letterMovements.receivedBy))
    .leftJoin(endedByUser, eq(endedByUser.id, letterMovements.endedBy));

export async function loadMovements(
  db: DbOrTx,
  where: SQL,
  order = [asc(letterMovements.markedAt), asc(letterMovements.id)],
) {
  const rows = await selectMovements(db)
    .where(where)
    .orderBy(...order);
  return rows.map(toView);
}

/**
 * At most `limit` movements of `where` (which may name the movement's letter: it is joined) in `order`, with the
 * names, and each one's marked_at as a cursor: one statement (the inbox's page). The page is chosen first, as its own
 * query, so that the names are joined to its few rows only and its plan is the one the search alone would have.
 */
export async function loadMovementPage(db: DbOrTx, where: SQL, order: SQL[], limit: number) {
  const page = db
    .select({ id: letterMovements.id })
    .from(letterMovements)
    .innerJoin(letters, eq(letters.id, letterMovements.letterId))
    .where(where)
    .orderBy(...order)
    .limit(limit);
  const rows = await selectMovements(db)
    .where(inArray(letterMovements.id, page))
    .orderBy(...order);
  return rows.map((r) => ({ view: toView(r), at: r.at }));
}

/** Is this movement held past its due date? */
export const isOverdue = (m: Pick<LetterMovementRow, 'box' | 'dueDate'>, today = todayInIndia()) =>
  m.box !== 'closed' && m.dueDate !== null && m.dueDate < today;

/**
 * Every movement of a letter, oldest first (GET /api/dac/{id}/movements): whoever may see the letter. The dak trail of
 * a Confidential or Secret letter is an opening of it, recorded (decision 070).
 */
export async function listMovements(db: Db, ctx: ReadContext, actor: Actor, id: string): Promise<MovementView[]> {
  // 404 unless the actor may see it; a Secret letter's trail after a step-up.
  await openLetterRecorded(db, ctx, actor, id, 'movements');
  return loadMovements(db, eq(letterMovements.letterId, id));
}

/** Movements of many letters at once (CSV export), by letter id, oldest first. */
export async function movementsOfLetters(db: DbOrTx, letterIds: string[]): Promise<Map<string, MovementView[]>> {
  const byLetter = new Map<string, MovementView[]>();
  if (!letterIds.length) return byLetter;
  for (const m of await loadMovements(db, inArray(letterMovements.letterId, letterIds))) {
    byLetter.set(m.movement.letterId, [...(byLetter.get(m.movement.letterId) ?? []), m]);
  }
  return byLetter;
}
