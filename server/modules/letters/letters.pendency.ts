import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';

import { startOfIndianDay, todayInIndia } from '#shared/format.ts';
import type { PendencyQuery } from '#shared/schemas/letter.ts';

import type { Db, DbOrTx } from '#server/db/client.ts';
import { letterMovements, letters } from '#server/db/schema/index.ts';
import { badRequest } from '#server/lib/errors.ts';
import { groups } from '#server/modules/groups/groups.view.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { pendencyScope } from './letters.policy.ts';

// Pendency (docs/decisions/020-dak-movement.md): who holds which letters, and since when; the report's JSON
// is made by presentPendency (letters.presenter.ts).

/** Midnight at the start of a day in India. */
const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/** Letters shown in "oldest pending first". */
const OLDEST_LIMIT = 50;

/**
 * The pendency the actor may see (pendencyScope, letters.policy.ts: its refusal is thrown) with its group loaded: the
 * group to restrict to (or null for all) and whether classified letters are left out.
 */
async function pendencyGroup(db: DbOrTx, actor: Actor, groupId?: string) {
  const scope = pendencyScope(actor, groupId);
  if (!scope.groupId) return { group: null, hideClassified: scope.hideClassified };
  const [group] = await db
    .select({ id: groups.id, name: groups.name })
    .from(groups)
    .where(eq(groups.id, scope.groupId));
  if (!group && groupId) throw badRequest('common.choose_group', 'groupId');
  return { group: group ?? null, hideClassified: scope.hideClassified };
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
  const { group, hideClassified } = await pendencyGroup(db, actor, query.groupId);
  // The group's members as a list of ids (not a subquery): PostgreSQL then reads each one's held letters from the
  // open-movements index alone (index-only scan), 5× faster at a million letters (decision 020).
  const members = group
    ? (await db.select({ id: users.id }).from(users).where(eq(users.groupId, group.id))).map((u) => u.id)
    : [];
  const inGroup = group ? (members.length ? inArray(letterMovements.toUserId, members) : sql`false`) : undefined;
  const visible = hideClassified ? sql`not ${letterMovements.classified}` : undefined;
  /** The start (India midnight) of the day `n` days before today, as a timestamp parameter. */
  const since = (n: number) => sql`${startOfIndianDay(addDays(today, -n)).toISOString()}::timestamptz`;

  const open = db
    .select({
      userId: sql<string>`${letterMovements.toUserId}`.as('open_user'),
      pending: sql<number>`count(*)::int`.as('pending'),
      overdue: sql<number>`count(*) filter (where ${letterMovements.dueDate} < ${today})::int`.as('overdue'),
      oldest: sql<string>`min(${letterMovements.markedAt})`.as('oldest'),
      // Ageing: held 0–7, 8–15, 16–30 and over 30 India days since marked, from the same index.
      upTo7: sql<number>`count(*) filter (where ${letterMovements.markedAt} >= ${since(7)})::int`.as('up_to_7'),
      upTo15:
        sql<number>`count(*) filter (where ${letterMovements.markedAt} < ${since(7)} and ${letterMovements.markedAt} >= ${since(15)})::int`.as(
          'up_to_15',
        ),
      upTo30:
        sql<number>`count(*) filter (where ${letterMovements.markedAt} < ${since(15)} and ${letterMovements.markedAt} >= ${since(30)})::int`.as(
          'up_to_30',
        ),
      over30: sql<number>`count(*) filter (where ${letterMovements.markedAt} < ${since(30)})::int`.as('over_30'),
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
      upTo7: sql<number>`coalesce(${open.upTo7}, 0)`,
      upTo15: sql<number>`coalesce(${open.upTo15}, 0)`,
      upTo30: sql<number>`coalesce(${open.upTo30}, 0)`,
      over30: sql<number>`coalesce(${open.over30}, 0)`,
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

  // As JSON, with the totals per group: presentPendency (letters.presenter.ts).
  return { from, to, today, group, officers: rows, oldest };
}

export type PendencyReport = Awaited<ReturnType<typeof pendency>>;
