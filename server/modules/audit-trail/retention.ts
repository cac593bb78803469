import { sql } from 'drizzle-orm';

import type { Db } from '#server/db/client.ts';

import { recordAudit } from './audit-trail.ts';
import { type CheckpointStore, writeCheckpoint } from './checkpoints.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a purge did: the last link removed, how many rows went, the checkpoint written first. */
export interface PurgeResult {
  throughSeq: number;
  removed: number;
  checkpoint: string;
}

/** The system itself: the nightly job has no person, address or browser. */
const SYSTEM = { actor: null, address: null, userAgent: null };

/**
 * Retention (AUDIT_RETENTION_DAYS, decision 068): removes the oldest audit events, those before the first
 * event of the last `retentionDays` days, so the rows left are still one unbroken chain from there. First a checkpoint
 * naming the boundary (`purgedThrough`: the last link removed and its hash) goes to every place of `store`; only when
 * it is written does `audit_purge` run (the one way the database lets rows go), in one transaction with the
 * `audit_purged` event. Nothing to remove: null.
 */
export async function purgeExpiredAuditEvents(
  db: Db,
  store: CheckpointStore,
  opts: { retentionDays: number; now?: Date },
): Promise<PurgeResult | null> {
  const cutoff = new Date((opts.now ?? new Date()).getTime() - opts.retentionDays * DAY_MS);
  // The rows before the first one of the retention window, in chain order: never a row younger than the cutoff, even
  // if the clock once stepped back.
  const { rows } = await db.execute<{ seq: string; hash: string }>(sql`
    select seq::text as seq, hash from audit_events where seq = coalesce(
      (select seq from audit_events where occurred_at >= ${cutoff} order by seq limit 1) - 1,
      (select max(seq) from audit_events))`);
  const boundary = rows[0];
  if (!boundary) return null;
  const throughSeq = Number(boundary.seq);
  const { name } = await writeCheckpoint(db, store, {
    reason: 'purge',
    who: SYSTEM,
    purgedThrough: { seq: throughSeq, hash: boundary.hash },
  });
  const removed = await db.transaction(async (tx) => {
    const purged = await tx.execute<{ removed: string }>(sql`select audit_purge(${throughSeq})::text as removed`);
    const count = Number(purged.rows[0]!.removed);
    await recordAudit(tx, SYSTEM, {
      action: 'audit_purged',
      object: { type: 'audit_checkpoint', id: name, label: `seq ${throughSeq}` },
      outcome: 'success',
      details: { throughSeq, removed: count, retentionDays: opts.retentionDays, before: cutoff.toISOString() },
    });
    return count;
  });
  return { throughSeq, removed, checkpoint: name };
}
