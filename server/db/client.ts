import path from 'node:path';

import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

import { projectRoot } from '../lib/project-root.ts';
import { settlesWithin } from '../lib/time-limit.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import * as schema from './schema/index.ts';

export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Services take either the database or an open transaction. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  /** The node-postgres pool behind `db` (LISTEN/NOTIFY, COPY, job queues, rate-limit stores). */
  pool: pg.Pool;
  /** `embedded`: the PostgreSQL server the portal runs in DATA_DIR; `postgres`: DATABASE_URL. */
  kind: 'embedded' | 'postgres';
  /** The connection string of the portal's database. */
  url: string;
  close: () => Promise<void>;
}

export const migrationsFolder = path.join(projectRoot, 'server', 'db', 'migrations');

/**
 * A node-postgres pool that never crashes the process on a lost connection and fails fast when down. The pool only
 * listens for errors of idle clients; a client checked out (a transaction, a LISTEN) whose server dies would emit an
 * 'error' event nobody handles, and Node would exit (issue 28 item 2). Each client gets its own listener for life:
 * its running query fails with the error (a 503), and the pool drops it when it is released.
 */
export function createPool(url: string, log: (err: Error) => void = () => {}, max = 20): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30_000 });
  pool.on('error', log); // an idle client lost its connection: the pool replaces it on the next checkout
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** Drizzle over a pool of the portal's database (an operator's tool opens its own pool: operator.ts). */
export const drizzleOver = (pool: pg.Pool): Db => drizzle(pool, { schema, casing: 'snake_case' }) as unknown as Db;

/** Applies pending migrations; an advisory lock keeps two instances starting together from both migrating. */
export async function migrateDatabase(pool: pg.Pool): Promise<void> {
  const db = drizzle(pool, { schema, casing: 'snake_case' });
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock(727274)');
    await migrate(db, { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock(727274)').catch(() => {});
    client.release();
  }
}

/**
 * Opens the database and applies pending migrations: the PostgreSQL server at `databaseUrl`, else the embedded
 * PostgreSQL that the portal runs in `dataDir` (locked to this process: a second portal on the same folder is refused).
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir?: string;
  log?: (msg: string) => void;
  onPoolError?: (err: Error) => void;
  /** Skip migrations (the caller restores or migrates itself). */
  migrate?: boolean;
}): Promise<Database> {
  let url = opts.databaseUrl;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let release: (() => void) | undefined;
  if (!url) {
    if (!opts.dataDir) throw new Error('openDatabase needs DATABASE_URL or a DATA_DIR for the embedded database.');
    release = lockDataDir(opts.dataDir);
    try {
      const embedded = await startEmbeddedPostgres(opts.dataDir, opts.log);
      url = embedded.url;
      stopEmbedded = embedded.stop;
    } catch (err) {
      release();
      throw err;
    }
  }
  const pool = createPool(url, opts.onPoolError);
  const close = async () => {
    // Connections still checked out after 5 s are ended by the database's own fast shutdown.
    await settlesWithin(pool.end(), 5000);
    await stopEmbedded?.();
    release?.();
  };
  try {
    if (opts.migrate !== false) await migrateDatabase(pool);
  } catch (err) {
    await close();
    throw err;
  }
  return { db: drizzleOver(pool), pool, kind: stopEmbedded ? 'embedded' : 'postgres', url, close };
}
