import { and, count, desc, eq, gte, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';

import { startOfIndianDay } from '#shared/format.ts';
import type { AuditFilter } from '#shared/schemas/audit.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { type AuditEventRow, auditEvents } from '#server/db/schema/index.ts';
import { isUuid } from '#server/lib/ids.ts';
import { containsPattern } from '#server/lib/search.ts';
import { csvLine } from '#server/modules/letters/letters.export.ts';
import { userMatches } from '#server/modules/users/users.queries.ts';
import { users } from '#server/modules/users/users.view.ts';

/** A page's total is counted up to this many events, as the activity log's (decision 005): more says "capped". */
export const AUDIT_COUNT_LIMIT = 1000;
/**
 * NOTE: the CSV is a file on someone's desk: one click copies at most this many events, newest first; an auditor
 * narrows the dates to take more (decision 069).
 */
export const AUDIT_EXPORT_MAX = 100_000;
/** A person filter matching more accounts than this is a sub-select rather than a list of ids. */
const MAX_MATCHING_PEOPLE = 2000;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The SQL condition of the filters. `person`: an id is the actor's; text finds accounts by name or email first (their
 * trigram indexes), then their events by `audit_events_actor_idx`. `object`: an id (or any exact object id) or text in
 * the object's label. Days are India's, both ends included.
 */
async function whereOf(db: DbOrTx, filter: AuditFilter): Promise<SQL | undefined> {
  const conditions: SQL[] = [];
  if (filter.person) {
    if (isUuid(filter.person)) conditions.push(eq(auditEvents.actorId, filter.person.toLowerCase()));
    else {
      const people = await db
        .select({ id: users.id })
        .from(users)
        .where(userMatches(filter.person))
        .limit(MAX_MATCHING_PEOPLE + 1);
      conditions.push(
        people.length > MAX_MATCHING_PEOPLE
          ? inArray(auditEvents.actorId, db.select({ id: users.id }).from(users).where(userMatches(filter.person)))
          : people.length
            ? inArray(
                auditEvents.actorId,
                people.map((p) => p.id),
              )
            : sql`false`,
      );
    }
  }
  if (filter.object) {
    conditions.push(
      isUuid(filter.object)
        ? eq(auditEvents.objectId, filter.object.toLowerCase())
        : or(eq(auditEvents.objectId, filter.object), ilike(auditEvents.objectLabel, containsPattern(filter.object)))!,
    );
  }
  if (filter.action) conditions.push(eq(auditEvents.action, filter.action));
  if (filter.classification) conditions.push(eq(auditEvents.classification, filter.classification));
  if (filter.outcome) conditions.push(eq(auditEvents.outcome, filter.outcome));
  // Days: the events' times, and the chain positions of the first and the last event of those days found by the time
  // index (one row each), so that the walk down `seq` starts and stops there instead of filtering its way back from
  // the newest event. The insert trigger stamps `seq` and `occurred_at` together under the chain's lock, so the
  // positions rise with the times (decision 069).
  if (filter.from) {
    const from = startOfIndianDay(filter.from);
    conditions.push(gte(auditEvents.occurredAt, from));
    conditions.push(
      sql`${auditEvents.seq} >= (select a.seq from audit_events a where a.occurred_at >= ${from} order by a.occurred_at, a.seq limit 1)`,
    );
  }
  if (filter.to) {
    const end = new Date(startOfIndianDay(filter.to).getTime() + DAY_MS);
    conditions.push(lt(auditEvents.occurredAt, end));
    conditions.push(
      sql`${auditEvents.seq} <= (select a.seq from audit_events a where a.occurred_at < ${end} order by a.occurred_at desc, a.seq desc limit 1)`,
    );
  }
  return conditions.length ? and(...conditions) : undefined;
}

/**
 * One page of the audit trail, newest first (by `seq`, the chain's order), with `total` counted up to AUDIT_COUNT_LIMIT
 * (`capped` when more match) and not counted at all when this page is the first and the last. Callers check that
 * the actor may read the trail (auditTrailPolicy 'audit.read') and record the read.
 */
