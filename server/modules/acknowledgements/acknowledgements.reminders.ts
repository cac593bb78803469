import { and, eq, inArray, isNull, sql } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { acknowledgementRequests, acknowledgements } from '#server/db/schema/index.ts';
import type { JobModule } from '#server/jobs/job-queue.ts';
import { type NotificationSource, notifyEach } from '#server/modules/notifications/notifications.service.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { documentColumns, presentDocument, withDocument } from './acknowledgements.documents.ts';

/**
 * Reminders under the bell (decision 074): each person who has not acknowledged is told
 * `ACK_REMINDER_DAYS` days before their due date (`acknowledgement_due`) and the day after it
 * (`acknowledgement_overdue`). A daily job makes them; the notifications' unique index (source, kind, person) keeps
 * each to once per row and kind, on every node and however often the job runs. Each is mailed too, now or in the
 * digest, by the person's choice (decision 081).
 */

/** The notifications' subject type of a row. */
export const ACKNOWLEDGEMENT_SUBJECT = 'acknowledgement';
/** The daily queue (pg-boss schedules it once across every node). */
export const ACKNOWLEDGEMENT_REMINDERS_QUEUE = 'acknowledgement-reminders';

const addDays = (day: string, n: number) => new Date(Date.parse(day) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * Makes the reminders due by `today` (YYYY-MM-DD, India): "due" for pending rows due within `days` days from today
 * (so a day the job did not run is caught up, and a joiner with a short span is told too), "overdue" for pending rows
 * whose due date has passed. Returns how many were made now.
 */
export async function sendAcknowledgementReminders(
  db: DbOrTx,
  { today, days }: { today: string; days: number },
): Promise<{ due: number; overdue: number }> {
  const make = (kind: 'acknowledgement_due' | 'acknowledgement_overdue', when: ReturnType<typeof sql>) =>
    notifyEach(db, {
      kind,
      subjectType: ACKNOWLEDGEMENT_SUBJECT,
      recipients: sql`select a.user_id, a.id as subject_id, a.id as source_id, r.published_by as actor_id
        from ${acknowledgements} a join ${acknowledgementRequests} r on r.id = a.request_id
        where a.acknowledged_at is null and ${when}`,
    });
  const due = await make(
    'acknowledgement_due',
    sql`a.due_on >= ${today}::date and a.due_on <= ${addDays(today, days)}::date`,
  );
  const overdue = await make('acknowledgement_overdue', sql`a.due_on < ${today}::date`);
  return { due, overdue };
}

/**
 * The bell's words for a person's rows (the notification source): the owner's name as the ref and the document's
 * name as the title, for their own rows still pending. A row acknowledged or gone hides its reminders.
 */
export async function describePendingRows(db: DbOrTx, actor: Actor, ids: string[]) {
  const out = new Map<string, { ref: string; title: string }>();
  if (!ids.length) return out;
  const rows = await withDocument(
    db
      .select({ id: acknowledgements.id, ...documentColumns })
      .from(acknowledgements)
      .innerJoin(acknowledgementRequests, eq(acknowledgementRequests.id, acknowledgements.requestId)),
  ).where(
    and(
      inArray(acknowledgements.id, ids),
      eq(acknowledgements.userId, actor.id),
      isNull(acknowledgements.acknowledgedAt),
    ),
  );
  for (const r of rows) {
    const doc = presentDocument(r);
    out.set(r.id, { ref: doc.owner.name, title: doc.name });
  }
  return out;
}

/** The bell's source for acknowledgement rows (server/app.ts hands it to the bell at start-up, decision 104). */
export const acknowledgementNotices: NotificationSource = {
  subjectType: ACKNOWLEDGEMENT_SUBJECT,
  describe: describePendingRows,
};

/** The daily reminders, at 07:00 India time, and once at each start (a day missed while no node ran is caught up). */
export const acknowledgementJobs = (): JobModule => ({
  queues: [{ name: ACKNOWLEDGEMENT_REMINDERS_QUEUE, cron: '0 7 * * *' }],
  start: async ({ boss, database, config, log }) => {
    await boss.work(ACKNOWLEDGEMENT_REMINDERS_QUEUE, async () => {
      const made = await sendAcknowledgementReminders(database.db, {
        today: todayInIndia(),
        days: config.acknowledgementReminderDays,
      });
      if (made.due || made.overdue) log.info(made, 'acknowledgement reminders made');
    });
    await boss.send(ACKNOWLEDGEMENT_REMINDERS_QUEUE, {});
  },
});
