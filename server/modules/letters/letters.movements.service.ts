import { todayInIndia } from '#shared/format.ts';
import { and, asc, desc, eq, getTableColumns, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type {
  DakPriority,
  InboxStatus,
  MarkLetterInput,
  PendencyQuery,
  ReturnLetterInput,
} from '#shared/schemas/letter.ts';
import type { Db, DbOrTx, Tx } from '#server/db/client.ts';
import {
  groups,
  letterMovements,
  letters,
  users,
  type LetterMovementRow,
  type LetterRow,
  type UserRow,
} from '#server/db/schema/index.ts';
import { badRequest, conflict, forbidden, notFound } from '#server/lib/errors.ts';
import { containsPattern } from '#server/lib/search.ts';
import type { Actor } from '#server/plugins/auth.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { notify } from '#server/modules/notifications/notifications.service.ts';
import { canMarkLetter, canViewLetter, isClearedForClassified, visibleLetters } from './letters.policy.ts';
import { decodeTimeCursor, encodeCursor, type LetterCursor } from './letters.search.ts';
import { getLetter, letterInvolvement, loadViews, type LetterView } from './letters.service.ts';

/**
 * Dak that moves (issue 17; docs/decisions/020-dak-movement.md): marking a letter to officers, the inbox "Marked to
 * me", receipt, closing with a disposal, sending back, and pendency. Every write locks the letter first, checks in
 * the same transaction, and records its activity there; a refusal writes nothing.
 */

/** Midnight at the start of a day in India. */
const startOfIndianDay = (day: string) => new Date(`${day}T00:00:00+05:30`);
const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

const fromUser = alias(users, 'from_user');
const toUser = alias(users, 'to_user');

/** A movement's columns but its copy of the letter's search text (the inbox index's, never shown). */
const { searchText: _searchText, ...movementRecordColumns } = getTableColumns(letterMovements);
type MovementRecord = Omit<LetterMovementRow, 'searchText'>;

/** A movement with the names of who marked it and to whom. */
export interface MovementView {
  movement: MovementRecord;
  from: { id: string; name: string } | null;
  to: { id: string; name: string; designation: string };
}

const movementColumns = {
  movement: movementRecordColumns,
  fromId: fromUser.id,
  fromName: fromUser.name,
  toName: toUser.name,
  toDesignation: toUser.designation,
};

function toView(r: {
  movement: MovementRecord;
  fromId: string | null;
  fromName: string | null;
  toName: string;
  toDesignation: string;
}): MovementView {
  return {
    movement: r.movement,
    from: r.fromId && r.fromName !== null ? { id: r.fromId, name: r.fromName } : null,
    to: { id: r.movement.toUserId, name: r.toName, designation: r.toDesignation },
  };
}

async function loadMovements(db: DbOrTx, where: SQL, order = [asc(letterMovements.markedAt), asc(letterMovements.id)]) {
  const rows = await db
    .select(movementColumns)
    .from(letterMovements)
    .innerJoin(toUser, eq(toUser.id, letterMovements.toUserId))
    .leftJoin(fromUser, eq(fromUser.id, letterMovements.fromUserId))
    .where(where)
    .orderBy(...order);
  return rows.map(toView);
}

/** Is this movement held past its due date? */
export const isOverdue = (m: Pick<LetterMovementRow, 'box' | 'dueDate'>, today = todayInIndia()) =>
  m.box !== 'closed' && m.dueDate !== null && m.dueDate < today;

/** Locks the letter and finds what the actor may do with it: 404 if they may not see it, 409 if it is binned. */
async function lockLetter(tx: Tx, actor: Actor, id: string): Promise<{ letter: LetterRow; held: LetterMovementRow[] }> {
  const [letter] = await tx.select().from(letters).where(eq(letters.id, id)).limit(1).for('update');
  if (!letter) throw notFound('Letter not found.');
  const { involved } = await letterInvolvement(tx, id, actor.id);
  if (!canViewLetter(actor, letter, involved)) throw notFound('Letter not found.');
  if (letter.deletedAt) throw conflict('This letter is in the recycle bin. Restore it before acting on it.');
  // What the actor holds of it now: their open movements, oldest first.
  const held = await tx
    .select()
    .from(letterMovements)
    .where(
      and(eq(letterMovements.letterId, id), eq(letterMovements.toUserId, actor.id), ne(letterMovements.box, 'closed')),
    )
    .orderBy(asc(letterMovements.markedAt));
  return { letter, held };
}

/** Why this person may not be marked a letter of this classification, or null if they may. */
function refusalForRecipient(
  actor: Actor,
  person: Pick<UserRow, 'id' | 'name' | 'status' | 'role' | 'classifiedClearance'>,
  letter: LetterRow,
): string | null {
  if (person.id === actor.id) return 'You cannot mark a letter to yourself.';
  if (person.status === 'deactivated') return `${person.name}'s account is deactivated. Please choose another officer.`;
  if (person.status !== 'approved' || person.role === 'pending_director') {
    return `${person.name}'s account has not been approved yet. Please choose another officer.`;
  }
  if (
    letter.classification !== 'Normal' &&
    !isClearedForClassified({ role: person.role, cleared: person.classifiedClearance })
  ) {
    return `${person.name} is not cleared for ${letter.classification} letters. Only directors, administrators and officers an administrator has cleared may receive them.`;
  }
  return null;
}

const names = (list: { name: string }[]) => list.map((p) => p.name).join(', ');

/**
 * Marks a letter to one or more officers (POST /api/dac/{id}/movements): its uploader, a director, an admin, or an
 * officer who holds it (who then no longer holds it: their movement ends as "forwarded"). Each recipient gets a
 * movement and a notification. Returns the new movements.
 */
export async function markLetter(db: Db, actor: Actor, id: string, raw: MarkLetterInput): Promise<MovementView[]> {
  const input = {
    to: raw.to,
    remarks: raw.remarks ?? '',
    dueDate: raw.dueDate ?? null,
    priority: (raw.priority ?? 'Normal') as DakPriority,
  };
  const ids = await db.transaction(async (tx) => {
    const { letter, held } = await lockLetter(tx, actor, id);
    if (!canMarkLetter(actor, letter, held.length > 0)) {
      throw forbidden(
        'Only the person who uploaded this letter, an officer who holds it, a director or an administrator may mark it.',
      );
    }
    if (held.length && held.every((m) => m.box === 'pending')) {
      throw conflict('Please receive this letter before marking it on.');
    }
    if (input.dueDate && input.dueDate < todayInIndia()) throw badRequest('Due date cannot be in the past.', 'dueDate');
    const people = await tx.select().from(users).where(inArray(users.id, input.to));
    if (people.length !== input.to.length) throw badRequest('One of the chosen officers was not found.', 'to');
    for (const person of people) {
      const refusal = refusalForRecipient(actor, person, letter);
      if (refusal) throw badRequest(refusal, 'to');
    }
    const holding = await tx
      .select({ name: users.name })
      .from(letterMovements)
      .innerJoin(users, eq(users.id, letterMovements.toUserId))
      .where(
        and(
          eq(letterMovements.letterId, id),
          inArray(letterMovements.toUserId, input.to),
          ne(letterMovements.box, 'closed'),
        ),
      );
    if (holding.length) throw conflict(`${names(holding)} already holds this letter.`, 'to');

    const now = new Date();
    if (held.length) {
      await tx
        .update(letterMovements)
        .set({ box: 'closed', outcome: 'forwarded', endedAt: now })
        .where(
          inArray(
            letterMovements.id,
            held.map((m) => m.id),
          ),
        );
    }
    const created = await tx
      .insert(letterMovements)
      .values(
        input.to.map((toUserId) => ({
          letterId: id,
          fromUserId: actor.id,
          toUserId,
          remarks: input.remarks,
          dueDate: input.dueDate,
          priority: input.priority,
          classified: letter.classification !== 'Normal',
          markedAt: now,
        })),
      )
      .returning({ id: letterMovements.id, toUserId: letterMovements.toUserId });
    await notify(
      tx,
      {
        userIds: created.map((m) => m.toUserId),
        kind: 'letter_marked',
        subjectType: 'letter',
        subjectId: id,
        sourceIds: created.map((m) => m.id),
      },
      actor,
    );
    const ordered = input.to.map((uid) => people.find((p) => p.id === uid)!);
    await recordActivity(
      tx,
      actor,
      `Marked letter ${letter.letterId} to ${names(ordered)}${input.dueDate ? ` (due ${input.dueDate})` : ''}`,
      { type: 'letter', id },
    );
    return created.map((m) => m.id);
  });
  return loadMovements(db, inArray(letterMovements.id, ids));
}

/** Receives (acknowledges) a letter marked to the actor (POST /api/dac/{id}/receive). */
export async function receiveLetter(db: Db, actor: Actor, id: string): Promise<MovementView> {
  const movementId = await db.transaction(async (tx) => {
    const { letter, held } = await lockLetter(tx, actor, id);
    if (!held.length) throw forbidden('This letter is not marked to you.');
    const waiting = held.find((m) => m.box === 'pending');
    if (!waiting) throw conflict('You have already received this letter.');
    const now = new Date();
    await tx
      .update(letterMovements)
      .set({ box: 'received', receivedAt: now, readAt: waiting.readAt ?? now })
      .where(eq(letterMovements.id, waiting.id));
    await recordActivity(tx, actor, `Received letter ${letter.letterId}`, { type: 'letter', id });
    return waiting.id;
  });
  return (await loadMovements(db, eq(letterMovements.id, movementId)))[0]!;
}

/** The received movement the actor holds, for closing it or sending it back. */
function heldMovement(held: LetterMovementRow[], doing: string): LetterMovementRow {
  if (!held.length) throw forbidden(`You do not hold this letter, so you cannot ${doing} it.`);
  const received = held.find((m) => m.box === 'received');
  if (!received) throw conflict(`Please receive this letter before you ${doing} it.`);
  return received;
}

/**
 * Closes the actor's holding of a letter with its disposal (POST /api/dac/{id}/close): the action taken, and the file
 * number and reply reference if any. The letter is closed when nobody holds it any more.
 */
export async function closeLetter(
  db: Db,
  actor: Actor,
  id: string,
  input: { disposal: string; fileNo?: string | null; replyRef?: string | null },
): Promise<MovementView> {
  const movementId = await db.transaction(async (tx) => {
    const { letter, held } = await lockLetter(tx, actor, id);
    const movement = heldMovement(held, 'close');
    await tx
      .update(letterMovements)
      .set({
        box: 'closed',
        outcome: 'closed',
        endedAt: new Date(),
        disposal: input.disposal,
        fileNo: input.fileNo ?? null,
        replyRef: input.replyRef ?? null,
      })
      .where(eq(letterMovements.id, movement.id));
    await recordActivity(tx, actor, `Closed letter ${letter.letterId}: ${input.disposal}`, { type: 'letter', id });
    return movement.id;
  });
  return (await loadMovements(db, eq(letterMovements.id, movementId)))[0]!;
}

/**
 * Sends a letter back to whoever marked it to the actor, with remarks (POST /api/dac/{id}/return). The actor's
 * movement ends as "returned" and a new one goes back, with the same priority (and due date, unless it has passed).
 * A letter not yet received may be sent back too (marked to the wrong officer).
 */
export async function returnLetter(
  db: Db,
  actor: Actor,
  id: string,
  input: ReturnLetterInput,
): Promise<MovementView[]> {
  const ids = await db.transaction(async (tx) => {
    const { letter, held } = await lockLetter(tx, actor, id);
    if (!held.length) throw forbidden('You do not hold this letter, so you cannot send it back.');
    const movement = held.find((m) => m.box === 'received') ?? held[0]!;
    const [sender] = movement.fromUserId
      ? await tx.select().from(users).where(eq(users.id, movement.fromUserId)).limit(1)
      : [];
    if (!sender || sender.id === actor.id) {
      throw conflict('There is nobody to send this letter back to. Please mark it to another officer instead.');
    }
    const refusal = refusalForRecipient(actor, sender, letter);
    if (refusal)
      throw conflict(
        `${refusal.replace('Please choose another officer.', '')}Please mark it to another officer instead.`,
      );
    const now = new Date();
    await tx
      .update(letterMovements)
      .set({ box: 'closed', outcome: 'returned', endedAt: now, readAt: movement.readAt ?? now })
      .where(eq(letterMovements.id, movement.id));
    const [back] = await tx
      .insert(letterMovements)
      .values({
        letterId: id,
        fromUserId: actor.id,
        toUserId: sender.id,
        remarks: input.remarks,
        dueDate: movement.dueDate && movement.dueDate >= todayInIndia() ? movement.dueDate : null,
        priority: movement.priority,
        classified: letter.classification !== 'Normal',
        markedAt: now,
      })
      .returning({ id: letterMovements.id });
    await notify(
      tx,
      { userIds: [sender.id], kind: 'letter_returned', subjectType: 'letter', subjectId: id, sourceIds: [back!.id] },
      actor,
    );
    await recordActivity(tx, actor, `Sent letter ${letter.letterId} back to ${sender.name}: ${input.remarks}`, {
      type: 'letter',
      id,
    });
    return [movement.id, back!.id];
  });
  return loadMovements(db, inArray(letterMovements.id, ids));
}

/** Marks the letter read in the actor's inbox (POST /api/dac/{id}/read) — opened, not yet received. */
export async function readLetter(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const { letter, held } = await lockLetter(tx, actor, id);
    if (!held.length) throw forbidden('This letter is not marked to you.');
    const unread = held.filter((m) => !m.readAt);
    if (!unread.length) return; // already read: nothing written
    await tx
      .update(letterMovements)
      .set({ readAt: new Date() })
      .where(
        inArray(
          letterMovements.id,
          unread.map((m) => m.id),
        ),
      );
    await recordActivity(tx, actor, `Opened letter ${letter.letterId} in the inbox`, { type: 'letter', id });
  });
}

