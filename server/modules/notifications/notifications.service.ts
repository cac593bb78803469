import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';

import type { NotificationKind } from '#shared/schemas/notification.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { type NotificationRow, notifications } from '#server/db/schema/index.ts';
import { notFound } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { noticeMailFor, noticeMailSql } from '#server/modules/mail/mail.decision.ts';
import { noticeMail } from '#server/modules/mail/mail.notices.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

/**
 * In-app notifications (decisions 020, 081, 104). A module that has something to tell gives a source for its subject
 * type: `describe` names the subjects a person may still see (nobody learns of a letter they may not see, even from an
 * old notification), and `sweep` lists notices that are due by now (a letter someone marked is overdue). The sources
 * are handed over once, at start-up, where server/app.ts composes the modules (notificationSources). Sweeps run when a
 * person's notifications are read; the morning job makes the day's notices (notifications.jobs.ts).
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

/** Every module's source, by subject type. */
export type NotificationSources = ReadonlyMap<string, NotificationSource>;

/** The sources of every module, given once at start-up (server/app.ts); a subject type given twice is a mistake. */
export function notificationSources(list: readonly NotificationSource[]): NotificationSources {
  const sources = new Map<string, NotificationSource>();
  for (const source of list) {
    if (sources.has(source.subjectType)) throw new Error(`two notification sources for '${source.subjectType}'`);
    sources.set(source.subjectType, source);
  }
  return sources;
}

/** One notice to write: whom it tells, about what, and what caused it (one notice per person, kind and cause). */
interface NoticeRow {
  userId: string;
  kind: NotificationKind;
  subjectType: string;
  subjectId: string;
  sourceId: string;
  actorId: string | null;
}

/** The one insert of notices: a repeat of a person, kind and cause is ignored. */
async function writeNotices(tx: DbOrTx, rows: NoticeRow[], mail: ('now' | 'digest' | null)[]): Promise<void> {
  if (!rows.length) return;
  await tx
    .insert(notifications)
    .values(rows.map((row, i) => ({ ...row, mail: mail[i] ?? null })))
    .onConflictDoNothing();
}

/**
 * Tells these people something, inside the caller's transaction. One notice per person, kind and cause (`sourceId`):
 * a repeat is ignored. The same row feeds the bell and the mail: it is mailed now, kept for the morning digest, or not
 * mailed, by the person's choice for its kind (mail.decision.ts, decisions 081, 104).
 */
export async function notify(
  tx: DbOrTx,
  notice: { userIds: string[]; kind: NotificationKind; subjectType: string; subjectId: string; sourceIds: string[] },
  actor: { id: string } | null,
): Promise<void> {
  if (!notice.userIds.length) return;
  const sourceIds = notice.userIds.map((_, i) => notice.sourceIds[i] ?? notice.sourceIds[0]!);
  const mail = await noticeMail(tx, notice.kind, notice.userIds, sourceIds);
  await writeNotices(
    tx,
    notice.userIds.map((userId, i) => ({
      userId,
      kind: notice.kind,
      subjectType: notice.subjectType,
      subjectId: notice.subjectId,
      sourceId: sourceIds[i]!,
      actorId: actor?.id ?? null,
    })),
    mail,
  );
}

/**
 * `notify` for a set of people chosen by a query, in one statement (a whole audience, the morning's notices):
 * `recipients` selects `user_id`, `subject_id`, `source_id` and `actor_id` (uuids; the actor may be null), one row a
 * notice. Each notice's mail is the same decision as notify's, as SQL (noticeMailSql). Inside the caller's transaction;
 * answers how many notices were new.
 */
export async function notifyEach(
  tx: DbOrTx,
  notice: { kind: NotificationKind; subjectType: string; recipients: SQL },
): Promise<number> {
  const made = await tx.execute<{ n: number }>(sql`
    with made as (
      insert into ${notifications} (user_id, kind, subject_type, subject_id, source_id, actor_id, mail)
      select n.user_id, ${notice.kind}::notification_kind, ${notice.subjectType}, n.subject_id, n.source_id,
        n.actor_id::uuid, ${noticeMailSql(notice.kind, { role: sql`${users.role}`, prefs: sql`${users.mailPreferences}` })}
      from (${notice.recipients}) n join ${users} on ${users.id} = n.user_id
      on conflict do nothing
      returning 1
    )
    select count(*)::int as n from made`);
  return made.rows[0]?.n ?? 0;
}

/** Adds the notices that have fallen due (e.g. "a letter you marked is overdue") for this person. */
async function sweep(db: DbOrTx, actor: Actor, sources: NotificationSources): Promise<void> {
  for (const source of sources.values()) {
    if (!source.sweep) continue;
    const due = await source.sweep(db, actor);
    if (!due.length) continue;
    const rows = due.map((d) => ({ ...d, userId: actor.id, subjectType: source.subjectType }));
    await writeNotices(
      db,
      rows,
      await noticeMailFor(
        db,
        rows.map((r) => r.userId),
        rows,
      ),
    );
  }
}

/** Keeps the notices whose subject this person may still see, with the subject's ref and title. */
async function describeAll(db: DbOrTx, actor: Actor, rows: NotificationRow[], sources: NotificationSources) {
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

async function unreadCount(db: DbOrTx, actor: Actor, sources: NotificationSources): Promise<number> {
  const unread = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, actor.id), isNull(notifications.readAt)))
    .orderBy(desc(notifications.createdAt))
    .limit(UNREAD_COUNT_LIMIT);
  return (await describeAll(db, actor, unread, sources)).length;
}

/** The bell's count: unread notices about things this person may see (after the sweep). Any signed-in person. */
export async function countUnreadNotifications(
  db: DbOrTx,
  actor: Actor,
  sources: NotificationSources,
): Promise<number> {
  await sweep(db, actor, sources);
  return unreadCount(db, actor, sources);
}

/** This person's newest notices, with the subject read fresh, and the unread count. Any signed-in person. */
export async function listNotifications(db: DbOrTx, actor: Actor, limit: number, sources: NotificationSources) {
  await sweep(db, actor, sources);
  // Who caused each notice, in the same statement (one round trip fewer per list made, decision 089).
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
    sources,
  );
  // A list shorter than its limit holds every notice of the person: its unread ones (fewer than the list's limit,
  // itself below the count's) are the count, described just now. Else the count reads them.
  const unread =
    listed.length < limit && limit <= UNREAD_COUNT_LIMIT
      ? shown.filter(({ row }) => row.readAt === null).length
      : await unreadCount(db, actor, sources);
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
