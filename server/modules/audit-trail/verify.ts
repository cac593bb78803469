import { StringDecoder } from 'node:string_decoder';

import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';

import { chainHash, type ChainRow, GENESIS_HASH } from './audit-chain.ts';
import type { StoredCheckpoint } from './checkpoints.ts';
import { type Assertion, range, readCheckpoints } from './verify.checkpoints.ts';
import { canonicalTime, COLUMNS, copyField } from './verify.copy.ts';
import type { VerifyProblem, VerifyReport } from './verify.report.ts';

export type { ProblemKind, VerifyProblem, VerifyReport } from './verify.report.ts';

/**
 * `npm run audit:verify` (decisions 067 and 068): reads the audit trail in chain order and checks, with the
 * portal's own code and never the database's functions, that
 * - every row's fields give its hash (`chainHash`, the canonical form of decision 067): a row edited after it was
 *   written fails here, and is named;
 * - every row's `prev_hash` is the hash of the row before it, and the seqs run without a gap;
 * - the first row present links to the start of the chain (64 zeros), or to the last link a retention purge removed,
 *   as that purge's checkpoint recorded it: rows removed any other way show;
 * - the chain head (`audit_chain_head`) is the last row;
 * - every checkpoint found (DATA_DIR/audit-checkpoints, the bucket) agrees: the row at its seq still has its hash
 *   (else the chain was rewritten, however consistently), and no checkpoint names a seq past the last row (else the
 *   newest rows were cut off).
 * The rows come in one COPY, streamed, in one REPEATABLE READ snapshot, so the portal keeps writing meanwhile.
 */

export interface VerifyOptions {
  /** Every checkpoint file in every place (checkpointStore(config).list()); asked again once if a purge ran meanwhile. */
  checkpoints: () => Promise<StoredCheckpoint[]>;
  /**
   * The checkpoints have a copy in the bucket (STORAGE=s3): one only in the folder is a warning (the bucket could not
   * be written that night, or the file was put there by hand). One only in the bucket is not: with a DATA_DIR per node,
   * each node's folder holds only the checkpoints it wrote.
   */
  bucket?: boolean;
  /** How many rows between two `onProgress` calls (default 100,000). */
  progressEvery?: number;
  /** Problems kept in the report (default 100; all are counted). */
  maxProblems?: number;
  /** Told every `progressEvery` rows: rows read so far and the last seq. */
  onProgress?: (rows: number, lastSeq: number) => void;
}

