import { announceChange, type ChangeFeed } from '#server/db/change-feed.ts';
import type { Db, DbOrTx, Tx } from '#server/db/client.ts';

/**
 * NOTE: the lab home is public and read on every visit, while lab information changes a few times a week. Its two
 * reads (GET /api/labs/{id} and /documents) are kept in memory for a short while (decision 010). A lab write
 * (`labWrite`) clears this process's entries after its commit and sends a NOTIFY in its transaction, which every other
 * node on the same PostgreSQL receives at the commit and answers by clearing its own (decision 052). If a node's
 * LISTEN connection is down, its entries still expire after READ_CACHE_MS: stale for seconds, never for long. Keyed by
 * database, so test apps (one database each) never share entries.
 */
export const READ_CACHE_MS = 10_000;

/** The change-feed topic of lab information. */
export const LAB_TOPIC = 'labs';

/**
 * At most this many keys per database (decision 129): the keys carry a lab id and a page (`photos:<id>:<skip>:<limit>`),
 * so a visitor asking page after page must not grow the process's memory; past it the least recently asked go first.
 */
const MAX_KEYS = 1000;
interface Entry {
  expires: number;
  value: Promise<unknown>;
}
const caches = new WeakMap<object, Map<string, Entry>>();

/** The answer for `key`, loaded once and shared by concurrent callers until it expires or the lab changes. */
export function cachedRead<T>(db: DbOrTx, key: string, load: () => Promise<T>): Promise<T> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const now = Date.now();
  const hit = cache.get(key);
  cache.delete(key); // most recently asked last
  if (hit && hit.expires > now) {
    cache.set(key, hit);
    return hit.value as Promise<T>;
  }
  const entry = { expires: now + READ_CACHE_MS, value: load() };
  cache.set(key, entry);
  if (cache.size > MAX_KEYS) cache.delete(cache.keys().next().value!);
  const kept = cache;
  entry.value.catch(() => kept.get(key) === entry && kept.delete(key)); // a failure is not remembered
  return entry.value as Promise<T>;
}

/** Forgets every cached lab read of this database in this process. */
export function labChanged(db: DbOrTx): void {
  caches.get(db)?.clear();
}

/**
 * Runs a lab write in a transaction that also tells every node to forget its cached lab reads (NOTIFY, delivered at
 * commit); this node forgets them as soon as the commit returns. Callers are the lab services.
 */
export async function labWrite<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await db.transaction(async (tx) => {
    const value = await work(tx);
    await announceChange(tx, LAB_TOPIC);
    return value;
  });
  labChanged(db);
  return result;
}

/** Clears this node's lab reads whenever another node changes a lab (and when the feed reconnects). */
export function watchLabChanges(feed: ChangeFeed, db: DbOrTx): void {
  feed.subscribe(LAB_TOPIC, () => labChanged(db));
}
