import { z } from 'zod';

/**
 * An audit checkpoint (decision 068): where the audit trail's chain stood at one moment, kept outside the
 * database (DATA_DIR/audit-checkpoints and, with STORAGE=s3, the bucket) so that a cut-off tail or a rewritten chain
 * shows against it. One JSON file each; `npm run audit:verify` reads them all. Version 1.
 */
export const AUDIT_CHECKPOINT_FORMAT = 'lab-portal-audit-checkpoint';

/**
 * A checkpoint's file name: `<seq, 19 digits>-<time taken, UTC>.json` (`0000000000000001234-20261127T101502123Z.json`),
 * so the names sort by seq, then by time. Files named otherwise are not checkpoints.
 */
export const AUDIT_CHECKPOINT_NAME = /^\d{19}-\d{8}T\d{9}Z\.json$/;

/**
 * Why the checkpoint was written: the nightly job, an admin's request, `npm run audit:checkpoint`, a retention purge,
 * the one every AUDIT_CHECKPOINT_MINUTES (decision 093).
 */
export const AUDIT_CHECKPOINT_REASONS = ['daily', 'requested', 'command', 'purge', 'scheduled'] as const;
export type AuditCheckpointReason = (typeof AUDIT_CHECKPOINT_REASONS)[number];

const seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'not a SHA-256 in hex');

export const auditCheckpointJson = z.strictObject({
  format: z.literal(AUDIT_CHECKPOINT_FORMAT),
  version: z.literal(1),
  /** The chain's last link when the checkpoint was taken (0: no event yet). */
  seq,
  /** Its hash (64 zeros for seq 0). */
  hash: sha256Hex,
  /** How many rows the table held. */
  count: seq,
  /** The first seq still present (earlier ones purged), or null when the table held no row. */
  firstSeq: seq.nullable(),
  /** When, in UTC to the millisecond. */
  takenAt: z.iso.datetime({ precision: 3 }),
  reason: z.enum(AUDIT_CHECKPOINT_REASONS),
  /** A retention purge's checkpoint: the last link it removes (written before the purge runs). */
  purgedThrough: z.strictObject({ seq, hash: sha256Hex }).nullable(),
});
export type AuditCheckpointJson = z.infer<typeof auditCheckpointJson>;

/** POST /api/audit/checkpoints answers the checkpoint, its file name and where it was written. */
export const auditCheckpointWrittenJson = z.object({
  name: z.string(),
  checkpoint: auditCheckpointJson,
  /** DATA_DIR/audit-checkpoints, and s3://bucket/audit-checkpoints with STORAGE=s3. */
  places: z.array(z.string()),
});
export type AuditCheckpointWrittenJson = z.infer<typeof auditCheckpointWrittenJson>;
