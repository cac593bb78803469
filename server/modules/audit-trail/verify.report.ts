/** What `npm run audit:verify` answers (verify.ts; decisions 067, 068 and 105): the report and its problems. */

export type ProblemKind =
  /** The row's fields do not give its stored hash: it was changed after it was written. */
  | 'altered'
  /** The row's prev_hash is not the previous row's hash (or, for the first row, not where the chain starts). */
  | 'broken_link'
  /** Rows are missing between two present ones. */
  | 'gap'
  /** Rows before the first present one are gone, and no purge checkpoint records their removal. */
  | 'removed_without_purge'
  /** The chain head does not name the last row. */
  | 'head_mismatch'
  /** The newest rows are gone: the chain head or a checkpoint names a seq past the last row. */
  | 'tail_cut'
  /** A row's hash is not the one a checkpoint recorded for it: the chain was rewritten. */
  | 'checkpoint_mismatch'
  /** A checkpoint file that is not one, whose name does not match it, or that contradicts itself. */
  | 'checkpoint_invalid'
  /** Two copies of one checkpoint (the folder's and the bucket's) differ. */
  | 'checkpoint_copies_differ';

export interface VerifyProblem {
  kind: ProblemKind;
  /** The row concerned (for missing rows, the first missing one); null for a problem of a checkpoint file. */
  seq: number | null;
  /** The row's id when it is present. */
  id: string | null;
  message: string;
}

export interface VerifyReport {
  ok: boolean;
  /** Rows read, and the first and last seq present (null: no row). */
  rows: number;
  firstSeq: number | null;
  lastSeq: number | null;
  head: { seq: number; hash: string };
  checkpoints: {
    /** Checkpoint files found, by place (one checkpoint in the folder and the bucket counts once in `distinct`). */
    local: number;
    s3: number;
    distinct: number;
    /** Checkpoint links compared with a row (or the first row's prev_hash, or the head). */
    checked: number;
    /** Checkpoint links older than the first row present: purged, nothing left to compare. */
    purged: number;
    /** The newest checkpoint, by seq then time. */
    latest: { name: string; seq: number; takenAt: string } | null;
  };
  /** The last link removed by retention, as the first row present links to it (null: the chain starts at seq 1). */
  purgedThrough: number | null;
  /** Every problem found, by seq (problems of checkpoint files last); at most `maxProblems`. */
  problems: VerifyProblem[];
  problemCount: number;
  /** The first bad row: the problem with the lowest seq, else the first problem. */
  firstBad: VerifyProblem | null;
  /** Things worth a look that do not break the trail (a checkpoint in one place only). */
  warnings: string[];
  ms: number;
}
