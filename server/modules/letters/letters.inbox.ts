import { and, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';
import type { DakPriority, InboxStatus } from '#shared/schemas/letter.ts';

import type { Db, DbOrTx } from '#server/db/client.ts';
import { letterMovements, letters } from '#server/db/schema/index.ts';
import { decodeTimeCursor, type TimeCursor } from '#server/lib/cursor.ts';
import { containsPattern } from '#server/lib/search.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { activeDelegators } from './letters.delegation.ts';
import { loadMovementPage, type MovementView } from './letters.movements.views.ts';
import { isClearedForClassified } from './letters.policy.ts';
import { type LetterView, loadViews } from './letters.register.views.ts';

// The inbox "Marked to me" (docs/decisions/020-dak-movement.md): a page of one box, and the badge.

/** The inbox's cursor: the movement's marked_at as PostgreSQL prints it, and its id. */
export type InboxCursor = TimeCursor;
/** The same check as the register's (every part of its time, a UUID), its own words. */
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
/**
 * Whose letters the inbox shows: the actor's, and (decision 078) those of the officers whose dak is delegated
 * to them today. A delegation ends by its date alone: the next read leaves the officer's letters out.
 */
async function inboxOwners(
  db: DbOrTx,
  actor: Actor,
  column: typeof letterMovements.toUserId | typeof letterMovements.fromUserId = letterMovements.toUserId,
): Promise<SQL> {
  const standsFor = await activeDelegators(db, actor.id);
  return standsFor.length ? inArray(column, [actor.id, ...standsFor]) : eq(column, actor.id);
}

/**
 * "Sent" (decision 099): the markings and copies made by the actor or for them — `from_user_id` is the officer also
 * when their delegate marked it (decision 078) — and, while a delegation runs, those of the officers the actor stands
 * in for, as the other boxes share the officer's letters. On `letter_movements_from_idx`.
 */
const sentBy = (db: DbOrTx, actor: Actor) => inboxOwners(db, actor, letterMovements.fromUserId);

/** One box: a copy for information is filed closed, but shown in its own box (decision 079). */
const inBox = (status: Exclude<InboxStatus, 'sent'>): SQL =>
  status === 'info'
    ? eq(letterMovements.forInformation, true)
    : status === 'closed'
      ? and(eq(letterMovements.box, 'closed'), eq(letterMovements.forInformation, false))!
      : eq(letterMovements.box, status);

/** The conditions of one box but its cursor: the page's, and its count's (Sent's X-Total-Count). */
async function boxConditions(db: DbOrTx, actor: Actor, query: Omit<InboxQuery, 'limit' | 'after'>) {
  const today = todayInIndia();
  return [
    query.status === 'sent' ? await sentBy(db, actor) : await inboxOwners(db, actor),
    query.status === 'sent' ? undefined : inBox(query.status),
    sql`${letters.deletedAt} is null`,
    classifiedRule(actor),
    // NOTE: the movement's own copy of the letter's search text (migration 0016), which the inbox index carries: the
    // search reads this officer's box from that index alone, newest first. Matching letters.search_text instead
    // would either read each letter by its key (113 ms for a busy officer at a million letters) or fetch every
    // letter matching a common word from the trigram index (4 s; decision 020).
    query.q ? sql`${letterMovements.searchText} like lower(${containsPattern(query.q)})` : undefined,
    query.priority ? eq(letterMovements.priority, query.priority) : undefined,
    query.overdue ? sql`${letterMovements.dueDate} < ${today} and ${letterMovements.box} <> 'closed'` : undefined,
  ];
}

/** Every movement of one box (Sent's X-Total-Count), with the page's conditions but its cursor. */
export async function countBox(db: DbOrTx, actor: Actor, query: Omit<InboxQuery, 'limit' | 'after'>) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(letterMovements)
    .innerJoin(letters, eq(letters.id, letterMovements.letterId))
    .where(and(...(await boxConditions(db, actor, query))));
  return row?.n ?? 0;
}

export async function listInbox(db: Db, actor: Actor, query: InboxQuery) {
  const conditions: (SQL | undefined)[] = [
    ...(await boxConditions(db, actor, query)),
    query.after
      ? sql`(${letterMovements.markedAt}, ${letterMovements.id}) < (${query.after.at}::timestamptz, ${query.after.id}::uuid)`
      : undefined,
  ];
  // The page and its names in one statement (one round trip fewer per inbox made, decision 089).
  const order = [desc(letterMovements.markedAt), desc(letterMovements.id)];
  const found = await loadMovementPage(db, and(...conditions)!, order, query.limit + 1);
  const page = found.slice(0, query.limit);
  const views = await loadViews(db, [...new Set(page.map((m) => m.view.movement.letterId))], actor.id);
  const byId = new Map(views.map((v) => [v.letter.id, v]));
  const last = page[page.length - 1];
  return {
    items: page.flatMap(({ view: m }) => {
      const view = byId.get(m.movement.letterId);
      // A delegate may act on what the officer holds (the card's Mark button; letters.mark, `holds`). Sent's movements
      // are held by their recipients.
      const holds = Boolean(view?.holds) || (query.status !== 'sent' && m.movement.box !== 'closed');
      return view ? [{ view: { ...view, holds }, movement: m }] : [];
    }) as { view: LetterView; movement: MovementView }[],
    next: found.length > query.limit && last ? { at: last.at, id: last.view.movement.id } : null,
  };
}

/**
 * The navigation badge (GET /api/dac/inbox/count): not yet received, of them unread, and held past due — with how many
 * of those are in each box, since the inbox shows one box at a time (decision 099).
 */
export async function countInbox(db: DbOrTx, actor: Actor) {
  const today = todayInIndia();
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${letterMovements.box} = 'pending')::int`,
      unread: sql<number>`count(*) filter (where ${letterMovements.box} = 'pending' and ${letterMovements.readAt} is null)::int`,
      overdue: sql<number>`count(*) filter (where ${letterMovements.dueDate} < ${today})::int`,
      overduePending: sql<number>`count(*) filter (where ${letterMovements.dueDate} < ${today} and ${letterMovements.box} = 'pending')::int`,
    })
    .from(letterMovements)
    .innerJoin(letters, eq(letters.id, letterMovements.letterId))
    .where(
      and(
        await inboxOwners(db, actor),
        ne(letterMovements.box, 'closed'),
        sql`${letters.deletedAt} is null`,
        classifiedRule(actor),
      ),
    );
  const overdue = row?.overdue ?? 0;
  const overduePending = row?.overduePending ?? 0;
  return {
    pending: row?.pending ?? 0,
    unread: row?.unread ?? 0,
    overdue,
    overdueByBox: { pending: overduePending, received: overdue - overduePending },
  };
}

/**
 * Sent's paging headers (decision 099): X-Total-Count, and while another page follows `Link: <…>; rel="next"` — the
 * request's own address with the next cursor, as the body's `next`.
 */
export function sentPagingHeaders(url: string, next: string | null, total: number): Record<string, string> {
  const headers: Record<string, string> = { 'X-Total-Count': String(total) };
  if (next) {
    const parsed = new URL(url, 'http://portal.invalid');
    parsed.searchParams.set('cursor', next);
    headers.Link = `<${parsed.pathname}?${parsed.searchParams.toString()}>; rel="next"`;
  }
  return headers;
}
