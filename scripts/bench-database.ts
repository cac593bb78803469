// The database a bench seeds: the embedded PostgreSQL in a temporary folder, or (DATABASE_URL) a new database on that
// server; with `keep`, a folder or database of that name made once and reused on the next run.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { type Database, openDatabase } from '#server/db/client.ts';

export interface BenchDatabase {
  database: Database;
  /** A kept database that already held the seed. */
  reused?: boolean;
  cleanup: () => Promise<void>;
}

/** `asOwner`: the embedded database as its superuser, for a bench that seeds the audit trail around its triggers. */
export async function openBenchDatabase(
  bench: string,
  keep?: string,
  { asOwner = false } = {},
): Promise<BenchDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url && keep) {
    const dir = path.join(os.tmpdir(), `lp-bench-${bench}-${keep}`);
    const reused = existsSync(dir);
    mkdirSync(dir, { recursive: true });
    const database = await openDatabase({ dataDir: dir, asOwner });
    return { database, reused, cleanup: () => database.close() };
  }
  if (!url) {
    const dir = mkdtempSync(path.join(os.tmpdir(), `lp-bench-${bench}-`));
    const database = await openDatabase({ dataDir: dir, asOwner });
    return { database, cleanup: async () => (await database.close(), rmSync(dir, { recursive: true, force: true })) };
  }
  const { default: pg } = await import('pg');
  const name = keep ?? `lp_bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const reused = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (!reused) await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: target.toString() });
  return {
    database,
    reused,
    cleanup: async () => {
      await database.close();
      if (keep) return;
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
