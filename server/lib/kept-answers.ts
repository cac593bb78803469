import { AppError } from './errors.ts';
import type { PreparedAnswer } from './prepared-answer.ts';

interface Entry {
  stamp: string;
  answer: Promise<PreparedAnswer>;
}

/**
 * Answers kept per key under the stamp of what they were made from (a row version the request has read anyway), for
 * reads asked far more often than what they show changes (the group pages, the staff directory, who am I, a person's
 * own reads). An answer is made again when the stamp a request read differs from the kept one. Keyed by database, so
 * test apps never share entries; at most `maxEntries` keys, the least recently asked dropped first.
 *
 * One making per key and stamp (issue 34): the answer is kept from the moment its making starts, so requests for the
 * same key and stamp that come while it is being made wait for that one making instead of making it again (a person's
 * several tabs or connections opening the same screens at once, everyone's first read after a change). A failure is
 * not kept: the next request makes the answer afresh. Those who waited for a making that failed get its refusal (an
 * AppError, the key's own answer for that stamp: the same for each of them), but not another request's accident (a
 * lost connection, a cancelled statement): they make the answer once more, again one making for all of them, and
 * only a failure of that second making is theirs.
 */
export function keptAnswers(maxEntries: number) {
  const byDb = new WeakMap<object, Map<string, Entry>>();

  /** The kept (or being made) answer of this key and stamp, else a new making; `joined` when it was already there. */
  const answerOf = (db: object, key: string, stamp: string, make: () => Promise<PreparedAnswer>) => {
    let kept = byDb.get(db);
    if (!kept) byDb.set(db, (kept = new Map()));
    const hit = kept.get(key);
    kept.delete(key); // most recently asked last
    if (hit?.stamp === stamp) {
      kept.set(key, hit);
      return { answer: hit.answer, joined: true };
    }
    let answer: Promise<PreparedAnswer>;
    try {
      answer = make();
    } catch (err) {
      answer = Promise.reject(err); // a making that throws at once is a failure like any other
    }
    kept.set(key, { stamp, answer });
    if (kept.size > maxEntries) kept.delete(kept.keys().next().value!);
    // Registered before anyone awaits the answer, so a failure is gone from the map before a waiter hears of it.
    answer.catch(() => {
      if (kept.get(key)?.answer === answer) kept.delete(key);
    });
    return { answer, joined: false };
  };

  return async (
    db: object,
    key: string,
    stamp: string,
    make: () => Promise<PreparedAnswer>,
  ): Promise<PreparedAnswer> => {
    const first = answerOf(db, key, stamp, make);
    if (!first.joined) return first.answer;
    try {
      return await first.answer;
    } catch (err) {
      if (err instanceof AppError) throw err;
      return answerOf(db, key, stamp, make).answer;
    }
  };
}
