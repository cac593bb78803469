import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

import type pg from 'pg';

import { projectRoot } from '../lib/project-root.ts';

/**
 * Online migrations (decision 130): the changes to large tables that must not stop their readers and writers, which
 * PostgreSQL makes only outside a transaction — `create index concurrently`, `drop index concurrently`, `alter table
 * … validate constraint` (whose lock lets reads and writes go on). Drizzle's migrations run in one transaction, so these
 * are files of their own, `server/db/online-migrations/NNNN_name.sql`, each ONE statement, applied in name order after
 * Drizzle's, each once (recorded in `drizzle.online_migrations`, beside Drizzle's own record).
 *
 * An index build that failed or was stopped half-way leaves an invalid index of that name, which `create index
 * concurrently if not exists` would take as done: it is dropped first (concurrently) and built again.
 */
export const onlineMigrationsFolder = path.join(projectRoot, 'server', 'db', 'online-migrations');

/** Every lock a migration statement waits for, at most this long: readers queue behind a waiting lock (decision 130). */
export const MIGRATION_LOCK_TIMEOUT_MS = 800;

const NAME = /^\d{4}_[a-z0-9_]+\.sql$/;
/** The index a `create index concurrently [if not exists] name` statement builds. */
const INDEX_BUILT = /create\s+(?:unique\s+)?index\s+concurrently\s+(?:if\s+not\s+exists\s+)?("?[a-z0-9_]+"?)/i;

/** Applies the online migrations not yet applied, on `client` (which holds the migrations' advisory lock). */
export async function applyOnlineMigrations(
  client: pg.PoolClient | pg.Client,
  { folder = onlineMigrationsFolder, log }: { folder?: string | undefined; log?: (msg: string) => void } = {},
): Promise<string[]> {
  const names = (await readdir(folder).catch(() => [] as string[])).filter((n) => NAME.test(n)).sort();
  if (!names.length) return [];
  await client.query('create schema if not exists drizzle');
  await client.query(
    'create table if not exists drizzle.online_migrations (name text primary key, applied_at timestamptz not null default now())',
  );
  const { rows } = await client.query<{ name: string }>('select name from drizzle.online_migrations');
  const done = new Set(rows.map((r) => r.name));
  const applied: string[] = [];
  for (const name of names) {
    if (done.has(name)) continue;
    const statement = (await readFile(path.join(folder, name), 'utf8')).trim().replace(/;\s*$/, '');
    const index = INDEX_BUILT.exec(statement)?.[1];
    if (index) {
      const { rows: invalid } = await client.query(
        `select 1 from pg_index i join pg_class c on c.oid = i.indexrelid
          where c.relname = $1 and c.relnamespace = current_schema()::regnamespace and not i.indisvalid`,
        [index.replaceAll('"', '')],
      );
      if (invalid.length) await client.query(`drop index concurrently if exists ${index}`);
    }
    const started = Date.now();
    await client.query(statement);
    await client.query('insert into drizzle.online_migrations (name) values ($1)', [name]);
    log?.(`online migration ${name} applied in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    applied.push(name);
  }
  return applied;
}

/** PostgreSQL's "lock not available" (a statement's lock_timeout ran out). */
export const isLockTimeout = (err: unknown) => (err as { code?: string }).code === '55P03';
