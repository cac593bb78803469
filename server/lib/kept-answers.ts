import type { PreparedAnswer } from './prepared-answer.ts';

interface Entry {
  stamp: string;
  answer: Promise<PreparedAnswer>;
}

/**
 * Answers kept per key under the stamp of what they were made from (a row version the request has read anyway), for
 * reads asked far more often than what they show changes (the group pages, the staff directory, who am I). An answer
 * is made again when the stamp a request read differs from the kept one; a failure is not kept. Keyed by database, so
 * test apps never share entries; at most `maxEntries` keys, the least recently asked dropped first.
 */
export function keptAnswers(maxEntries: number) {
  const byDb = new WeakMap<object, Map<string, Entry>>();
  return (db: object, key: string, stamp: string, make: () => Promise<PreparedAnswer>): Promise<PreparedAnswer> => {
    let kept = byDb.get(db);
    if (!kept) byDb.set(db, (kept = new Map()));
    const hit = kept.get(key);
    kept.delete(key); // most recently asked last
    if (hit?.stamp === stamp) {
      kept.set(key, hit);
      return hit.answer;
    }
    const answer = make();
    kept.set(key, { stamp, answer });
    if (kept.size > maxEntries) kept.delete(kept.keys().next().value!);
    answer.catch(() => {
      if (kept.get(key)?.answer === answer) kept.delete(key);
    });
    return answer;
  };
}
