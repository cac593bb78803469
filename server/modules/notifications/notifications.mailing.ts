import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { type NotificationRow, notifications } from '#server/db/schema/index.ts';

/*
 * The bell's notices as the mail module takes them (decisions 081, 082, 103): the notices waiting to be mailed, locked
 * for the taker (`for update skip locked`, so two nodes never take the same one), and marked done in the taker's
 * transaction. Only notices written in the last `days` days count.
 */

const since = (days: number) => gt(notifications.createdAt, sql`now() - make_interval(days => ${days})`);

/** Up to `limit` notices to be mailed now, oldest first, locked until the caller's transaction ends. */
export function takeNoticesToMailNow(tx: DbOrTx, days: number, limit: number): Promise<NotificationRow[]> {
  return tx
    .select()
    .from(notifications)
    .where(and(eq(notifications.mail, 'now'), since(days)))
    .orderBy(asc(notifications.createdAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/** The people with notices kept for their digest. */
export async function peopleWithDigestWaiting(db: DbOrTx, days: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ userId: notifications.userId })
    .from(notifications)
    .where(and(eq(notifications.mail, 'digest'), since(days)));
  return rows.map((r) => r.userId);
}

/** This person's notices kept for the digest, oldest first, locked until the caller's transaction ends. */
export function takeDigestNotices(tx: DbOrTx, userId: string, days: number): Promise<NotificationRow[]> {
  return tx
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.mail, 'digest'), since(days)))
    .orderBy(asc(notifications.createdAt), asc(notifications.id))
    .for('update', { skipLocked: true });
}

/** These notices mailed (or passed over): done, with the time. */
export async function markNoticesMailed(tx: DbOrTx, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await tx.update(notifications).set({ mail: 'done', mailedAt: new Date() }).where(inArray(notifications.id, ids));
}