export async function listAuditEvents(
  db: DbOrTx,
  filter: AuditFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: AuditEventRow[]; total: number; capped: boolean }> {
  const where = await whereOf(db, filter);
  const rows = await db
    .select()
    .from(auditEvents)
    .where(where)
    .orderBy(desc(auditEvents.seq))
    .limit(page.limit)
    .offset(page.offset);
  // The last page says the total itself; otherwise count, stopping at the cap (an exact count of a broad filter would
  // read every matching row of a table that grows by the million).
  if (rows.length < page.limit && (rows.length > 0 || page.offset === 0)) {
    return { rows, total: page.offset + rows.length, capped: false };
  }
  const matches = db
    .select({ one: sql`1` })
    .from(auditEvents)
    .where(where)
    .limit(AUDIT_COUNT_LIMIT + 1)
    .as('matches');
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(matches);
  return { rows, total: Math.min(n, AUDIT_COUNT_LIMIT), capped: n > AUDIT_COUNT_LIMIT };
}

/** "2026-11-27T21:15:02.123+05:30": the instant in IST, to the millisecond, as a spreadsheet sorts it. */
export function istTimestamp(at: Date): string {
  return `${new Date(at.getTime() + 330 * 60_000).toISOString().slice(0, 23)}+05:30`;
}

const CSV_COLUMNS: [string, (e: AuditEventRow) => string][] = [
  ['Seq', (e) => String(e.seq)],
  ['Event ID', (e) => e.id],
  ['Time (IST)', (e) => istTimestamp(e.occurredAt)],
  ['Person', (e) => e.actorName ?? ''],
  ['Person ID', (e) => e.actorId ?? ''],
  ['Role', (e) => e.actorRole ?? ''],
  ['Action', (e) => e.action],
  ['Object type', (e) => e.objectType ?? ''],
  ['Object ID', (e) => e.objectId ?? ''],
  ['Object', (e) => e.objectLabel ?? ''],
  ['Classification', (e) => e.classification ?? ''],
  ['Outcome', (e) => e.outcome],
  ['Address', (e) => e.clientAddress ?? ''],
  ['Browser', (e) => e.userAgent ?? ''],
  ['Details', (e) => e.details ?? ''],
  ['Hash', (e) => e.hash],
];

/** Events per query of the export: one page of the keyset walk down `seq`. */
const EXPORT_BATCH = 1000;

/**
 * The CSV of every event matching the filters, newest first, at most AUDIT_EXPORT_MAX: a byte-order mark (Hindi names
 * open as UTF-8 in a spreadsheet), a header, then the rows, read a thousand at a time down the chain's order (each
 * batch starts below the last `seq` sent, so no batch reads the rows before it again). Times are IST; the hash lets
 * an auditor hold a row against the chain. Callers check the actor may read the trail and record the export first.
 */
export async function* auditEventsCsv(db: DbOrTx, filter: AuditFilter): AsyncGenerator<string> {
  const where = await whereOf(db, filter);
  yield `\uFEFF${csvLine(CSV_COLUMNS.map(([title]) => title))}`;
  let below: number | undefined;
  let sent = 0;
  while (sent < AUDIT_EXPORT_MAX) {
    const rows = await db
      .select()
      .from(auditEvents)
      .where(below === undefined ? where : and(where, lt(auditEvents.seq, below)))
      .orderBy(desc(auditEvents.seq))
      .limit(Math.min(EXPORT_BATCH, AUDIT_EXPORT_MAX - sent));
    if (!rows.length) return;
    yield rows.map((e) => csvLine(CSV_COLUMNS.map(([, cell]) => cell(e)))).join('');
    sent += rows.length;
    below = rows[rows.length - 1]!.seq;
    if (rows.length < EXPORT_BATCH) return;
  }
}
