import type { JobModule } from '#server/jobs/job-queue.ts';

import { checkpointStore, writeCheckpoint } from './checkpoints.ts';
import { purgeExpiredAuditEvents } from './retention.ts';

/** The nightly checkpoint and the nightly purge (pg-boss queues in the portal's database: schema `pgboss`). */
export const AUDIT_CHECKPOINT_QUEUE = 'audit-checkpoint';
export const AUDIT_RETENTION_QUEUE = 'audit-retention';

/**
 * The audit trail's background work (issue 31, decision 068): a checkpoint every night at 00:15 IST, and the retention
 * purge at 00:45 IST (AUDIT_RETENTION_DAYS; it writes its own checkpoint first). pg-boss runs a scheduled job once
 * across every node; a failed run is retried three times, ten minutes apart, and logged. The API tests call
 * `writeCheckpoint` and `purgeExpiredAuditEvents` themselves.
 */
export const auditTrailJobs = (): JobModule => ({
  queues: [
    { name: AUDIT_CHECKPOINT_QUEUE, cron: '15 0 * * *', options: { retryLimit: 3, retryDelay: 600 } },
    { name: AUDIT_RETENTION_QUEUE, cron: '45 0 * * *', options: { retryLimit: 3, retryDelay: 600 } },
  ],
  start: async ({ boss, database, config, log }) => {
    const store = checkpointStore(config);
    // Once a night each: a worker that looks every minute is soon enough.
    const polling = { pollingIntervalSeconds: 60 };
    await boss.work(AUDIT_CHECKPOINT_QUEUE, polling, async () => {
      try {
        const { name, checkpoint } = await writeCheckpoint(database.db, store, {
          reason: 'daily',
          who: { actor: null, address: null, userAgent: null },
        });
        log.info({ name, seq: checkpoint.seq, places: store.places }, 'audit checkpoint written');
      } catch (err) {
        log.error({ err }, 'the nightly audit checkpoint could not be written');
        throw err;
      }
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
