import type { DbOrTx } from './client.ts';

interface Preparable<R> {
  prepare(name: string): { execute(values?: Record<string, unknown>): Promise<R> };
}

/**
 * A hot read built once per database (or transaction) instead of on every call, and sent as a named statement, so
 * PostgreSQL parses it once per connection (building a wide select took drizzle longer than running it).
 * `build` makes the query with `sql.placeholder('name')` where a value goes; the returned function runs it with the
 * values. Use it for look-ups whose shape never changes (by id, by key); a search whose conditions vary by request,
 * or whose best plan depends on its pattern (trigram ILIKE), is built per call as before.
 */
export function prepared<R, V extends Record<string, unknown> = Record<string, unknown>>(
  name: string,
  build: (db: DbOrTx) => Preparable<R>,
): (db: DbOrTx, values: V) => Promise<R> {
  const byDb = new WeakMap<DbOrTx, ReturnType<Preparable<R>['prepare']>>();
  return (db, values) => {
    let query = byDb.get(db);
    if (!query) byDb.set(db, (query = build(db).prepare(name)));
    return query.execute(values);
  };
}
