import { AppError } from './errors.ts';
import type { PreparedAnswer } from './prepared-answer.ts';

interface Entry {
  version: string;
  answer: Promise<PreparedAnswer>;
  /** What it counts against the cache's byte limit (see answerCache). */
  bytes: number;
}

/** One database's kept answers, least recently asked first, and their counted bytes. */
interface Kept {
  entries: Map<string, Entry>;
  bytes: number;
}

/** Every answer cache of this process by name, with its limits and what it holds now (cacheFigures). */
const caches = new Map<
  string,
  { limits: { entries: number; bytes: number }; totals: { entries: number; bytes: number } }
>();

/** What each answer cache holds now in this process (all databases): entries and counted bytes, with its limits. */
export function cacheFigures(): Record<
  string,
  { entries: number; bytes: number; maxEntries: number; maxBytes: number }
> {
  return Object.fromEntries(
    [...caches].map(([name, { limits, totals }]) => [
      name,
      { entries: totals.entries, bytes: totals.bytes, maxEntries: limits.entries, maxBytes: limits.bytes },
    ]),
  );
}

/**
 * Answers kept per key under the version of what they were made from (a row version the request has read anyway), for
 * reads asked far more often than what they show changes (the group pages, the staff directory, who am I, a person's
 * own reads). An answer is made again when the version a request read differs from the kept one. Keyed by database, so
 * test apps never share entries. Bounded in keys and in bytes (decision 129): past either limit the least recently
 * asked answers are dropped first. An answer's bytes are counted as its key, its version and twice its body
 * (the body, and room for its compressed form, made on first demand: JSON compresses to well under its size).
 *
 * One making per key and version (decision 089): the answer is kept from the moment its making starts, so requests for the
 * same key and version that come while it is being made wait for that one making instead of making it again (a person's
 * several tabs or connections opening the same screens at once, everyone's first read after a change). A failure is
 * not kept: the next request makes the answer afresh. Those who waited for a making that failed get its refusal (an
 * AppError, the key's own answer for that version: the same for each of them), but not another request's accident (a
 * lost connection, a cancelled statement): they make the answer once more, again one making for all of them, and
 * only a failure of that second making is theirs.
 */
export function answerCache(name: string, limits: { entries: number; bytes: number }) {
  const byDb = new WeakMap<object, Kept>();
  /** Every database's entries and bytes in this process, for the runtime figures (cacheFigures). */
  const totals = { entries: 0, bytes: 0 };
  caches.set(name, { limits, totals });

  const drop = (kept: Kept, key: string) => {
    const entry = kept.entries.get(key);
    if (!entry) return;
    kept.entries.delete(key);
    kept.bytes -= entry.bytes;
    totals.entries -= 1;
    totals.bytes -= entry.bytes;
  };
  const keep = (kept: Kept, key: string, entry: Entry) => {
    kept.entries.set(key, entry);
    kept.bytes += entry.bytes;
    totals.entries += 1;
    totals.bytes += entry.bytes;
  };
  const grow = (kept: Kept, entry: Entry, bytes: number) => {
    entry.bytes += bytes;
    kept.bytes += bytes;
    totals.bytes += bytes;
  };
  /** Drops the least recently asked answers until within both limits (the newest is kept, however large). */
  const evict = (kept: Kept) => {
    while (kept.entries.size > limits.entries || (kept.entries.size > 1 && kept.bytes > limits.bytes)) {
      drop(kept, kept.entries.keys().next().value!);
    }
  };

  /** The kept (or being made) answer of this key and version, else a new making; `joined` when it was already there. */
  const answerOf = (db: object, key: string, version: string, make: () => Promise<PreparedAnswer>) => {
    let kept = byDb.get(db);
    if (!kept) byDb.set(db, (kept = { entries: new Map(), bytes: 0 }));
    const hit = kept.entries.get(key);
    drop(kept, key); // most recently asked last
    if (hit?.version === version) {
      keep(kept, key, hit);
      return { answer: hit.answer, joined: true };
    }
    let answer: Promise<PreparedAnswer>;
    try {
      answer = make();
    } catch (err) {
      answer = Promise.reject(err); // a making that throws at once is a failure like any other
    }
    const entry: Entry = { version, answer, bytes: 2 * key.length + 2 * version.length };
    keep(kept, key, entry);
    evict(kept);
    const cache = kept;
    // Registered before anyone awaits the answer, so a failure is gone from the map before a waiter hears of it.
    answer.then(
      (made) => {
        if (cache.entries.get(key) !== entry) return; // dropped or replaced meanwhile
        grow(cache, entry, 2 * made.body.length);
        evict(cache);
      },
      () => {
        if (cache.entries.get(key) === entry) drop(cache, key);
      },
    );
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
