import { createHash, randomUUID } from 'node:crypto';
import { link, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import {
  DeleteObjectCommand,
  GetObjectCommand,
  paginateListObjectsV2,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { sql } from 'drizzle-orm';
import pLimit from 'p-limit';

import {
  AUDIT_CHECKPOINT_FORMAT,
  AUDIT_CHECKPOINT_NAME,
  type AuditCheckpointJson,
  type AuditCheckpointReason,
  type AuditCheckpointWrittenJson,
} from '#shared/schemas/audit-checkpoint.ts';

import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { AppError } from '#server/lib/errors.ts';
import { s3Client } from '#server/modules/files/drivers/s3.ts';
import { AUDIT_CHECKPOINTS } from '#server/modules/files/storage-areas.ts';

import { GENESIS_HASH } from './audit-chain.ts';
import { type AuditWho, recordAudit } from './audit-trail.ts';

/**
 * Checkpoints of the audit trail (decision 068): where the chain stood (its last link, that link's hash, how
 * many rows the table held, the first one still present), written as one JSON file to DATA_DIR/audit-checkpoints and,
 * with STORAGE=s3, to `audit-checkpoints/` in the bucket. Held outside the database, they show a cut-off tail or a
 * rewritten chain that the chain alone cannot (`npm run audit:verify`, verify.ts). Written every night (the
 * `audit-checkpoint` job), before each retention purge, on an admin's request (POST /api/audit/checkpoints) and by
 * `npm run audit:checkpoint`; each is itself an `audit_checkpoint` event.
 */

/** The file name of a checkpoint: `0000000000000001234-20261127T101502123Z.json`. */
export function checkpointName(checkpoint: Pick<AuditCheckpointJson, 'seq' | 'takenAt'>): string {
  return `${String(checkpoint.seq).padStart(19, '0')}-${checkpoint.takenAt.replace(/[-:.]/g, '')}.json`;
}

/** A checkpoint's bytes: its fields in the format's order, two-space indented, one newline at the end. */
export function checkpointBytes(checkpoint: AuditCheckpointJson): Buffer {
  const { format, version, seq, hash, count, firstSeq, takenAt, reason, purgedThrough } = checkpoint;
  const ordered = { format, version, seq, hash, count, firstSeq, takenAt, reason, purgedThrough };
  return Buffer.from(`${JSON.stringify(ordered, null, 2)}\n`);
}

/** One checkpoint file as found in one place, not yet parsed (verify.ts checks it). */
export interface StoredCheckpoint {
  name: string;
  /** `local`: DATA_DIR/audit-checkpoints; `s3`: the bucket. */
  place: 'local' | 's3';
  body: Buffer;
}

/** A checkpoint that could not be written to every place (the places it did reach keep their copy). */
export class CheckpointWriteError extends Error {}

/** Where checkpoints are kept: DATA_DIR/audit-checkpoints and, with STORAGE=s3, the bucket. */
export interface CheckpointStore {
  /** The folder on this machine. */
  readonly folder: string;
  /** Each place in words, for messages and answers: `DATA_DIR/audit-checkpoints`, `s3://bucket/audit-checkpoints/`. */
  readonly places: string[];
  /** Writes a checkpoint file to every place; a CheckpointWriteError names the places that failed. Never overwrites. */
  write(name: string, body: Buffer): Promise<void>;
  /** Every checkpoint file in every place (names that are not a checkpoint's are left alone). */
  list(): Promise<StoredCheckpoint[]>;
  /** Removes a checkpoint from every place (a failed restore takes back what it wrote); a missing one is fine. */
  remove(name: string): Promise<void>;
  close(): Promise<void>;
}

/** The checkpoint store of DATA_DIR and STORAGE: the folder, plus the bucket through the S3 driver's client. */
export function checkpointStore(config: Pick<Config, 'dataDir' | 'storage'>): CheckpointStore {
  const folder = path.join(config.dataDir, AUDIT_CHECKPOINTS);
  const s3 =
    config.storage.driver === 's3' ? { client: s3Client(config.storage), bucket: config.storage.bucket } : null;
  const places = [`DATA_DIR/${AUDIT_CHECKPOINTS}`, ...(s3 ? [`s3://${s3.bucket}/${AUDIT_CHECKPOINTS}/`] : [])];
  return {
    folder,
    places,
    async write(name, body) {
      if (!AUDIT_CHECKPOINT_NAME.test(name)) throw new CheckpointWriteError(`${name} is not a checkpoint's name.`);
      const results = await Promise.allSettled([
        writeLocal(folder, name, body),
        ...(s3 ? [writeS3(s3.client, s3.bucket, name, body)] : []),
      ]);
      const failed = results.flatMap((r, i) =>
        r.status === 'rejected' ? [`${places[i]} (${(r.reason as Error).message})`] : [],
      );
      if (failed.length)
        throw new CheckpointWriteError(`The checkpoint ${name} was not written to ${failed.join(', ')}.`);
    },
    async list() {
      const found: StoredCheckpoint[] = [];
      // No folder yet: no checkpoint. One that cannot be read is a failure, never an empty list.
      const none = (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? ([] as string[]) : Promise.reject(err));
      const names = (await readdir(folder).catch(none)).filter((n) => AUDIT_CHECKPOINT_NAME.test(n)).sort();
      for (const name of names) found.push({ name, place: 'local', body: await readFile(path.join(folder, name)) });
      if (s3) found.push(...(await listS3(s3.client, s3.bucket)));
      return found;
    },
    async remove(name) {
      if (!AUDIT_CHECKPOINT_NAME.test(name)) return;
      await rm(path.join(folder, name), { force: true });
      if (s3) await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: `${AUDIT_CHECKPOINTS}/${name}` }));
    },
    async close() {
      s3?.client.destroy();
    },
  };
}

