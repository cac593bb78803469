import path from 'node:path';

import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

import { projectRoot } from '../lib/project-root.ts';
import { settlesWithin } from '../lib/time-limit.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { applyOnlineMigrations, isLockTimeout, MIGRATION_LOCK_TIMEOUT_MS } from './online-migrations.ts';
import { APP_ROLE, ensureLoginRole, grantAppRole, newRolePassword, roleWarnings, urlAs } from './roles.ts';
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
 * 'error' event nobody handles, and Node would exit (decision 025). Each client gets its own listener for life:
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

/** How many times a migration whose lock did not come within MIGRATION_LOCK_TIMEOUT_MS is tried again, 2 s apart. */
const MIGRATION_LOCK_TRIES = 30;

/**
 * Applies pending migrations, Drizzle's then the online ones (decision 130); an advisory lock keeps two instances
 * starting together from both migrating. Drizzle's run in one transaction whose every lock is waited for at most
 * MIGRATION_LOCK_TIMEOUT_MS: a table's readers queue behind a waiting `alter table`, so one that cannot have its lock
 * at once (a long read holds the table) gives up within a second, letting the readers go, and is tried again.
 */
export async function migrateDatabase(
  pool: pg.Pool,
  log?: (msg: string) => void,
  folders: { drizzle: string; online?: string } = { drizzle: migrationsFolder },
): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock(727274)');
    const db = drizzle(client, { schema, casing: 'snake_case' });
    for (let attempt = 1; ; attempt++) {
      await client.query(`set lock_timeout = ${MIGRATION_LOCK_TIMEOUT_MS}`);
      try {
        await migrate(db, { migrationsFolder: folders.drizzle });
        break;
      } catch (err) {
        if (!isLockTimeout(err) && !isLockTimeout((err as { cause?: unknown }).cause)) throw err;
        if (attempt >= MIGRATION_LOCK_TRIES) throw err;
        log?.(`a migration waited over ${MIGRATION_LOCK_TIMEOUT_MS} ms for a lock; trying again (${attempt})`);
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
    }
    // An online migration's lock lets reads and writes go on: it may wait as long as it must.
    await client.query('set lock_timeout = 0');
    await applyOnlineMigrations(client, { log, folder: folders.online });
  } finally {
    await client.query('reset lock_timeout').catch(() => {});
    await client.query('select pg_advisory_unlock(727274)').catch(() => {});
    client.release();
  }
}

/**
 * Opens the database and applies pending migrations: the PostgreSQL server at `databaseUrl`, else the embedded
 * PostgreSQL that the portal runs in `dataDir` (locked to this process: a second portal on the same folder is refused).
 *
 * The roles (decision 093, roles.ts): the embedded server's superuser migrates and prepares the login role
 * `lab_portal` (a new password each start), which the pool then uses; with `databaseOwnerUrl` (DATABASE_OWNER_URL) the
 * same is done through that role for the role of `databaseUrl`. With `databaseUrl` alone the pool migrates itself, and
 * `log` is told at start if its role could switch the audit trail's triggers off.
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  /** With `databaseUrl`: a role owning the database, which migrates it and gives the pool's role what it needs. */
  databaseOwnerUrl?: string;
  dataDir?: string;
  log?: (msg: string) => void;
  onPoolError?: (err: Error) => void;
  /** Skip migrations (the caller restores or migrates itself). */
  migrate?: boolean;
  /** Sign in as the database's owner (the embedded superuser): the operator's tools (backup, restore). */
  asOwner?: boolean;
}): Promise<Database> {
  let url = opts.databaseUrl;
  let ownerUrl = opts.databaseUrl ? opts.databaseOwnerUrl : undefined;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let release: (() => void) | undefined;
  if (!url) {
    if (!opts.dataDir) throw new Error('openDatabase needs DATABASE_URL or a DATA_DIR for the embedded database.');
    release = lockDataDir(opts.dataDir);
    try {
      const embedded = await startEmbeddedPostgres(opts.dataDir, opts.log);
      url = ownerUrl = embedded.url;
      stopEmbedded = embedded.stop;
    } catch (err) {
      release();
      throw err;
    }
  }
  const stop = async () => {
    await stopEmbedded?.();
    release?.();
  };
  let pool: pg.Pool | undefined;
  try {
    if (ownerUrl) {
      const owner = createPool(ownerUrl, opts.onPoolError, 2);
      try {
        if (opts.migrate !== false) await migrateDatabase(owner, opts.log);
        if (opts.asOwner) url = ownerUrl;
        else {
          if (stopEmbedded) {
            const password = newRolePassword();
            await ensureLoginRole(owner, APP_ROLE, password);
            url = urlAs(ownerUrl, APP_ROLE, password);
          }
          const role = decodeURIComponent(new URL(url).username);
          const moved = await grantAppRole(owner, role);
          if (moved) opts.log?.(`the database role ${role} now owns the portal's tables (${moved} changed owner)`);
        }
      } finally {
        await owner.end();
      }
    }
    pool = createPool(url, opts.onPoolError);
    if (!ownerUrl && opts.migrate !== false) await migrateDatabase(pool, opts.log);
    if (!stopEmbedded && !opts.asOwner && opts.log) {
      for (const warning of await roleWarnings(pool)) opts.log(`warning: ${warning}`);
    }
  } catch (err) {
    await pool?.end().catch(() => {});
    await stop();
    throw err;
  }
  const open = pool;
  const close = async () => {
    // Connections still checked out after 5 s are ended by the database's own fast shutdown.
    await settlesWithin(open.end(), 5000);
    await stop();
  };
  return { db: drizzleOver(open), pool: open, kind: stopEmbedded ? 'embedded' : 'postgres', url, close };
}
