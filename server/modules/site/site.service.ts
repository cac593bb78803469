import { and, count, desc, eq } from 'drizzle-orm';
import type { z } from 'zod';

import {
  type answerFeedbackInput,
  type feedbackInput,
  type FeedbackStatus,
  type SitePageKey,
  type updateSitePageInput,
} from '#shared/schemas/site.ts';

import type { Db, DbOrTx } from '#server/db/client.ts';
import { feedback, type FeedbackRow, sitePages } from '#server/db/schema/index.ts';
import { notFound } from '#server/lib/errors.ts';
import { activityWord } from '#server/modules/audit/activity-words.ts';
import { type ActivityCode, recordActivity } from '#server/modules/audit/audit.service.ts';
import { usersAs } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { DEFAULT_SITE_PAGES } from './default-pages.ts';

const PAGE_UPDATED: Record<SitePageKey, ActivityCode> = {
  terms: 'activity.terms_page_updated',
  privacy: 'activity.privacy_page_updated',
};

export interface SitePage {
  key: SitePageKey;
  en: string;
  hi: string;
  updatedAt: Date | null;
  isDefault: boolean;
}

/** Terms of use or Privacy policy: the admin's text, else the default (decision 019). Public. */
export async function getSitePage(db: DbOrTx, key: SitePageKey): Promise<SitePage> {
  const [row] = await db.select().from(sitePages).where(eq(sitePages.key, key)).limit(1);
  if (!row) return { key, ...DEFAULT_SITE_PAGES[key], updatedAt: null, isDefault: true };
  return { key, en: row.bodyEn, hi: row.bodyHi, updatedAt: row.updatedAt, isDefault: false };
}

/** Saves an admin's text of a page in both languages, and records it. Callers check that the actor is an admin. */
export async function saveSitePage(
  db: Db,
  actor: Actor,
  key: SitePageKey,
  input: z.output<typeof updateSitePageInput>,
): Promise<SitePage> {
  return db.transaction(async (tx) => {
    const values = { bodyEn: input.en, bodyHi: input.hi, updatedBy: actor.id, updatedAt: new Date() };
    const [row] = await tx
      .insert(sitePages)
      .values({ key, ...values })
      .onConflictDoUpdate({ target: sitePages.key, set: values })
      .returning();
    await recordActivity(tx, actor, PAGE_UPDATED[key]);
    return { key, en: row!.bodyEn, hi: row!.bodyHi, updatedAt: row!.updatedAt, isDefault: false };
  });
}

/** A feedback row with the names of its signed-in sender and of the admin who replied. */
export type FeedbackWithPeople = FeedbackRow & {
  sender: { id: string; name: string } | null;
  replier: { id: string; name: string } | null;
};

/**
 * Stores feedback from the Feedback page and records it in the activity log (a visitor's entry has no user). Anyone
 * may call it; the route limits how often one address may.
 */
export async function sendFeedback(
  db: Db,
  actor: Actor | null,
  input: z.output<typeof feedbackInput>,
): Promise<FeedbackRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(feedback)
      .values({ ...input, userId: actor?.id ?? null })
      .returning();
    await recordActivity(
      tx,
      actor,
      'activity.feedback_sent',
      {
        category: activityWord(input.category),
        name: input.name,
        email: input.email,
        subject: input.subject,
      },
      {
        type: 'feedback',
        id: row!.id,
      },
    );
    return row!;
  });
}

const sender = usersAs('sender');
const replier = usersAs('replier');

function selectFeedback(db: DbOrTx) {
  return db
    .select({
      row: feedback,
      senderId: sender.id,
      senderName: sender.name,
      replierId: replier.id,
      replierName: replier.name,
    })
    .from(feedback)
    .leftJoin(sender, eq(sender.id, feedback.userId))
    .leftJoin(replier, eq(replier.id, feedback.repliedBy));
}

type SelectedFeedback = Awaited<ReturnType<ReturnType<typeof selectFeedback>['execute']>>[number];
const withPeople = (r: SelectedFeedback): FeedbackWithPeople => ({
  ...r.row,
  sender: r.senderId ? { id: r.senderId, name: r.senderName ?? '' } : null,
  replier: r.replierId ? { id: r.replierId, name: r.replierName ?? '' } : null,
});

/** Feedback newest first, optionally of one status, a page at a time, with the total. Callers check for an admin. */
export async function listFeedback(
  db: DbOrTx,
  filter: { status?: FeedbackStatus },
  page: { limit: number; offset: number },
): Promise<{ rows: FeedbackWithPeople[]; total: number }> {
  const where = filter.status ? eq(feedback.status, filter.status) : undefined;
  const [rows, [{ total } = { total: 0 }]] = await Promise.all([
    selectFeedback(db)
      .where(where)
      .orderBy(desc(feedback.createdAt), desc(feedback.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(feedback).where(where),
  ]);
  return { rows: rows.map(withPeople), total };
}

/** The feedback this signed-in person sent, newest first, with any replies. */
export async function listOwnFeedback(db: DbOrTx, actor: Actor): Promise<FeedbackWithPeople[]> {
  const rows = await selectFeedback(db)
    .where(eq(feedback.userId, actor.id))
    .orderBy(desc(feedback.createdAt), desc(feedback.id))
    .limit(50);
  return rows.map(withPeople);
}

/**
 * An admin answers feedback and/or marks its status; a reply is stamped with who wrote it and when. Recorded in the
 * activity log. Callers check that the actor is an admin.
 */
export async function answerFeedback(
  db: Db,
  actor: Actor,
  id: string,
  input: z.output<typeof answerFeedbackInput>,
): Promise<FeedbackWithPeople> {
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(feedback).where(eq(feedback.id, id)).for('update').limit(1);
    if (!current) throw notFound('site.feedback_not_found');
    const replyChanged = input.reply !== current.reply;
    await tx
      .update(feedback)
      .set({
        status: input.status,
        reply: input.reply,
        ...(replyChanged
          ? { repliedBy: input.reply ? actor.id : null, repliedAt: input.reply ? new Date() : null }
          : {}),
      })
      .where(eq(feedback.id, id));
    await recordActivity(
      tx,
      actor,
      replyChanged && input.reply ? 'activity.feedback_answered' : 'activity.feedback_updated',
      { subject: current.subject, status: activityWord(input.status) },
      { type: 'feedback', id },
    );
  });
  const [row] = await selectFeedback(db)
    .where(and(eq(feedback.id, id)))
    .limit(1);
  return withPeople(row!);
}