/**
 * Written beside, then linked into place: a reader never sees half a checkpoint, and none is overwritten (a link to a
 * name that exists fails, where a rename would replace it), unless by the very same bytes.
 */
async function writeLocal(folder: string, name: string, body: Buffer) {
  await mkdir(folder, { recursive: true, mode: 0o750 });
  const partial = path.join(folder, `.${name}.${randomUUID()}.partial`);
  try {
    await writeFile(partial, body, { flag: 'wx', mode: 0o640 });
    await link(partial, path.join(folder, name)).catch(async (err: NodeJS.ErrnoException) => {
      // Two requests in the same millisecond take the same checkpoint: the same bytes under the same name are fine.
      if (err.code !== 'EEXIST' || !(await readFile(path.join(folder, name))).equals(body)) throw err;
    });
  } finally {
    await rm(partial, { force: true });
  }
}

async function writeS3(client: S3Client, bucket: string, name: string, body: Buffer) {
  await client.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: `${AUDIT_CHECKPOINTS}/${name}`,
      Body: body,
      ContentType: 'application/json',
      // A bucket with Object Lock (WORM, the way to keep checkpoints beyond anyone's reach) demands an MD5 or a checksum.
      ContentMD5: createHash('md5').update(body).digest('base64'),
    }),
  );
}

/** Every checkpoint in the bucket, read eight at a time (two a night add up over the years). */
async function listS3(client: S3Client, bucket: string): Promise<StoredCheckpoint[]> {
  const names: string[] = [];
  for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: `${AUDIT_CHECKPOINTS}/` })) {
    for (const object of page.Contents ?? []) {
      const name = (object.Key ?? '').slice(AUDIT_CHECKPOINTS.length + 1);
      if (AUDIT_CHECKPOINT_NAME.test(name)) names.push(name);
    }
  }
  const limit = pLimit(8);
  const found = await Promise.all(
    names.map((name) =>
      limit(async (): Promise<StoredCheckpoint> => {
        const res = await client.send(new GetObjectCommand({ Bucket: bucket, Key: `${AUDIT_CHECKPOINTS}/${name}` }));
        return { name, place: 's3', body: Buffer.from((await res.Body?.transformToByteArray()) ?? []) };
      }),
    ),
  );
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Where the chain stands now, read in one statement (one snapshot): the head's last link and hash, how many rows the
 * table holds and the first still present, and the database's clock. `purgedThrough`: a purge's boundary.
 */
export async function takeCheckpoint(
  db: Db,
  reason: AuditCheckpointReason,
  purgedThrough: AuditCheckpointJson['purgedThrough'] = null,
): Promise<AuditCheckpointJson> {
  const { rows } = await db.execute<{ seq: string; hash: string; count: string; first: string | null; at: Date }>(sql`
    select h.seq::text as seq, h.hash, (select count(*) from audit_events)::text as count,
      (select min(seq) from audit_events)::text as first,
      date_trunc('milliseconds', clock_timestamp()) as at
    from audit_chain_head h where h.one = 1`);
  const row = rows[0]!;
  return {
    format: AUDIT_CHECKPOINT_FORMAT,
    version: 1,
    seq: Number(row.seq),
    hash: row.seq === '0' ? GENESIS_HASH : row.hash,
    count: Number(row.count),
    firstSeq: row.first === null ? null : Number(row.first),
    takenAt: new Date(row.at).toISOString(),
    reason,
    purgedThrough,
  };
}

/**
 * Takes a checkpoint and writes it to every place (`store`), then records it as an `audit_checkpoint` event by `who`
 * (the admin who asked; nobody for the nightly job and the command). A place that cannot be written is recorded as a
 * failed `audit_checkpoint` and refused with 503 `audit.checkpoint_unavailable` (the places it reached keep their
 * copy, a valid checkpoint).
 */
export async function writeCheckpoint(
  db: Db,
  store: CheckpointStore,
  opts: { reason: AuditCheckpointReason; who: AuditWho; purgedThrough?: AuditCheckpointJson['purgedThrough'] },
): Promise<AuditCheckpointWrittenJson> {
  const checkpoint = await takeCheckpoint(db, opts.reason, opts.purgedThrough ?? null);
  const name = checkpointName(checkpoint);
  const { format: _format, version: _version, ...facts } = checkpoint;
  const event = (outcome: 'success' | 'failure', extra: Record<string, unknown>) =>
    recordAudit(db, opts.who, {
      action: 'audit_checkpoint',
      object: { type: 'audit_checkpoint', id: name, label: `seq ${checkpoint.seq}` },
      outcome,
      details: { ...facts, places: store.places, ...extra },
    });
  try {
    await store.write(name, checkpointBytes(checkpoint));
  } catch (err) {
    await event('failure', { error: (err as Error).message }).catch(() => {});
    throw Object.assign(new AppError(503, 'audit.checkpoint_unavailable'), { cause: err });
  }
  await event('success', {});
  return { name, checkpoint, places: store.places };
}
