import { AppError } from './errors.ts';
import type { PreparedAnswer } from './prepared-answer.ts';

interface Entry {
  version: string;
  answer: Promise<PreparedAnswer>;
}

/**
 * Answers kept per key under the version of what they were made from (a row version the request has read anyway), for
 * reads asked far more often than what they show changes (the group pages, the staff directory, who am I, a person's
 * own reads). An answer is made again when the version a request read differs from the kept one. Keyed by database, so
 * test apps never share entries; at most `maxEntries` keys, the least recently asked dropped first.
 *
 * One making per key and version (decision 089): the answer is kept from the moment its making starts, so requests for the
 * same key and version that come while it is being made wait for that one making instead of making it again (a person's
 * several tabs or connections opening the same screens at once, everyone's first read after a change). A failure is
 * not kept: the next request makes the answer afresh. Those who waited for a making that failed get its refusal (an
 * AppError, the key's own answer for that version: the same for each of them), but not another request's accident (a
 * lost connection, a cancelled statement): they make the answer once more, again one making for all of them, and
 * only a failure of that second making is theirs.
 */
export function answerCache(maxEntries: number) {
  const byDb = new WeakMap<object, Map<string, Entry>>();

  /** The kept (or being made) answer of this key and version, else a new making; `joined` when it was already there. */
  const answerOf = (db: object, key: string, version: string, make: () => Promise<PreparedAnswer>) => {
    let cache = byDb.get(db);
    if (!cache) byDb.set(db, (cache = new Map()));
    const hit = cache.get(key);
    cache.delete(key); // most recently asked last
    if (hit?.version === version) {
      cache.set(key, hit);
      return { answer: hit.answer, joined: true };
    }
    let answer: Promise<PreparedAnswer>;
    try {
      answer = make();
    } catch (err) {
      answer = Promise.reject(err); // a making that throws at once is a failure like any other
    }
    cache.set(key, { version, answer });
    if (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
    // Registered before anyone awaits the answer, so a failure is gone from the map before a waiter hears of it.
    answer.catch(() => {
      if (cache.get(key)?.answer === answer) cache.delete(key);
    });
    return { answer, joined: false };
  };

  return async (
    db: object,
    key: string,
    version: string,
    make: () => Promise<PreparedAnswer>,
  ): Promise<PreparedAnswer> => {
    const first = answerOf(db, key, version, make);
    if (!first.joined) return first.answer;
    try {
      return await first.answer;
    } catch (err) {
      if (err instanceof AppError) throw err;
      return answerOf(db, key, version, make).answer;
    }
  };
}
