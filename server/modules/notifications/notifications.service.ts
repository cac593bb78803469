import { and, desc, eq, isNull } from 'drizzle-orm';

import type { NotificationKind } from '#shared/schemas/notification.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { type NotificationRow, notifications, users } from '#server/db/schema/index.ts';
import { notFound } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { noticeMail } from '#server/modules/mail/mail.notices.ts';
import type { Actor } from '#server/plugins/auth.ts';

/**
 * In-app notifications (issue 17 item 8; docs/decisions/020-dak-movement.md). A module that has something to tell
 * registers a source for its subject type: `describe` names the subjects a person may still see (nobody learns of
 * a letter they may not see, even from an old notification), and `sweep` lists notices that are due by now (a
 * letter someone marked is overdue). Sweeps run when a person's notifications are read — no periodic job.
 */
export interface NotificationSource {
  subjectType: string;
  /** Ref and title of each subject id this person may see; ids left out are hidden. */
  describe: (db: DbOrTx, actor: Actor, ids: string[]) => Promise<Map<string, { ref: string; title: string }>>;
  /** Notices due by now for this person. */
  sweep?: (
    db: DbOrTx,
    actor: Actor,
  ) => Promise<{ kind: NotificationKind; subjectId: string; sourceId: string; actorId: string | null }[]>;
}

const sources = new Map<string, NotificationSource>();

/** Registers what a module notifies about (called once, when its routes module loads). */
export function registerNotificationSource(source: NotificationSource): void {
  sources.set(source.subjectType, source);
}

/**
 * Tells these people something, inside the caller's transaction. One notice per person, kind and cause (`sourceId`):
 * a repeat is ignored. The same row feeds the bell and the mail: it is mailed now, kept for the morning digest, or not
 * mailed, by the person's choice for its kind (decision 081).
 */
export async function notify(
  tx: DbOrTx,
  notice: { userIds: string[]; kind: NotificationKind; subjectType: string; subjectId: string; sourceIds: string[] },
  actor: { id: string } | null,
): Promise<void> {
  if (!notice.userIds.length) return;
  const sourceIds = notice.userIds.map((_, i) => notice.sourceIds[i] ?? notice.sourceIds[0]!);
  // Whether each is also mailed, now or in the digest, by the person's choice (decision 081).
  const mail = await noticeMail(tx, notice.kind, notice.userIds, sourceIds);
  await tx
    .insert(notifications)
    .values(
      notice.userIds.map((userId, i) => ({
        userId,
        kind: notice.kind,
        subjectType: notice.subjectType,
        subjectId: notice.subjectId,
        sourceId: sourceIds[i]!,
        actorId: actor?.id ?? null,
        mail: mail[i],
      })),
    )
    .onConflictDoNothing();
}

/** Adds the notices that have fallen due (e.g. "a letter you marked is overdue") for this person. */
async function sweep(db: DbOrTx, actor: Actor): Promise<void> {
  for (const source of sources.values()) {
    if (!source.sweep) continue;
    const due = await source.sweep(db, actor);
    if (!due.length) continue;
    await db
      .insert(notifications)
      .values(due.map((d) => ({ ...d, userId: actor.id, subjectType: source.subjectType })))
      .onConflictDoNothing();
  }
}

/** Keeps the notices whose subject this person may still see, with the subject's ref and title. */
async function describeAll(db: DbOrTx, actor: Actor, rows: NotificationRow[]) {
  const described = new Map<string, { ref: string; title: string }>();
  const byType = new Map<string, string[]>();
  for (const r of rows) byType.set(r.subjectType, [...(byType.get(r.subjectType) ?? []), r.subjectId]);
  for (const [type, ids] of byType) {
    const source = sources.get(type);
    if (!source) continue;
    for (const [id, d] of await source.describe(db, actor, [...new Set(ids)])) described.set(`${type}:${id}`, d);
  }
  return rows.flatMap((row) => {
    const subject = described.get(`${row.subjectType}:${row.subjectId}`);
    return subject ? [{ row, subject }] : [];
  });
}

/** Counted up to this many unread notices (the bell shows "99+"). */
const UNREAD_COUNT_LIMIT = 100;

async function unreadCount(db: DbOrTx, actor: Actor): Promise<number> {
  const unread = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, actor.id), isNull(notifications.readAt)))
    .orderBy(desc(notifications.createdAt))
    .limit(UNREAD_COUNT_LIMIT);
  return (await describeAll(db, actor, unread)).length;
}

/** The bell's count: unread notices about things this person may see (after the sweep). Any signed-in person. */
export async function countUnreadNotifications(db: DbOrTx, actor: Actor): Promise<number> {
  await sweep(db, actor);
  return unreadCount(db, actor);
}

/** This person's newest notices, with the subject read fresh, and the unread count. Any signed-in person. */
export async function listNotifications(db: DbOrTx, actor: Actor, limit: number) {
  await sweep(db, actor);
  // Who caused each notice, in the same statement (one round trip fewer per list made, issue 34).
  const listed = await db
    .select({ row: notifications, actorName: users.name })
    .from(notifications)
    .leftJoin(users, eq(users.id, notifications.actorId))
    .where(eq(notifications.userId, actor.id))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
  const names = new Map(listed.map(({ row, actorName }) => [row.id, actorName]));
  const shown = await describeAll(
    db,
    actor,
    listed.map((l) => l.row),
  );
  // A list shorter than its limit holds every notice of the person: its unread ones (fewer than the list's limit,
  // itself below the count's) are the count, described just now. Else the count reads them.
  const unread =
    listed.length < limit && limit <= UNREAD_COUNT_LIMIT
      ? shown.filter(({ row }) => row.readAt === null).length
      : await unreadCount(db, actor);
  return {
    notifications: shown.map(({ row, subject }) => {
      const name = names.get(row.id);
      return { row, subject, actor: row.actorId && typeof name === 'string' ? { id: row.actorId, name } : null };
    }),
    unread,
  };
}

/** Marks one of this person's notices read (someone else's is a 404). */
export async function markNotificationRead(db: DbOrTx, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(notifications)
      .set({ readAt: new Date() })
      .where(and(eq(notifications.id, id), eq(notifications.userId, actor.id)))
      .returning({ id: notifications.id });
    if (!row) throw notFound('notifications.not_found');
    await recordActivity(tx, actor, 'activity.notification_read', undefined, { type: 'notification', id });
  });
}

/** Marks all of this person's notices read. */
export async function markAllNotificationsRead(db: DbOrTx, actor: Actor): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(notifications)
      .set({ readAt: new Date() })
      .where(and(eq(notifications.userId, actor.id), isNull(notifications.readAt)))
      .returning({ id: notifications.id });
    if (rows.length) await recordActivity(tx, actor, 'activity.notifications_read', { n: rows.length });
    return rows.length;
  });
}
