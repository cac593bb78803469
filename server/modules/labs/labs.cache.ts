import type { DbOrTx } from '#server/db/client.ts';

/**
 * NOTE: the lab home is public and read on every visit, while lab information changes a few times a week. Its two
 * reads (GET /api/labs/{id} and /documents) are kept in memory for a short while (decision 010): a write through this
 * process clears them at once; another instance of the portal on the same PostgreSQL sees a change within
 * READ_CACHE_MS. Keyed by database, so test apps (one database each) never share entries.
 */
export const READ_CACHE_MS = 10_000;

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
  if (hit && hit.expires > now) return hit.value as Promise<T>;
  const value = load();
  cache.set(key, { expires: now + READ_CACHE_MS, value });
  value.catch(() => cache.delete(key)); // a failure is not remembered
  return value;
}

/** Forgets every cached lab read of this database: call after a lab write has committed. */
export function labChanged(db: DbOrTx): void {
  caches.get(db)?.clear();
}