/** Every movement of a letter, oldest first (GET /api/dac/{id}/movements): whoever may see the letter. */
export async function listMovements(db: Db, actor: Actor, id: string): Promise<MovementView[]> {
  await getLetter(db, actor, id); // 404 unless the actor may see it
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

// ---------------------------------------------------------------------------------------------------------------
// Inbox

export type InboxCursor = LetterCursor;
export const encodeInboxCursor = encodeCursor;
/** The inbox's cursor: the same check as the register's (every part of its timestamp), its own words. */
export const decodeInboxCursor = (raw: string): InboxCursor => decodeTimeCursor(raw, 'letters.bad_cursor');

/** Classified letters only for those cleared (or who uploaded the letter): the inbox never shows the others. */
const classifiedRule = (actor: Actor) =>
  isClearedForClassified(actor)
    ? undefined
    : sql`(not ${letterMovements.classified} or ${letters.uploadedBy} = ${actor.id})`;

export interface InboxQuery {
  status: InboxStatus;
  q: string;
  priority?: DakPriority;
  overdue?: boolean;
  limit: number;
  after?: InboxCursor;
}

/**
 * The letters marked to the actor in one box (GET /api/dac/inbox), newest marking first, a page at a time: the
 * letter and the marking. Letters in the recycle bin and classified letters the actor may not see are left out.
 */
export async function listInbox(db: Db, actor: Actor, query: InboxQuery) {
  const today = todayInIndia();
  const conditions: (SQL | undefined)[] = [
    eq(letterMovements.toUserId, actor.id),
    eq(letterMovements.box, query.status),
    sql`${letters.deletedAt} is null`,
    classifiedRule(actor),
    // NOTE: the movement's own copy of the letter's search text (migration 0016), which the inbox index carries: the
    // search reads this officer's box from that index alone, newest first. Matching letters.search_text instead
    // would either read each letter by its key (113 ms for a busy officer at a million letters) or fetch every
    // letter matching a common word from the trigram index (4 s; decision 020).
    query.q ? sql`${letterMovements.searchText} like lower(${containsPattern(query.q)})` : undefined,
    query.priority ? eq(letterMovements.priority, query.priority) : undefined,
    query.overdue ? sql`${letterMovements.dueDate} < ${today} and ${letterMovements.box} <> 'closed'` : undefined,
    query.after
      ? sql`(${letterMovements.markedAt}, ${letterMovements.id}) < (${query.after.at}::timestamptz, ${query.after.id}::uuid)`
      : undefined,
  ];
  const hits = await db
    .select({ id: letterMovements.id, at: sql<string>`${letterMovements.markedAt}::text` })
    .from(letterMovements)
    .innerJoin(letters, eq(letters.id, letterMovements.letterId))
    .where(and(...conditions))
    .orderBy(desc(letterMovements.markedAt), desc(letterMovements.id))
    .limit(query.limit + 1);
  const page = hits.slice(0, query.limit);
  const movements = page.length
    ? await loadMovements(
        db,
        inArray(
          letterMovements.id,
          page.map((h) => h.id),
        ),
        [desc(letterMovements.markedAt), desc(letterMovements.id)],
      )
    : [];
  const views = await loadViews(db, [...new Set(movements.map((m) => m.movement.letterId))], actor.id);
  const byId = new Map(views.map((v) => [v.letter.id, v]));
  const last = page[page.length - 1];
  return {
    items: movements.flatMap((m) => {
      const view = byId.get(m.movement.letterId);
      return view ? [{ view, movement: m }] : [];
    }) as { view: LetterView; movement: MovementView }[],
    next: hits.length > query.limit && last ? { at: last.at, id: last.id } : null,
  };
}

/** The navigation badge (GET /api/dac/inbox/count): not yet received, of them unread, and held past due. */
export async function countInbox(db: DbOrTx, actor: Actor) {
  const today = todayInIndia();
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${letterMovements.box} = 'pending')::int`,
      unread: sql<number>`count(*) filter (where ${letterMovements.box} = 'pending' and ${letterMovements.readAt} is null)::int`,
      overdue: sql<number>`count(*) filter (where ${letterMovements.dueDate} < ${today})::int`,
    })
    .from(letterMovements)
    .innerJoin(letters, eq(letters.id, letterMovements.letterId))
    .where(
      and(
        eq(letterMovements.toUserId, actor.id),
        ne(letterMovements.box, 'closed'),
        sql`${letters.deletedAt} is null`,
        classifiedRule(actor),
      ),
    );
  return { pending: row?.pending ?? 0, unread: row?.unread ?? 0, overdue: row?.overdue ?? 0 };
}

// ---------------------------------------------------------------------------------------------------------------
// Pendency

/** Letters shown in "oldest pending first". */
const OLDEST_LIMIT = 50;

/**
 * Which pendency the actor may see: directors and admins any group or all; an associate director their own group.
 * Returns the group to restrict to (or null for all) and whether classified letters are left out.
 */
async function pendencyScope(db: DbOrTx, actor: Actor, groupId?: string) {
  if (actor.role === 'director' || actor.role === 'admin') {
    if (!groupId) return { group: null, hideClassified: false };
    const [group] = await db.select({ id: groups.id, name: groups.name }).from(groups).where(eq(groups.id, groupId));
    if (!group) throw badRequest('Please choose a group from the list.', 'groupId');
    return { group, hideClassified: false };
  }
  if (actor.role === 'associate_director' && actor.groupId) {
    if (groupId && groupId !== actor.groupId) throw forbidden('You may see the pendency of your own group only.');
    const [group] = await db
      .select({ id: groups.id, name: groups.name })
      .from(groups)
      .where(eq(groups.id, actor.groupId));
    return { group: group ?? null, hideClassified: !actor.cleared };
  }
  throw forbidden('Only directors, administrators and associate directors may see pendency.');
}

/**
 * Pendency (GET /api/dac/pendency): per officer and per group, letters held now, held past due, and closed in the
 * period, the officers with the oldest pending letter first; and the oldest pending letters. Directors and admins
 * (any group or all), an associate director (their group; Confidential and Secret letters left out unless cleared).
 */
export async function pendency(db: Db, actor: Actor, query: PendencyQuery) {
  const today = todayInIndia();
  const to = query.to ?? today;
  const from = query.from ?? addDays(to, -30);
  const { group, hideClassified } = await pendencyScope(db, actor, query.groupId);
  // The group's members as a list of ids (not a subquery): PostgreSQL then reads each one's held letters from the
  // open-movements index alone (index-only scan), 5× faster at a million letters (decision 020).
  const members = group
    ? (await db.select({ id: users.id }).from(users).where(eq(users.groupId, group.id))).map((u) => u.id)
    : [];
  const inGroup = group ? (members.length ? inArray(letterMovements.toUserId, members) : sql`false`) : undefined;
  const visible = hideClassified ? sql`not ${letterMovements.classified}` : undefined;

  const open = db
    .select({
      userId: sql<string>`${letterMovements.toUserId}`.as('open_user'),
      pending: sql<number>`count(*)::int`.as('pending'),
      overdue: sql<number>`count(*) filter (where ${letterMovements.dueDate} < ${today})::int`.as('overdue'),
      oldest: sql<string>`min(${letterMovements.markedAt})`.as('oldest'),
    })
    .from(letterMovements)
    .where(and(ne(letterMovements.box, 'closed'), inGroup, visible))
    .groupBy(letterMovements.toUserId)
    .as('open');
  const closed = db
    .select({
      userId: sql<string>`${letterMovements.toUserId}`.as('closed_user'),
      closed: sql<number>`count(*)::int`.as('closed'),
    })
    .from(letterMovements)
    .where(
      and(
        eq(letterMovements.outcome, 'closed'),
        sql`${letterMovements.endedAt} >= ${startOfIndianDay(from).toISOString()}`,
        sql`${letterMovements.endedAt} < ${startOfIndianDay(addDays(to, 1)).toISOString()}`,
        inGroup,
        visible,
      ),
    )
    .groupBy(letterMovements.toUserId)
    .as('closed');
  // The per-officer totals and the oldest held letters are independent reads: run them side by side.
  const totals = db
    .select({
      id: users.id,
      name: users.name,
      designation: users.designation,
      groupId: groups.id,
      groupName: groups.name,
      pending: sql<number>`coalesce(${open.pending}, 0)`,
      overdue: sql<number>`coalesce(${open.overdue}, 0)`,
      closed: sql<number>`coalesce(${closed.closed}, 0)`,
      oldest: sql<string | null>`${open.oldest}`,
    })
    .from(open)
    .fullJoin(closed, eq(open.userId, closed.userId))
    .innerJoin(users, sql`${users.id} = coalesce(${open.userId}, ${closed.userId})`)
    .leftJoin(groups, eq(groups.id, users.groupId))
    .orderBy(sql`${open.oldest} asc nulls last`, asc(users.name))
    .execute();

  // The oldest held movements first, from the open-movements index alone; only then their letters and holders
  // (joining first would join every held letter of a group before the sort; decision 020).
  const oldestHeld = db
    .select({
      letterId: letterMovements.letterId,
      holderId: letterMovements.toUserId,
      since: letterMovements.markedAt,
      receivedAt: letterMovements.receivedAt,
      dueDate: letterMovements.dueDate,
      priority: letterMovements.priority,
    })
    .from(letterMovements)
    .where(and(ne(letterMovements.box, 'closed'), inGroup, visible))
    .orderBy(asc(letterMovements.markedAt), asc(letterMovements.id))
    .limit(OLDEST_LIMIT)
    .execute();
  const [rows, oldestMoves] = await Promise.all([totals, oldestHeld]);

  const groupTotals = new Map<
    string,
    { group: { _id: string; name: string } | null; pending: number; overdue: number; closed: number }
  >();
  for (const r of rows) {
    const key = r.groupId ?? '';
    const total = groupTotals.get(key) ?? {
      group: r.groupId && r.groupName !== null ? { _id: r.groupId, name: r.groupName } : null,
      pending: 0,
      overdue: 0,
      closed: 0,
    };
    total.pending += r.pending;
    total.overdue += r.overdue;
    total.closed += r.closed;
    groupTotals.set(key, total);
  }

  const letterIds = [...new Set(oldestMoves.map((o) => o.letterId))];
  const holderIds = [...new Set(oldestMoves.map((o) => o.holderId))];
  const [letterRows, holderRows] = await Promise.all([
    letterIds.length
      ? db
          .select({
            id: letters.id,
            ref: letters.letterId,
            sub: letters.letterSub,
            classification: letters.classification,
          })
          .from(letters)
          .where(inArray(letters.id, letterIds))
      : [],
    holderIds.length
      ? db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, holderIds))
      : [],
  ]);
  const letterById = new Map(letterRows.map((l) => [l.id, l]));
  const holderById = new Map(holderRows.map((u) => [u.id, u]));
  const oldest = oldestMoves.flatMap((o) => {
    const letter = letterById.get(o.letterId);
    const holder = holderById.get(o.holderId);
    return letter && holder
      ? [
          {
            ...o,
            letterRef: letter.ref,
            letterSub: letter.sub,
            classification: letter.classification,
            holderName: holder.name,
          },
        ]
      : [];
  });

  return {
    from,
    to,
    group: group ? { _id: group.id, name: group.name } : null,
    officers: rows.map((r) => ({
      officer: { _id: r.id, name: r.name, designation: r.designation },
      group: r.groupId && r.groupName !== null ? { _id: r.groupId, name: r.groupName } : null,
      pending: r.pending,
      overdue: r.overdue,
      closed: r.closed,
      oldestSince: r.oldest ? new Date(r.oldest).toISOString() : null,
    })),
    groups: [...groupTotals.values()].sort(
      (a, b) => b.pending - a.pending || (a.group?.name ?? '').localeCompare(b.group?.name ?? ''),
    ),
    oldest: oldest.map((o) => ({
      letter: { _id: o.letterId, letterId: o.letterRef, letterSub: o.letterSub, classification: o.classification },
      holder: { _id: o.holderId, name: o.holderName },
      since: o.since.toISOString(),
      receivedAt: o.receivedAt ? o.receivedAt.toISOString() : null,
      dueDate: o.dueDate,
      priority: o.priority,
      overdue: o.dueDate !== null && o.dueDate < today,
    })),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Officers and notifications

/**
 * The officers a letter may be marked to (GET /api/dac/officers): approved staff other than the actor, by name, with
 * their group and whether they may receive Confidential and Secret letters. Any signed-in person.
 */
export async function listOfficers(db: DbOrTx, actor: Actor) {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      designation: users.designation,
      role: users.role,
      cleared: users.classifiedClearance,
      groupId: groups.id,
      groupName: groups.name,
    })
    .from(users)
    .leftJoin(groups, eq(groups.id, users.groupId))
    .where(and(eq(users.status, 'approved'), ne(users.id, actor.id), ne(users.role, 'pending_director')))
    .orderBy(asc(users.name))
    .limit(2000);
  return rows.map((r) => ({
    _id: r.id,
    name: r.name,
    designation: r.designation,
    role: r.role,
    group: r.groupId && r.groupName !== null ? { _id: r.groupId, name: r.groupName } : null,
    cleared: isClearedForClassified({ role: r.role, cleared: r.cleared }),
  }));
}

/** "A letter you marked is overdue": open movements the actor marked whose due date has passed (notifications sweep). */
export async function overdueMarkedBy(db: DbOrTx, actor: Actor) {
  const rows = await db
    .select({ id: letterMovements.id, letterId: letterMovements.letterId, holder: letterMovements.toUserId })
    .from(letterMovements)
    .where(
      and(
        eq(letterMovements.fromUserId, actor.id),
        ne(letterMovements.box, 'closed'),
        sql`${letterMovements.dueDate} is not null and ${letterMovements.dueDate} < ${todayInIndia()}`,
      ),
    )
    .limit(500);
  return rows.map((r) => ({
    kind: 'letter_overdue' as const,
    subjectId: r.letterId,
    sourceId: r.id,
    actorId: r.holder,
  }));
}

/** Letter ID and subject of the letters (of `ids`) this person may see (notifications). */
export async function describeVisibleLetters(db: DbOrTx, actor: Actor, ids: string[]) {
  if (!ids.length) return new Map<string, { ref: string; title: string }>();
  const rows = await db
    .select({ id: letters.id, ref: letters.letterId, title: letters.letterSub })
    .from(letters)
    .where(and(inArray(letters.id, ids), visibleLetters(actor)));
  return new Map(rows.map((r) => [r.id, { ref: r.ref, title: r.title }]));
}

/** How many Confidential or Secret letters this person holds now (Manage Users: withdrawing a clearance). */
export async function countClassifiedHeldBy(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(letterMovements)
    .where(
      and(
        eq(letterMovements.toUserId, userId),
        ne(letterMovements.box, 'closed'),
        eq(letterMovements.classified, true),
      ),
    );
  return row?.n ?? 0;
}
