import { and, count, desc, eq, gte, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';

import { startOfIndianDay } from '#shared/format.ts';
import { type MessageCode, type MessageParams, messageText } from '#shared/messages/index.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { activityLogs } from '#server/db/schema/index.ts';
import { containsPattern } from '#server/lib/search.ts';
import { userMatches } from '#server/modules/users/users.queries.ts';
import { users } from '#server/modules/users/users.view.ts';

/**
 * Records one write in the activity log (who, what, on which record, when). Call it inside the transaction of the
 * write it describes, so that either both are kept or neither. The action is a code of the `activity` catalogue with
 * its parameters (decision 060): `action` keeps its English sentence (the logs search reads it), `code` and `params`
 * let the web word it in the reader's language.
 */
export async function recordActivity(
  db: DbOrTx,
  actor: { id: string } | null,
  code: ActivityCode,
  params?: MessageParams,
  target?: { type: string; id: string },
): Promise<void> {
  await db.insert(activityLogs).values({
    userId: actor?.id ?? null,
    action: messageText(code, params),
    code,
    params: params ?? null,
    targetType: target?.type ?? null,
    targetId: target?.id ?? null,
  });
}

/** A code of the activity log's catalogue (shared/messages/activity.ts). */
export type ActivityCode = Extract<MessageCode, `activity.${string}`>;

export interface LogFilter {
  /** Name or email of the person, or the action, contains this text. */
  q?: string;
  userId?: string;
  /** First and last day (YYYY-MM-DD, India time), both included. */
  from?: string;
  to?: string;
}

export interface LogEntry {
  id: string;
  action: string;
  /** Null for an entry written before actions had codes: it has only its English. */
  code: string | null;
  params: MessageParams | null;
  timestamp: Date;
  targetType: string | null;
  targetId: string | null;
  user: { id: string; name: string; email: string } | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A search matching more people than this filters by a sub-select instead of a list of ids. */
const MAX_MATCHING_PEOPLE = 2000;
/** Totals of the logs screen are counted up to this many entries (decision 005). */
export const LOG_COUNT_LIMIT = 1000;

/**
 * Activity log entries, newest first, with who made them; `total` counts the matches up to LOG_COUNT_LIMIT and
 * `capped` says there are more. The search looks in the
 * action and in the person's name and email, in the database (trigram indexes). Callers check that the actor is an
 * admin.
 */
export async function listActivityLogs(
  db: DbOrTx,
  filter: LogFilter,
  page: { limit: number; offset: number },
  opts: { withTotal: boolean },
): Promise<{ rows: LogEntry[]; total: number; capped: boolean }> {
  const conditions: SQL[] = [];
  if (filter.userId) conditions.push(eq(activityLogs.userId, filter.userId));
  if (filter.from) conditions.push(gte(activityLogs.timestamp, startOfIndianDay(filter.from)));
  if (filter.to) conditions.push(lt(activityLogs.timestamp, new Date(startOfIndianDay(filter.to).getTime() + DAY_MS)));
  if (filter.q) {
    // The people whose name or email matches, looked up first: "action matches OR user_id IN (ids)" lets the planner
    // use the action's trigram index and the user index together (a sub-select in the OR would scan every row).
    const people = await db
      .select({ id: users.id })
      .from(users)
      .where(userMatches(filter.q))
      .limit(MAX_MATCHING_PEOPLE + 1);
    const byPerson =
      people.length > MAX_MATCHING_PEOPLE
        ? inArray(activityLogs.userId, db.select({ id: users.id }).from(users).where(userMatches(filter.q)))
        : people.length
          ? inArray(
              activityLogs.userId,
              people.map((p) => p.id),
            )
          : undefined;
    const byAction = ilike(activityLogs.action, containsPattern(filter.q));
    conditions.push(byPerson ? or(byAction, byPerson)! : byAction);
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const found = await db
    .select({
      id: activityLogs.id,
      action: activityLogs.action,
      code: activityLogs.code,
      params: activityLogs.params,
      timestamp: activityLogs.timestamp,
      targetType: activityLogs.targetType,
      targetId: activityLogs.targetId,
      userId: users.id,
      name: users.name,
      email: users.email,
    })
    .from(activityLogs)
    .leftJoin(users, eq(activityLogs.userId, users.id))
    .where(where)
    .orderBy(desc(activityLogs.timestamp), desc(activityLogs.id))
    .limit(page.limit)
    .offset(page.offset);
  const rows = found.map(({ userId, name, email, params, ...entry }) => ({
    ...entry,
    params: params as MessageParams | null,
    user: userId ? { id: userId, name: name ?? '', email: email ?? '' } : null,
  }));
  let total = page.offset + rows.length;
  let capped = false;
  if (opts.withTotal && !(page.offset === 0 && rows.length < page.limit)) {
    // Counted up to LOG_COUNT_LIMIT: an exact count of a broad search would read every matching row (decision 005).
    const matches = db
      .select({ one: sql`1` })
      .from(activityLogs)
      .where(where)
      .limit(LOG_COUNT_LIMIT + 1)
      .as('matches');
    const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(matches);
    capped = n > LOG_COUNT_LIMIT;
    total = Math.min(n, LOG_COUNT_LIMIT);
  }
  return { rows, total, capped };
}
