import { createHmac, timingSafeEqual } from 'node:crypto';

import { z } from 'zod';

import { AUDIT_CHECKPOINT_NAME } from '#shared/schemas/audit-checkpoint.ts';

/**
 * A backup's manifest (server/db/backup.ts): what the archive must hold, checked by one zod schema before anything in
 * it is trusted, and its signature, an HMAC-SHA256 of the manifest's bytes under BACKUP_KEY (decision 027). The
 * manifest holds a SHA-256 of every other entry, so its signature covers the whole archive.
 */

export const BACKUP_FORMAT = 'lab-portal-backup';
/** The archive's entries besides the tables and the files. */
export const MANIFEST_ENTRY = 'manifest.json';
export const SIGNATURE_ENTRY = 'manifest.hmac';
/** Largest manifest read (about 1.5 million files); a bigger one is not ours. */
export const MANIFEST_MAX_BYTES = 256 * 1024 * 1024;

/** A refusal of the archive or of the target: the restore prints its message as one line. */
export class BackupError extends Error {}

// Names PostgreSQL would take unquoted: what the portal's migrations create. Anything else (a quote, a space, a dot)
// is not one of our tables or columns, whatever the database would make of it.
const identifier = z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'not a table or column name of the portal');
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'not a SHA-256');
const size = z
  .number('must be a number')
  .min(0, 'must not be negative')
  .max(Number.MAX_SAFE_INTEGER, 'is too large')
  .int('must be a whole number');

/** A table's copy: db/<table>.copy. */
const tableEntry = z
  .strictObject({
    table: identifier,
    columns: z.array(identifier).min(1).max(1600), // PostgreSQL's own limit of columns per table
    rows: size,
    path: z.string(),
    size,
    sha256,
  })
  .refine((t) => t.path === `db/${t.table}.copy`, { message: 'not db/<table>.copy', path: ['path'] });

/** An upload: uploads/<area>/<stored name>, two plain names (no dot first, so never `..`). */
export const UPLOAD_PATH = /^uploads\/[a-z][a-z0-9-]{0,62}\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,254}$/;
const fileEntry = z.strictObject({
  path: z.string().regex(UPLOAD_PATH, 'not uploads/<area>/<stored name>'),
  size,
  sha256,
});

/** An audit checkpoint (decision 068): audit-checkpoints/<its name>, restored to DATA_DIR/audit-checkpoints. */
export const CHECKPOINT_PATH = new RegExp(`^audit-checkpoints/${AUDIT_CHECKPOINT_NAME.source.slice(1)}`);
const checkpointEntry = z.strictObject({
  path: z.string().regex(CHECKPOINT_PATH, 'not audit-checkpoints/<checkpoint name>'),
  size,
  sha256,
});

const manifestSchema = z
  .strictObject({
    format: z.literal(BACKUP_FORMAT),
    version: z.literal(1),
    createdAt: z.iso.datetime(),
    /** How many migrations the schema had (server/db/migrations/meta/_journal.json): the first made the tables. */
    migrations: z
      .number('must be a number')
      .int('must be a whole number')
      .min(1, 'must be at least 1 (the first migration makes the tables)')
      .max(100_000, 'is too large'),
    tables: z.array(tableEntry).min(1).max(10_000),
    files: z.array(fileEntry).max(10_000_000),
    /** The audit trail's checkpoints (decision 068); absent from the archives of portals before. */
    checkpoints: z.array(checkpointEntry).max(1_000_000).default([]),
    /** Rows whose bytes were missing when the backup ran (reported, the archive is still usable). */
    missingFiles: z.array(z.string().max(1000)).max(10_000_000),
  })
  .superRefine((m, ctx) => {
    const seen = new Set<string>();
    for (const e of [...m.tables, ...m.files, ...m.checkpoints]) {
      if (seen.has(e.path)) ctx.addIssue({ code: 'custom', message: `${e.path} listed twice`, path: ['tables'] });
      seen.add(e.path);
    }
  });
export type Manifest = z.infer<typeof manifestSchema>;

/** The manifest's bytes as JSON of the right shape, or a BackupError naming the first thing wrong. */
export function parseManifest(bytes: Buffer): Manifest {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BackupError(`The archive's ${MANIFEST_ENTRY} is not valid JSON.`);
  }
  const parsed = manifestSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length ? issue.path.join('.') : 'the manifest';
  throw new BackupError(
    `The archive's ${MANIFEST_ENTRY} is not a Lab Portal manifest (${where}: ${issue.message.replace(/\.$/, '')}).`,
  );
}

// The signature entry: which key signed (an HMAC of a fixed text, never the key) and the manifest's HMAC.
const signatureSchema = z.strictObject({
  algorithm: z.literal('HMAC-SHA256'),
  keyId: z.string().regex(/^[0-9a-f]{16}$/),
  hmac: sha256,
});
type Signature = z.infer<typeof signatureSchema>;

const keyIdOf = (key: string) =>
  createHmac('sha256', key).update('lab-portal backup key id').digest('hex').slice(0, 16);
const hmacOf = (key: string, manifest: Buffer) => createHmac('sha256', key).update(manifest).digest();

/** The signature entry's bytes for these manifest bytes. */
export function signManifest(key: string, manifest: Buffer): Buffer {
  const signature: Signature = {
    algorithm: 'HMAC-SHA256',
    keyId: keyIdOf(key),
    hmac: hmacOf(key, manifest).toString('hex'),
  };
  return Buffer.from(JSON.stringify(signature));
}

/** What a restore found out about the archive's signature. */
export type SignatureCheck = 'verified' | 'unsigned' | 'unchecked';

/**
 * Checks the manifest's signature (decision 027). With a key: an unsigned archive, another key's signature or an
 * edited manifest is refused. Without one: an unsigned archive restores as before, and a signed one restores with its
 * signature unchecked (the caller warns), as the checksums still catch damage.
 */
export function verifyManifest(
  key: string | undefined,
  manifest: Buffer,
  signature: Buffer | undefined,
): SignatureCheck {
  if (!key) return signature ? 'unchecked' : 'unsigned';
  if (!signature) {
    throw new BackupError(
      'The archive is not signed, and BACKUP_KEY is set: restore only archives signed with it (or unset BACKUP_KEY to restore an unsigned archive on purpose).',
    );
  }
  let parsed: Signature;
  try {
    parsed = signatureSchema.parse(JSON.parse(signature.toString('utf8')));
  } catch {
    throw new BackupError(`The archive's ${SIGNATURE_ENTRY} is not a signature.`);
  }
  if (parsed.keyId !== keyIdOf(key)) {
    throw new BackupError(
      `The archive was signed with another BACKUP_KEY (key id ${parsed.keyId}; this one's is ${keyIdOf(key)}).`,
    );
  }
  if (!timingSafeEqual(Buffer.from(parsed.hmac, 'hex'), hmacOf(key, manifest))) {
    throw new BackupError("The archive's manifest does not match its signature: it was edited after the backup.");
  }
  return 'verified';
}
