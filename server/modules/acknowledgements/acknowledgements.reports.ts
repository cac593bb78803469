import { and, asc, desc, eq, exists, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';

import { formatDate, formatDateTime, todayInIndia } from '#shared/format.ts';
import type {
  AcknowledgementGroupCountJson,
  AcknowledgementReportJson,
  AcknowledgementRequestJson,
  AcknowledgementTotalsJson,
  PendingAcknowledgementJson,
} from '#shared/schemas/acknowledgements.ts';
import { ACKNOWLEDGEMENT_CSV_COLUMNS } from '#shared/schemas/acknowledgements.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { type AcknowledgementRequestRow, acknowledgementRequests, acknowledgements } from '#server/db/schema/index.ts';
import { notFound } from '#server/lib/errors.ts';
import { groupsLedBy } from '#server/modules/groups/groups.queries.ts';
import { groups, groupsAs } from '#server/modules/groups/groups.view.ts';
import { users, usersAs } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { type DocumentColumns, documentColumns, presentDocument, withDocument } from './acknowledgements.documents.ts';
import {
  acknowledgementsPolicy,
  reportableRequests,
  reportGroupOf,
  type RequestFacts,
} from './acknowledgements.policy.ts';
import { groupNames, presentAudience } from './acknowledgements.service.ts';

/**
 * The reports of acknowledgement requests (decision 074): the requests a reader may report on, one
 * request's per-group counts, who has not acknowledged, and the CSV. A group head sees their group's part only.
 */

const publisher = usersAs('publisher');
const rowGroup = groupsAs('row_group');

const requestColumns = {
  request: acknowledgementRequests,
  publisherName: publisher.name,
  ...documentColumns,
};
type RequestRow = DocumentColumns & { request: AcknowledgementRequestRow; publisherName: string | null };

/** The counts of a set of rows (`where` narrows acknowledgements), as SQL columns. */
const countColumns = (today: string) => ({
  acknowledged: sql<number>`(count(*) filter (where ${acknowledgements.acknowledgedAt} is not null))::int`,
  pending: sql<number>`(count(*) filter (where ${acknowledgements.acknowledgedAt} is null))::int`,
  overdue: sql<number>`(count(*) filter (where ${acknowledgements.acknowledgedAt} is null and ${acknowledgements.dueOn} < ${today}::date))::int`,
});

const totalsOf = (c: { acknowledged: number; pending: number; overdue: number }): AcknowledgementTotalsJson => ({
  audience: c.acknowledged + c.pending,
  ...c,
});

/** A loaded request with the reader's right to it: `onlyGroup` is the part they see (null: all of it). */
export interface ReportAccess {
  row: RequestRow;
  onlyGroup: { id: string; name: string } | null;
}

/**
 * The request, if this reader may report on it (403 `acknowledgements.report_denied` otherwise; 404 when there is no
 * such request), with the part of it they see.
 */
export async function requestForReport(db: DbOrTx, actor: Actor, id: string): Promise<ReportAccess> {
  const [row] = (await withDocument(
    db
      .select(requestColumns)
      .from(acknowledgementRequests)
      .leftJoin(publisher, eq(publisher.id, acknowledgementRequests.publishedBy)),
  )
    .where(eq(acknowledgementRequests.id, id))
    .limit(1)) as RequestRow[];
  if (!row) throw notFound('acknowledgements.request_not_found');
  const [led] = await groupsLedBy(db, actor);
  // The group this reader heads, named, when it has people in the audience (one read).
  const [ledInAudience] = led
    ? await db
        .select({ id: groups.id, name: groups.name })
        .from(groups)
        .where(
          and(
            eq(groups.id, led),
            exists(
              db
                .select({ one: sql`1` })
                .from(acknowledgements)
                .where(and(eq(acknowledgements.requestId, id), eq(acknowledgements.groupId, led))),
            ),
          ),
        )
    : [];
  const facts: RequestFacts = { publishedBy: row.request.publishedBy, ledGroupInAudience: ledInAudience?.id ?? null };
  acknowledgementsPolicy.authorize(actor, 'acknowledgements.report', facts);
  return { row, onlyGroup: reportGroupOf(actor, facts) ? ledInAudience! : null };
}

/** The audiences of these requests, by request id (one read of their groups' names). */
async function audiencesOf(db: DbOrTx, rows: RequestRow[]) {
  const names = await groupNames(
    db,
    rows.flatMap((r) => r.request.audienceGroups),
  );
  return new Map(rows.map((r) => [r.request.id, presentAudience(r.request, names)]));
}

function presentRequest(
  row: RequestRow,
  audience: AcknowledgementRequestJson['audience'],
  onlyGroup: ReportAccess['onlyGroup'],
  totals: AcknowledgementTotalsJson,
): AcknowledgementRequestJson {
  return {
    _id: row.request.id,
    document: presentDocument(row),
    deadline: row.request.deadline,
    audience,
    publishedAt: row.request.publishedAt.toISOString(),
    publishedBy:
      row.request.publishedBy && row.publisherName !== null
        ? { _id: row.request.publishedBy, name: row.publisherName }
        : null,
    onlyGroup: onlyGroup ? { _id: onlyGroup.id, name: onlyGroup.name } : null,
    totals,
  };
}

/** One request's report: per-group counts (by group name, people in no group last) and totals, of the reader's part. */
export async function requestReport(
  db: DbOrTx,
  access: ReportAccess,
  today = todayInIndia(),
): Promise<AcknowledgementReportJson> {
  const lines = await db
    .select({ groupId: acknowledgements.groupId, groupName: groups.name, ...countColumns(today) })
    .from(acknowledgements)
    .leftJoin(groups, eq(groups.id, acknowledgements.groupId))
    .where(
      and(
        eq(acknowledgements.requestId, access.row.request.id),
        access.onlyGroup ? eq(acknowledgements.groupId, access.onlyGroup.id) : undefined,
      ),
    )
    .groupBy(acknowledgements.groupId, groups.name)
    .orderBy(sql`${groups.name} asc nulls last`, asc(acknowledgements.groupId));
  const counts: AcknowledgementGroupCountJson[] = lines.map((l) => ({
    group: l.groupId ? { _id: l.groupId, name: l.groupName ?? '' } : null,
    acknowledged: l.acknowledged,
    pending: l.pending,
    overdue: l.overdue,
  }));
  const sum = (k: 'acknowledged' | 'pending' | 'overdue') => counts.reduce((n, c) => n + c[k], 0);
  const totals = totalsOf({ acknowledged: sum('acknowledged'), pending: sum('pending'), overdue: sum('overdue') });
  const audience = (await audiencesOf(db, [access.row])).get(access.row.request.id)!;
  return { ...presentRequest(access.row, audience, access.onlyGroup, totals), groups: counts };
}

/** The condition of the requests this reader may list (reportableRequests), and the group they head. */
async function listScope(db: DbOrTx, actor: Actor): Promise<{ where: SQL | undefined; led: string | null }> {
  const [led] = await groupsLedBy(db, actor);
  const scope = reportableRequests(actor, led ?? null);
  if (scope.all) return { where: undefined, led: null };
  const mine = eq(acknowledgementRequests.publishedBy, scope.publishedBy);
  if (!scope.groupId) return { where: mine, led: null };
  const ofLedGroup = db
    .select({ one: sql`1` })
    .from(acknowledgements)
    .where(
      and(eq(acknowledgements.requestId, acknowledgementRequests.id), eq(acknowledgements.groupId, scope.groupId)),
    );
  return { where: or(mine, exists(ofLedGroup)), led: scope.groupId };
}

/**
 * The requests this reader may report on, newest first, a page at a time, each with the totals of their part:
 * everything for directors and admins, else what they published and (their group's part of) requests with people of
 * the group they head. Anyone signed in; the list is empty for others.
 */
export async function listReportableRequests(
  db: DbOrTx,
  actor: Actor,
  page: { limit: number; offset: number },
  today = todayInIndia(),
): Promise<{ items: AcknowledgementRequestJson[]; count: () => Promise<number> }> {
  const scope = await listScope(db, actor);
  const rows = (await withDocument(
    db
      .select(requestColumns)
      .from(acknowledgementRequests)
      .leftJoin(publisher, eq(publisher.id, acknowledgementRequests.publishedBy)),
  )
    .where(scope.where)
    .orderBy(desc(acknowledgementRequests.publishedAt), desc(acknowledgementRequests.id))
    .limit(page.limit)
    .offset(page.offset)) as RequestRow[];
  // A request the reader did not publish shows only their group's part (a head who is not a director or admin).
  const limitedTo = (r: RequestRow) => (scope.led !== null && r.request.publishedBy !== actor.id ? scope.led : null);
  const whole = rows.filter((r) => !limitedTo(r)).map((r) => r.request.id);
  const limited = rows.filter((r) => limitedTo(r)).map((r) => r.request.id);
  const countsOf = async (ids: string[], group: string | null) =>
    ids.length
      ? db
          .select({ requestId: acknowledgements.requestId, ...countColumns(today) })
          .from(acknowledgements)
          .where(and(inArray(acknowledgements.requestId, ids), group ? eq(acknowledgements.groupId, group) : undefined))
          .groupBy(acknowledgements.requestId)
      : [];
  const [audiences, wholeCounts, limitedCounts, ledGroup] = await Promise.all([
    audiencesOf(db, rows),
    countsOf(whole, null),
    countsOf(limited, scope.led),
    scope.led ? db.select({ id: groups.id, name: groups.name }).from(groups).where(eq(groups.id, scope.led)) : [],
  ]);
  const counts = new Map([...wholeCounts, ...limitedCounts].map((c) => [c.requestId, c]));
  const none = { acknowledged: 0, pending: 0, overdue: 0 };
  const items = rows.map((row) => {
    const c = counts.get(row.request.id) ?? none;
    return presentRequest(
      row,
      audiences.get(row.request.id)!,
      limitedTo(row) ? (ledGroup[0] ?? { id: scope.led!, name: '' }) : null,
      totalsOf({ acknowledged: c.acknowledged, pending: c.pending, overdue: c.overdue }),
    );
  });
  return {
    items,
    count: async () => {
      const [n] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(acknowledgementRequests)
        .where(scope.where);
      return n?.n ?? 0;
    },
  };
}

/**
 * Who of the reader's part has not acknowledged, overdue first (by due date), then by name; `group` narrows it to one
 * group (a reader limited to their group may ask only for theirs: 403 `acknowledgements.report_group_denied`).
 */
export async function listPending(
  db: DbOrTx,
  actor: Actor,
  access: ReportAccess,
  query: { limit: number; offset: number; group?: string | undefined },
  today = todayInIndia(),
): Promise<{ items: PendingAcknowledgementJson[]; count: () => Promise<number> }> {
  if (query.group)
    acknowledgementsPolicy.authorize(actor, 'acknowledgements.report_group', {
      visibleGroup: access.onlyGroup?.id ?? null,
      group: query.group,
    });
  const group = query.group ?? access.onlyGroup?.id;
  const where = and(
    eq(acknowledgements.requestId, access.row.request.id),
    isNull(acknowledgements.acknowledgedAt),
    group ? eq(acknowledgements.groupId, group) : undefined,
  );
  const rows = await db
    .select({
      id: acknowledgements.id,
      dueOn: acknowledgements.dueOn,
      openedAt: acknowledgements.openedAt,
      userId: users.id,
      name: users.name,
      email: users.email,
      designation: users.designation,
      groupId: rowGroup.id,
      groupName: rowGroup.name,
    })
    .from(acknowledgements)
    .innerJoin(users, eq(users.id, acknowledgements.userId))
    .leftJoin(rowGroup, eq(rowGroup.id, acknowledgements.groupId))
    .where(where)
    .orderBy(asc(acknowledgements.dueOn), asc(users.name), asc(acknowledgements.id))
    .limit(query.limit)
    .offset(query.offset);
  return {
    items: rows.map((r) => ({
      _id: r.id,
      user: { _id: r.userId, name: r.name, email: r.email, designation: r.designation },
      group: r.groupId ? { _id: r.groupId, name: r.groupName ?? '' } : null,
      dueOn: r.dueOn,
      overdue: r.dueOn < today,
      openedAt: r.openedAt?.toISOString() ?? null,
    })),
    count: async () => {
      const [n] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(acknowledgements)
        .where(where);
      return n?.n ?? 0;
    },
  };
}

/** NOTE: an export is a file on someone's desk; the whole lab is at most a few thousand people. */
const EXPORT_MAX_ROWS = 20000;

/**
 * The CSV of everyone in the reader's part of the audience (ACKNOWLEDGEMENT_CSV_COLUMNS): by group, then status
 * (overdue, pending, acknowledged), then name; days as "21 Nov 2026", times in IST.
 */
export async function requestCsv(
  db: DbOrTx,
  access: ReportAccess,
  csvLine: (cells: string[]) => string,
  today = todayInIndia(),
) {
  const rows = await db
    .select({
      name: users.name,
      email: users.email,
      designation: users.designation,
      groupName: rowGroup.name,
      dueOn: acknowledgements.dueOn,
      addedAt: acknowledgements.addedAt,
      openedAt: acknowledgements.openedAt,
      acknowledgedAt: acknowledgements.acknowledgedAt,
    })
    .from(acknowledgements)
    .innerJoin(users, eq(users.id, acknowledgements.userId))
    .leftJoin(rowGroup, eq(rowGroup.id, acknowledgements.groupId))
    .where(
      and(
        eq(acknowledgements.requestId, access.row.request.id),
        access.onlyGroup ? eq(acknowledgements.groupId, access.onlyGroup.id) : undefined,
      ),
    )
    .orderBy(
      sql`${rowGroup.name} asc nulls last`,
      sql`${acknowledgements.acknowledgedAt} is not null`,
      asc(acknowledgements.dueOn),
      asc(users.name),
    )
    .limit(EXPORT_MAX_ROWS);
  const status = (r: (typeof rows)[number]) =>
    r.acknowledgedAt ? 'Acknowledged' : r.dueOn < today ? 'Overdue' : 'Pending';
  const lines = rows.map((r) =>
    csvLine([
      r.name,
      r.email,
      r.designation,
      r.groupName ?? 'No group',
      status(r),
      formatDate(r.dueOn),
      formatDateTime(r.addedAt),
      r.openedAt ? formatDateTime(r.openedAt) : '',
      r.acknowledgedAt ? formatDateTime(r.acknowledgedAt) : '',
    ]),
  );
  return { text: `\uFEFF${csvLine([...ACKNOWLEDGEMENT_CSV_COLUMNS])}${lines.join('')}`, rows: rows.length };
}
