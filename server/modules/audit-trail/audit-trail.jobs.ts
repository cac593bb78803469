import type { Database } from '#server/db/client.ts';
import type { JobLog, JobModule } from '#server/jobs/job-queue.ts';

import { type CheckpointStore, checkpointStore, writeCheckpoint } from './checkpoints.ts';
import { purgeExpiredAuditEvents } from './retention.ts';

/** The nightly checkpoint and the nightly purge (pg-boss queues in the portal's database: schema `pgboss`). */
export const AUDIT_CHECKPOINT_QUEUE = 'audit-checkpoint';
export const AUDIT_RETENTION_QUEUE = 'audit-retention';
/** The checkpoint every AUDIT_CHECKPOINT_MINUTES (decision 093). */
export const AUDIT_SCHEDULED_CHECKPOINT_QUEUE = 'audit-checkpoint-scheduled';

/**
 * The cron line (India time) of a checkpoint every `minutes` (AUDIT_CHECKPOINT_MINUTES, which config.ts keeps to a
 * divisor of an hour or of a day): every `minutes` from the hour, or every so many hours from midnight.
 */
export function auditCheckpointCron(minutes: number): string {
  if (minutes < 60) return `*/${minutes} * * * *`;
  if (minutes === 60) return '0 * * * *';
  if (minutes === 1440) return '0 0 * * *';
  return `0 */${minutes / 60} * * *`;
}

/** Writes one checkpoint of the system's own (nobody asked: no person, address or browser) and logs it. */
export async function writeScheduledCheckpoint(
  database: Pick<Database, 'db'>,
  store: CheckpointStore,
  log: JobLog,
  reason: 'daily' | 'scheduled',
) {
  try {
    const written = await writeCheckpoint(database.db, store, {
      reason,
      who: { actor: null, address: null, userAgent: null },
    });
    log.info(
      { name: written.name, seq: written.checkpoint.seq, places: store.places, reason },
      'audit checkpoint written',
    );
    return written;
  } catch (err) {
    log.error({ err, reason }, 'an audit checkpoint could not be written');
    throw err;
  }
}

/**
 * The audit trail's background work (decisions 068 and 093): a checkpoint every night at 00:15 IST and every
 * AUDIT_CHECKPOINT_MINUTES (default 60), and the retention purge at 00:45 IST (AUDIT_RETENTION_DAYS; it writes its
 * own checkpoint first). pg-boss runs a scheduled job once across every node; a failed run is retried three times, ten
 * minutes apart (the frequent checkpoint: not retried, the next one comes soon), and logged. The API tests call
 * `writeCheckpoint` and `purgeExpiredAuditEvents` themselves; `pollingIntervalSeconds` is for a test of a real run.
 */
export const auditTrailJobs = ({ pollingIntervalSeconds = 60 } = {}): JobModule => ({
  queues: [
    { name: AUDIT_CHECKPOINT_QUEUE, cron: '15 0 * * *', options: { retryLimit: 3, retryDelay: 600 } },
    { name: AUDIT_RETENTION_QUEUE, cron: '45 0 * * *', options: { retryLimit: 3, retryDelay: 600 } },
    { name: AUDIT_SCHEDULED_CHECKPOINT_QUEUE, options: { retryLimit: 0 } },
  ],
  start: async ({ boss, database, config, log }) => {
    const store = checkpointStore(config);
    // The schedule follows AUDIT_CHECKPOINT_MINUTES (set here, not in `queues`, which are fixed before the config is read).
    const cron = auditCheckpointCron(config.auditCheckpointMinutes);
    await boss.schedule(AUDIT_SCHEDULED_CHECKPOINT_QUEUE, cron, {}, { tz: 'Asia/Kolkata' });
    // Once a night or once in several minutes: a worker that looks every minute is soon enough.
    const polling = { pollingIntervalSeconds };
    await boss.work(AUDIT_CHECKPOINT_QUEUE, polling, async () => {
      await writeScheduledCheckpoint(database, store, log, 'daily');
    });
    await boss.work(AUDIT_SCHEDULED_CHECKPOINT_QUEUE, polling, async () => {
      await writeScheduledCheckpoint(database, store, log, 'scheduled');
    });
    await boss.work(AUDIT_RETENTION_QUEUE, polling, async () => {
      try {
        const purged = await purgeExpiredAuditEvents(database.db, store, { retentionDays: config.auditRetentionDays });
        if (purged) log.info({ ...purged, retentionDays: config.auditRetentionDays }, 'old audit events purged');
      } catch (err) {
        log.error({ err }, 'the audit retention purge failed (no row goes before its checkpoint is written)');
        throw err;
      }
    });
    return { stop: () => store.close() };
  },
});
