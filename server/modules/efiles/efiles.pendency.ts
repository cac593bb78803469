import { sql } from 'drizzle-orm';

import { startOfIndianDay, todayInIndia } from '#shared/format.ts';
import type { EfilePendencyJson } from '#shared/schemas/efile.ts';
import type { PendencyQuery } from '#shared/schemas/letter.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { badRequest } from '#server/lib/errors.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { efilePendencyScope } from './efiles.policy.ts';

/** The day `n` days after `day` (YYYY-MM-DD). */
const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

interface Row extends Record<string, unknown> {
  id: string;
  name: string;
  designation: string;
  group_id: string | null;
  group_name: string | null;
  held: number;
  in_transit: number;
  parked: number;
  overdue: number;
  closed: number;
  oldest: string | null;
}

/**
 * Pendency of e-files (GET /api/efiles/pendency, decision 121), beside the dak's (decision 020) and under its rule:
 * per officer, the files with them now (their holder, open or parked; delegation does not move a file, so a file is
 * counted with its holder), of those still in transit to them, parked, and held past the due date of the sending that
 * brought them; the files they closed in the period; and since when their oldest file has been with them. The
 * officers whose oldest file has waited longest come first.
 */
export async function efilePendency(db: DbOrTx, actor: Actor, query: PendencyQuery): Promise<EfilePendencyJson> {
  const today = todayInIndia();
  const to = query.to ?? today;
  const from = query.from ?? addDays(to, -30);
  const scope = efilePendencyScope(actor, query.groupId);
  let group: { id: string; name: string } | null = null;
  if (scope.groupId) {
    const found = await db.execute<{ id: string; name: string }>(
      sql`select id, name from groups where id = ${scope.groupId}`,
    );
    group = found.rows[0] ?? null;
    if (!group && query.groupId) throw badRequest('common.choose_group', 'groupId');
  }
  const inGroup = group ? sql`and u.group_id = ${group.id}` : sql``;
  const visible = scope.hideClassified ? sql`and e.classification not in ('Confidential', 'Secret')` : sql``;
  const rows = await db.execute<Row>(sql`
    with held as (
      select e.holder_id as user_id, count(*)::int as held,
        count(*) filter (where t.id is not null)::int as in_transit,
        count(*) filter (where e.state = 'parked')::int as parked,
        count(*) filter (where e.state = 'open' and d.due_date < ${today})::int as overdue,
        min(e.moved_at) as oldest
      from efiles e
      join users u on u.id = e.holder_id ${inGroup}
      left join lateral (select m.id from efile_movements m where m.efile_id = e.id and m.kind in ('sent', 'returned')
        and m.received_at is null and m.pulled_back_at is null limit 1) t on true
      left join lateral (select m.due_date from efile_movements m where m.efile_id = e.id
        and m.kind in ('sent', 'returned') and m.to_user_id = e.holder_id order by m.at desc limit 1) d on true
      where e.state <> 'closed' ${visible}
      group by e.holder_id),
    closed as (
      select m.from_user_id as user_id, count(*)::int as closed
      from efile_movements m join efiles e on e.id = m.efile_id join users u on u.id = m.from_user_id ${inGroup}
      where m.kind = 'closed' and m.at >= ${startOfIndianDay(from).toISOString()}::timestamptz
        and m.at < ${startOfIndianDay(addDays(to, 1)).toISOString()}::timestamptz ${visible}
      group by m.from_user_id)
    select u.id, u.name, u.designation, g.id as group_id, g.name as group_name,
      coalesce(h.held, 0) as held, coalesce(h.in_transit, 0) as in_transit, coalesce(h.parked, 0) as parked,
      coalesce(h.overdue, 0) as overdue, coalesce(c.closed, 0) as closed, h.oldest
    from held h full join closed c on c.user_id = h.user_id
    join users u on u.id = coalesce(h.user_id, c.user_id)
    left join groups g on g.id = u.group_id
    order by h.oldest asc nulls last, u.name asc`);
  return {
    from,
    to,
    group: group ? { _id: group.id, name: group.name } : null,
    officers: rows.rows.map((r) => ({
      officer: { _id: r.id, name: r.name, designation: r.designation },
      group: r.group_id ? { _id: r.group_id, name: r.group_name ?? '' } : null,
      held: r.held,
      inTransit: r.in_transit,
      parked: r.parked,
      overdue: r.overdue,
      closed: r.closed,
      oldestSince: r.oldest ? new Date(r.oldest).toISOString() : null,
    })),
  };
}
