import { and, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { letterMovements, letters } from '#server/db/schema/index.ts';
import { hasRoleSql } from '#server/lib/roles.policy.ts';
import { type NotificationSource, notifyEach } from '#server/modules/notifications/notifications.service.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { visibleLetters } from './letters.policy.ts';

/**
 * What notifications need of letters (decision 020): the bell's source for letters (letterNotices, handed to the bell
 * by server/app.ts at start-up, decision 104) and the morning's dak notices.
 */

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

/** The bell's source for letters: who may still see each, and the overdue letters a person marked. */
export const letterNotices: NotificationSource = {
  subjectType: 'letter',
  describe: describeVisibleLetters,
  sweep: overdueMarkedBy,
};

/**
 * The morning's dak notices (decision 082), made by the morning job at DIGEST_HOUR: to the officer
 * holding an open letter due tomorrow (`letter_due_tomorrow`) or past its due date (`letter_overdue_held`), and to the
 * head of the holder's group once it is `escalateDays` days past it (`letter_escalated`; the group's current associate
 * director in office, not the holder themself). One of each per movement and person (the notifications' unique index),
 * so a job run twice, or on two nodes, tells once. Each notice's mail follows the person's choice (notifyEach).
 * Returns how many were made.
 */
export async function morningDakNotices(
  db: DbOrTx,
  { today, escalateDays }: { today: string; escalateDays: number },
): Promise<number> {
  const tomorrow = new Date(Date.parse(today) + 86_400_000).toISOString().slice(0, 10);
  const escalateBefore = new Date(Date.parse(today) - escalateDays * 86_400_000).toISOString().slice(0, 10);
  const make = (kind: 'letter_due_tomorrow' | 'letter_overdue_held' | 'letter_escalated', recipient: SQL, when: SQL) =>
    notifyEach(db, {
      kind,
      subjectType: 'letter',
      recipients: sql`select r.id as user_id, m.letter_id as subject_id, m.id as source_id,
          ${kind === 'letter_escalated' ? sql`m.to_user_id` : sql`m.from_user_id`} as actor_id
        from letter_movements m
        join users holder on holder.id = m.to_user_id
        join users r on r.id = ${recipient}
        where m.box <> 'closed' and m.due_date is not null and ${when} and r.status = 'approved'`,
    });
  const head = sql`(
    select e.user_id from director_entries e where e.group_id = holder.group_id
    order by e."to" is null desc, e."from" desc, e.created_at desc limit 1)`;
  const due = await make('letter_due_tomorrow', sql`m.to_user_id`, sql`m.due_date = ${tomorrow}::date`);
  const overdue = await make('letter_overdue_held', sql`m.to_user_id`, sql`m.due_date < ${today}::date`);
  const escalated = await make(
    'letter_escalated',
    head,
    sql`m.due_date <= ${escalateBefore}::date and r.id <> holder.id and ${hasRoleSql(sql`r.role`, 'associate_director')}
      and r.group_id = holder.group_id and exists (
        select 1 from director_entries e where e.group_id = holder.group_id and e.user_id = r.id
          and (e."to" is null or e."to" >= ${today}::date))`,
  );
  return due + overdue + escalated;
}
