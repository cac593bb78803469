import { type AuditCheckpointJson, auditCheckpointJson } from '#shared/schemas/audit-checkpoint.ts';

import { GENESIS_HASH } from './audit-chain.ts';
import { checkpointName, type StoredCheckpoint } from './checkpoints.ts';
import type { VerifyProblem, VerifyReport } from './verify.report.ts';

/** The checkpoint files as `npm run audit:verify` reads them (verify.ts; decisions 068, 093 and 105). */

/** What a checkpoint asserts: the hash of the link at `seq`. */
export interface Assertion {
  seq: number;
  hash: string;
  /** "checkpoint 0000…-….json", "the purge checkpoint …". */
  source: string;
  purge: boolean;
}

export const range = (from: number, to: number) => (from === to ? `row ${from} is` : `rows ${from}–${to} are`);

/** The checkpoint files, parsed and checked on their own: what they assert, and what is wrong with them. */
export function readCheckpoints(stored: StoredCheckpoint[], bucket: boolean) {
  const problems: VerifyProblem[] = [];
  const warnings: string[] = [];
  const assertions: Assertion[] = [];
  const byName = new Map<string, StoredCheckpoint[]>();
  for (const s of stored) byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
  let latest: VerifyReport['checkpoints']['latest'] = null;
  const bad = (message: string) => problems.push({ kind: 'checkpoint_invalid', seq: null, id: null, message });
  for (const [name, copies] of byName) {
    const distinct = copies.filter((c, i) => copies.findIndex((d) => d.body.equals(c.body)) === i);
    if (distinct.length > 1) {
      problems.push({
        kind: 'checkpoint_copies_differ',
        seq: null,
        id: null,
        message: `The copies of checkpoint ${name} in ${copies.map((c) => c.place).join(' and ')} differ: one of them was altered.`,
      });
    } else if (bucket && copies.every((c) => c.place === 'local')) {
      warnings.push(`Checkpoint ${name} is only in the folder, not in the bucket.`);
    }
    for (const copy of distinct) {
      const label = distinct.length > 1 ? `checkpoint ${name} (${copy.place})` : `checkpoint ${name}`;
      let checkpoint: AuditCheckpointJson;
      try {
        const parsed = auditCheckpointJson.safeParse(JSON.parse(copy.body.toString('utf8')));
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          bad(`${label} is not a checkpoint (${issue.path.join('.') || 'the file'}: ${issue.message}).`);
          continue;
        }
        checkpoint = parsed.data;
      } catch {
        bad(`${label} is not a checkpoint (not JSON).`);
        continue;
      }
      const { seq, hash, count, firstSeq, purgedThrough, takenAt } = checkpoint;
      if (checkpointName(checkpoint) !== name) {
        bad(`${label} does not hold what its name says (seq ${seq}, taken ${takenAt}).`);
        continue;
      }
      if (seq === 0 && hash !== GENESIS_HASH) {
        bad(`${label} names seq 0 with a hash other than the chain's start.`);
        continue;
      }
      // Rows are contiguous from firstSeq to seq in any snapshot of an untouched table.
      const expected = firstSeq === null ? 0 : seq - firstSeq + 1;
      if (count !== expected || (firstSeq !== null && firstSeq > seq)) {
        bad(
          `${label} counted ${count} rows from seq ${firstSeq === null ? '–' : firstSeq} to ${seq}, where there should have been ${expected}: rows were already missing when it was taken.`,
        );
      }
      if (purgedThrough && purgedThrough.seq > seq) {
        bad(`${label} records a purge through seq ${purgedThrough.seq}, past its own seq ${seq}.`);
        continue;
      }
      if (seq > 0) assertions.push({ seq, hash, source: label, purge: false });
      if (purgedThrough) {
        assertions.push({
          seq: purgedThrough.seq,
          hash: purgedThrough.hash,
          source: `the purge ${label}`,
          purge: true,
        });
      }
      if (!latest || name > latest.name) latest = { name, seq, takenAt };
    }
  }
  return {
    problems,
    warnings,
    assertions,
    latest,
    local: stored.filter((s) => s.place === 'local').length,
    s3: stored.filter((s) => s.place === 's3').length,
    distinct: byName.size,
  };
}
