import { type SQL, sql } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { currentManagerId } from '#server/modules/groups/groups.queries.ts';
import { isClearedForClassified } from '#server/modules/letters/letters.policy.ts';
import { notifyEach } from '#server/modules/notifications/notifications.service.ts';
import { findUserById } from '#server/modules/users/users.queries.ts';

import { CLEARED_ONLY } from './efiles.policy.ts';

/**
 * The sending that brought each open file to its holder, past its due date on `before`: neither pulled back nor
 * followed by another sending. A parked file is its holder's choice and is not chased; a closed one is done.
 */
const overdue = (before: SQL) => sql`
  select m.id, m.efile_id, m.from_user_id, m.to_user_id, f.owner_group_id, f.classification
  from efile_movements m
  join efiles f on f.id = m.efile_id and f.holder_id = m.to_user_id and f.state = 'open'
  where m.kind in ('sent', 'returned') and m.pulled_back_at is null and m.due_date is not null and m.due_date < ${before}
    and not exists (
      select 1 from efile_movements later
      where later.efile_id = m.efile_id and later.kind in ('sent', 'returned') and later.pulled_back_at is null
        and later.at > m.at)`;

/**
 * The owner group's head of each group in `groupIds` who may be told of its overdue files: the current associate
 * director in office (currentManagerId), and for a Confidential or Secret file only if cleared (efiles.policy.ts).
 */
async function headsOf(db: DbOrTx, groupIds: string[]) {
  const heads = new Map<string, { id: string; cleared: boolean }>();
  for (const groupId of groupIds) {
    const id = await currentManagerId(db, groupId);
    const head = id ? await findUserById(db, id) : undefined;
    if (!id || !head || head.user.status !== 'approved') continue;
    heads.set(groupId, {
      id,
      cleared: isClearedForClassified({ role: head.user.role, cleared: head.user.classifiedClearance }),
    });
  }
  return heads;
}

/**
 * The morning's e-file notices (decision 111), made by the morning job beside the dak's (decision 082): to the
 * officer holding a file past its due date (`efile_overdue_held`, from its sender), and to the head of its owner
 * group once it is `escalateDays` past it (`efile_escalated`, naming the holder; not to the holder themself). One of
 * each per sending and person (the notifications' unique index), so a run twice tells once. Returns how many were made.
 */
export async function morningEfileNotices(
  db: DbOrTx,
  { today, escalateDays }: { today: string; escalateDays: number },
): Promise<number> {
  const escalateBefore = new Date(Date.parse(today) - escalateDays * 86_400_000).toISOString().slice(0, 10);
  const held = await notifyEach(db, {
    kind: 'efile_overdue_held',
    subjectType: 'efile',
    recipients: sql`select o.to_user_id as user_id, o.efile_id as subject_id, o.id as source_id,
      o.from_user_id as actor_id from (${overdue(sql`${today}::date`)}) o`,
  });
  const late = await db.execute<{ owner_group_id: string }>(
    sql`select distinct o.owner_group_id from (${overdue(sql`(${escalateBefore}::date + 1)`)}) o`,
  );
  const heads = await headsOf(
    db,
    late.rows.map((r) => r.owner_group_id),
  );
  if (!heads.size) return held;
  const values = sql.join(
    [...heads].map(([groupId, h]) => sql`(${groupId}::uuid, ${h.id}::uuid, ${h.cleared}::boolean)`),
    sql`, `,
  );
  const escalated = await notifyEach(db, {
    kind: 'efile_escalated',
    subjectType: 'efile',
    recipients: sql`select h.head_id as user_id, o.efile_id as subject_id, o.id as source_id, o.to_user_id as actor_id
      from (${overdue(sql`(${escalateBefore}::date + 1)`)}) o
      join (values ${values}) as h(group_id, head_id, cleared) on h.group_id = o.owner_group_id
      where h.head_id <> o.to_user_id
        and (h.cleared or o.classification not in (${sql.join(
          CLEARED_ONLY.map((c) => sql`${c}`),
          sql`, `,
        )}))`,
  });
  return held + escalated;
}