/** Checks the audit trail of the database at `pool` against its checkpoints (see above). Never writes. */
export async function verifyAuditTrail(pool: pg.Pool, opts: VerifyOptions): Promise<VerifyReport> {
  const started = Date.now();
  const progressEvery = opts.progressEvery ?? 100_000;
  const maxProblems = opts.maxProblems ?? 100;
  // The checkpoints first: each was taken from a snapshot older than the one read below, so none can be ahead of it.
  const bucket = opts.bucket ?? false;
  const files = readCheckpoints(await opts.checkpoints(), bucket);
  const problems: VerifyProblem[] = [...files.problems];
  let problemCount = problems.length;
  const problem = (p: VerifyProblem) => {
    problemCount++;
    if (problems.length < maxProblems) problems.push(p);
  };
  const at = new Map<number, Assertion[]>();
  for (const a of files.assertions) at.set(a.seq, [...(at.get(a.seq) ?? []), a]);
  let checked = 0;
  /** The highest seq a checkpoint confirmed before the first one that did not: where a rewrite starts after. */
  let confirmed: { seq: number; source: string } | null = null;
  let rewriteFound = false;
  /** Compares what checkpoints say of link `seq` with its hash here; `row` names it in a problem. */
  const compare = (seq: number, hash: string, row: { seq: number; id: string | null }, what: string) => {
    for (const a of at.get(seq) ?? []) {
      checked++;
      if (a.hash === hash) {
        if (!rewriteFound && (!confirmed || seq > confirmed.seq)) confirmed = { seq, source: a.source };
        continue;
      }
      const after =
        rewriteFound || !confirmed ? '' : `, after seq ${confirmed.seq}, which ${confirmed.source} confirms`;
      rewriteFound = true;
      problem({
        kind: 'checkpoint_mismatch',
        ...row,
        message: `${what} is not the one ${a.source} recorded (${a.hash.slice(0, 12)}…, here ${hash.slice(0, 12)}…): the chain was rewritten at or before seq ${seq}${after}.`,
      });
    }
  };

  const client = await pool.connect();
  let rows = 0;
  let first: { seq: number; id: string; prevHash: string } | null = null;
  let last: { seq: number; id: string; hash: string } | null = null;
  let head: { seq: number; hash: string };
  try {
    await client.query('begin isolation level repeatable read read only');
    await client.query(`set local timezone to 'UTC'`);
    await client.query(`set local datestyle to 'ISO, YMD'`);
    // The rows in the primary key's order, as they lie on disk: never a sort of the whole table.
    await client.query('set local enable_sort = off');
    const headRow = await client.query<{ seq: string; hash: string }>(
      'select seq::text as seq, hash from audit_chain_head where one = 1',
    );
    head = headRow.rows[0]
      ? { seq: Number(headRow.rows[0].seq), hash: headRow.rows[0].hash }
      : { seq: 0, hash: GENESIS_HASH };
    // One COPY of the rows in seq order, streamed (pg-copy-streams pauses the socket while a chunk is checked): far
    // less work on both sides than a result set read in keyset batches (decision 068).
    const copy = client.query(
      copyTo(`copy (select ${COLUMNS.join(', ')} from audit_events order by seq) to stdout`),
    ) as unknown as AsyncIterable<Buffer>;
    const decoder = new StringDecoder('utf8');
    let rest = '';
    const take = (line: string) => {
      const f = line.split('\t');
      if (f.length !== COLUMNS.length)
        throw new Error(`COPY gave a line of ${f.length} fields, not ${COLUMNS.length}.`);
      const row: ChainRow = {
        seq: f[0]!,
        id: f[1]!,
        occurredAt: canonicalTime(f[2]!),
        actorId: copyField(f[3]!),
        actorName: copyField(f[4]!),
        actorRole: copyField(f[5]!),
        clientAddress: copyField(f[6]!),
        userAgent: copyField(f[7]!),
        action: copyField(f[8]!)!,
        objectType: copyField(f[9]!),
        objectId: copyField(f[10]!),
        objectLabel: copyField(f[11]!),
        classification: copyField(f[12]!),
        outcome: copyField(f[13]!)!,
        details: copyField(f[14]!),
      };
      const prevHash = copyField(f[15]!)!;
      const hash = copyField(f[16]!)!;
      const seq = Number(row.seq);
      const here = { seq, id: row.id };
      if (!first) {
        first = { seq, id: row.id, prevHash };
      } else if (seq !== last!.seq + 1) {
        problem({
          kind: 'gap',
          seq: last!.seq + 1,
          id: null,
          message: `${range(last!.seq + 1, seq - 1)} missing, between seq ${last!.seq} and seq ${seq} (id ${row.id}): deleted.`,
        });
      } else if (prevHash !== last!.hash) {
        problem({
          kind: 'broken_link',
          ...here,
          message: `its prev_hash is not the hash of seq ${last!.seq}: this row or the one before it was rewritten.`,
        });
      }
      if (chainHash(prevHash, row) !== hash) {
        problem({
          kind: 'altered',
          ...here,
          message: 'its fields do not give its hash: the row was changed after it was written.',
        });
      }
      if (at.has(seq)) compare(seq, hash, here, `the hash of seq ${seq}`);
      last = { seq, id: row.id, hash };
      if (++rows % progressEvery === 0) opts.onProgress?.(rows, seq);
    };
    for await (const chunk of copy) {
      const text = rest + decoder.write(chunk);
      let from = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', from)) {
        take(text.slice(from, end));
        from = end + 1;
      }
      rest = text.slice(from);
    }
    rest += decoder.end();
    if (rest) throw new Error('COPY ended in the middle of a line.');
    await client.query('commit');
  } catch (err) {
    // A COPY cut short leaves the connection mid-protocol: it is closed, not returned to the pool.
    client.release(err as Error);
    throw err;
  }
  client.release();

  // Where the chain starts here: seq 1 from the start, or after the last link a purge removed.
  const start = first as { seq: number; id: string; prevHash: string } | null;
  const end = last as { seq: number; id: string; hash: string } | null;
  /** The last link before the first row present, and its hash as this database knows it. */
  const boundary = start
    ? { seq: start.seq - 1, hash: start.prevHash, row: { seq: start.seq, id: start.id } }
    : { seq: head.seq, hash: head.hash, row: { seq: head.seq + 1, id: null } };
  if (boundary.seq === 0) {
    if (boundary.hash !== GENESIS_HASH) {
      problem({
        kind: 'broken_link',
        ...boundary.row,
        message: 'it is the first link of the chain, but its prev_hash is not the 64 zeros the chain starts from.',
      });
    }
  } else {
    const purgeAt = (assertions: Assertion[]) => assertions.find((a) => a.purge && a.seq === boundary.seq);
    let purge = purgeAt(files.assertions);
    let purges = files.assertions;
    if (!purge) {
      // A purge may have run since the checkpoints were read: its checkpoint is there now (only its purge boundary is
      // taken from this second reading; checkpoints newer than the snapshot would be ahead of it).
      purges = readCheckpoints(await opts.checkpoints(), bucket).assertions;
      purge = purgeAt(purges);
      if (purge) at.set(purge.seq, [...(at.get(purge.seq) ?? []), purge]);
    }
    if (!purge) {
      const earlier = purges.filter((a) => a.purge && a.seq < boundary.seq).map((a) => a.seq);
      const from = earlier.length ? Math.max(...earlier) + 1 : 1;
      const present = start ? `the first row present is seq ${start.seq} (id ${start.id})` : 'no row is present';
      problem({
        kind: 'removed_without_purge',
        seq: from,
        id: null,
        message: `${range(from, boundary.seq)} gone before the first row, and no purge checkpoint records their removal (${present}${earlier.length ? `; the last recorded purge went through seq ${from - 1}` : ''}).`,
      });
    }
  }
  compare(boundary.seq, boundary.hash, boundary.row, `the hash of seq ${boundary.seq} (the first row's prev_hash)`);

  // The head names the last row.
  const endSeq = end ? end.seq : head.seq;
  if (end && head.seq > end.seq) {
    problem({
      kind: 'tail_cut',
      seq: end.seq + 1,
      id: null,
      message: `${range(end.seq + 1, head.seq)} missing: the chain head names seq ${head.seq}, the last row is seq ${end.seq}. The newest rows were deleted.`,
    });
  } else if (end && (head.seq !== end.seq || head.hash !== end.hash)) {
    problem({
      kind: 'head_mismatch',
      seq: end.seq,
      id: end.id,
      message: `the chain head (seq ${head.seq}, ${head.hash.slice(0, 12)}…) is not the last row (${end.hash.slice(0, 12)}…).`,
    });
  }
  // No checkpoint may be ahead of the last row.
  const ahead = files.assertions.filter((a) => a.seq > endSeq).sort((a, b) => b.seq - a.seq);
  if (ahead.length) {
    const far = ahead[0]!;
    problem({
      kind: 'tail_cut',
      seq: endSeq + 1,
      id: null,
      message: `${range(endSeq + 1, far.seq)} missing: ${far.source} names seq ${far.seq}, but the trail ends at seq ${endSeq}${ahead.length > 1 ? ` (${ahead.length} checkpoint links are past it)` : ''}. The newest rows were deleted.`,
    });
    checked += ahead.length;
  }
  const purged = files.assertions.filter((a) => a.seq < boundary.seq).length;

  const sorted = [...problems].sort((a, b) => (a.seq ?? Infinity) - (b.seq ?? Infinity));
  return {
    ok: problemCount === 0,
    rows,
    firstSeq: start?.seq ?? null,
    lastSeq: end?.seq ?? null,
    head,
    checkpoints: {
      local: files.local,
      s3: files.s3,
      distinct: files.distinct,
      checked,
      purged,
      latest: files.latest,
    },
    purgedThrough: boundary.seq > 0 ? boundary.seq : null,
    problems: sorted,
    problemCount,
    firstBad: sorted.find((p) => p.seq !== null) ?? sorted[0] ?? null,
    warnings: files.warnings,
    ms: Date.now() - started,
  };
}
