import { and, inArray, isNotNull, lt } from 'drizzle-orm';
import type PgBoss from 'pg-boss';

import type { Database, DbOrTx } from '#server/db/client.ts';
import { mailOutbox } from '#server/db/schema/index.ts';
import type { JobModule } from '#server/jobs/job-queue.ts';
import { listenAndBackfill } from '#server/jobs/listen-queue-backfill.ts';
import { settlesWithin } from '#server/lib/time-limit.ts';
import { deleteResetTokensExpiredBefore } from '#server/modules/auth/auth.queries.ts';

import { deliverMail } from './mail.delivery.ts';
import { mailNoticesNow } from './mail.digest.ts';
import { createMailTransport } from './mail.transport.ts';

/** The queue of mails to send (pg-boss, schema `pgboss`): one job per outbox row, with the row's id. */
export const MAIL_QUEUE = 'mail';
/** Each night: sent mails and spent reset links go after a while. */
export const MAIL_HOUSEKEEPING_QUEUE = 'mail-housekeeping';

/** How long the outbox keeps a mail after it was sent, dropped or given up (what was sent, for questions). */
export const OUTBOX_KEEP_DAYS = 30;

export interface MailJobOptions {
  /**
   * Retries while the relay is down or refuses (decision 076): pg-boss waits `retryDelaySeconds` doubled at each
   * retry (with up to as much again at random), `retryLimit` times. The defaults (30 s, 11 retries) try for about a
   * day: the last retry comes 17 to 34 hours after the first attempt. Tests make them short.
   */
  retryDelaySeconds?: number;
  retryLimit?: number;
  retryBackoff?: boolean;
  /** How often an idle worker looks for mail queued by another node. */
  pollingIntervalSeconds?: number;
}

/** One attempt may take this long (connect, greet, send) before pg-boss counts it failed and tries again. */
const ATTEMPT_SECONDS = 120;

/**
 * Moves the outbox's pending mails into the mail queue: each row becomes a job with the row's id, and is marked
 * queued, in one transaction, so a mail is queued once, by one node (`for update skip locked`), and never lost between
 * the two. Answers how many were queued.
 */
export async function queuePendingMail(
  database: Database,
  boss: PgBoss,
  retry: Required<Pick<MailJobOptions, 'retryDelaySeconds' | 'retryLimit' | 'retryBackoff'>>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const client = await database.pool.connect();
    let moved: number;
    try {
      await client.query('begin');
      const { rows } = await client.query<{ id: string }>(
        `select id from mail_outbox where status = 'pending' order by created_at limit 200 for update skip locked`,
      );
      if (rows.length) {
        await boss.insert(
          rows.map((r) => ({
            id: r.id,
            name: MAIL_QUEUE,
            data: { outboxId: r.id },
            retryLimit: retry.retryLimit,
            retryDelay: retry.retryDelaySeconds,
            retryBackoff: retry.retryBackoff,
            expireInSeconds: ATTEMPT_SECONDS,
          })),
          { db: { executeSql: (text, values) => client.query(text, values) } },
        );
        await client.query(`update mail_outbox set status = 'queued', queued_at = now() where id = any($1::uuid[])`, [
          rows.map((r) => r.id),
        ]);
      }
      await client.query('commit');
      moved = rows.length;
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
    total += moved;
    if (moved < 200) return total;
  }
}

/** Forgets mails done with more than OUTBOX_KEEP_DAYS ago, and reset links a day past their end. */
export async function sweepMail(db: DbOrTx, now = new Date()): Promise<void> {
  const keepFrom = new Date(now.getTime() - OUTBOX_KEEP_DAYS * 86_400_000);
  await db
    .delete(mailOutbox)
    .where(
      and(
        inArray(mailOutbox.status, ['sent', 'dropped', 'failed']),
        isNotNull(mailOutbox.doneAt),
        lt(mailOutbox.doneAt, keepFrom),
      ),
    );
  await deleteResetTokensExpiredBefore(db, new Date(now.getTime() - 86_400_000));
}

/**
 * Mail through the lab's relay (decisions 076, 104): a listener that queues each mail when its transaction
 * commits (the outbox notifies `mail_pending`), a backfill at start and after every reconnection, and a worker that
 * sends one mail at a time, retried by pg-boss with back-off while the relay is down. Without SMTP_URL only the nightly
 * sweep runs.
 */
export const mailJobs = ({
  retryDelaySeconds = 30,
  retryLimit = 11,
  retryBackoff = true,
  pollingIntervalSeconds = 2,
}: MailJobOptions = {}): JobModule => ({
  queues: [{ name: MAIL_QUEUE }, { name: MAIL_HOUSEKEEPING_QUEUE, cron: '30 3 * * *' }],
  start: async ({ boss, database, store, config, log }) => {
    // The night's sweep runs with mail off too: what was written while it was on still goes in time.
    await boss.work(MAIL_HOUSEKEEPING_QUEUE, async () => sweepMail(database.db));
    const mail = config.mail;
    if (!mail) return;
    const transport = createMailTransport(mail);
    const retry = { retryDelaySeconds, retryLimit, retryBackoff };

    const workerId = await boss.work<{ outboxId: string }>(
      MAIL_QUEUE,
      { batchSize: 1, pollingIntervalSeconds, includeMetadata: true },
      async ([job]) => {
        if (!job) return;
        const last = job.retryCount >= job.retryLimit;
        try {
          await deliverMail(database.db, transport, mail, config.jwtSecret, job.data.outboxId, {
            last,
            driver: store.driver,
          });
        } catch (err) {
          log.error(
            { err, mail: job.data.outboxId, attempt: job.retryCount + 1, relay: mail.relay },
            last
              ? 'gave up a mail: the relay did not take it'
              : 'the relay did not take a mail; it will be tried again',
          );
          if (!last) throw err; // pg-boss tries again later; the last failure is recorded in the outbox
        }
      },
    );

    let moving: Promise<void> = Promise.resolve();
    const queueNow = () => {
      // One move at a time on this node; a notice during a move is picked up by the move that follows it.
      moving = moving
        .then(async () => {
          // The bell's notices to be mailed now become outbox rows first (decision 081), then every pending row moves.
          await mailNoticesNow(database.db, mail);
          if (await queuePendingMail(database, boss, retry)) boss.notifyWorker(workerId);
        })
        .catch((err: unknown) => log.error({ err }, 'could not queue the pending mail'));
      return moving;
    };
    // Listening before the backfill: a mail written meanwhile is not missed (decision 104's listen → queue → backfill).
    const listener = await listenAndBackfill(log, database.url, {
      channel: 'mail_pending',
      name: 'mail queue listener',
      queue: queueNow,
      backfill: queueNow,
      failures: { queue: 'could not queue the pending mail', backfill: 'could not queue the pending mail' },
    });

    return {
      stop: async () => {
        await settlesWithin(listener.close(), 2000);
        await settlesWithin(moving, 2000);
        transport.close();
      },
    };
  },
});
