import type { DbOrTx } from '#server/db/client.ts';
import type { PreparedAnswer } from '#server/lib/prepared-answer.ts';

/**
 * NOTE: the staff directory's search is one of the most asked reads of a signed-in morning, and what it lists changes a
 * few times a week. Its answers are kept under the directory's version (migration 0019: moved on by the database, in
 * the writing transaction, whenever anything a card shows or a search filters on changes), which every signed-in
 * request reads with its session check, so a write is seen by the very next search on every node: no notice, no
 * expiry, nothing stale. The answer does not depend on who asks (every signed-in member of staff sees the same
 * directory). Keyed by database, so test apps never share entries; at most MAX_ANSWERS searches of the current version
 * are kept, the least recently asked dropped first, and a new version drops them all.
 *
 * A request that read an older version than the one kept (it started before a write another request already saw)
 * makes its answer without keeping it: an answer is only kept under a version read before its rows were.
 */
const MAX_ANSWERS = 500;

interface Kept {
  version: bigint;
  answers: Map<string, Promise<PreparedAnswer>>;
}
const kept = new WeakMap<object, Kept>();

export function directoryAnswer(
  db: DbOrTx,
  version: bigint,
  key: string,
  make: () => Promise<PreparedAnswer>,
): Promise<PreparedAnswer> {
  let current = kept.get(db);
  if (!current || current.version < version) kept.set(db, (current = { version, answers: new Map() }));
  if (current.version !== version) return make();
  const { answers } = current;
  const hit = answers.get(key);
  if (hit) {
    answers.delete(key); // most recently asked last
    answers.set(key, hit);
    return hit;
  }
  const answer = make();
  answers.set(key, answer);
  if (answers.size > MAX_ANSWERS) answers.delete(answers.keys().next().value!);
  // A failure is not remembered.
  answer.catch(() => {
    if (answers.get(key) === answer) answers.delete(key);
  });
  return answer;
}
