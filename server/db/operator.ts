import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import type pg from 'pg';

import type { Config } from '#server/config.ts';

import { createPool, openDatabase } from './client.ts';
import { DataDirLockedError } from './data-dir-lock.ts';
import { EmbeddedDatabaseError } from './embedded.ts';
import { clusterHome } from './embedded-location.ts';

/**
 * The portal's database for an operator's tool (backup, restore), as its owner (decision 093): DATABASE_OWNER_URL, else
 * DATABASE_URL; else the running portal's embedded server as its superuser (reached through DATA_DIR/pg-url while the
 * portal holds the lock); else the embedded server started here.
 */
export async function openOperatorDatabase(
  config: Config,
  opts: { mustExist?: boolean; mustBeEmpty?: boolean },
): Promise<{ pool: pg.Pool; url: string; close: () => Promise<void> }> {
  if (config.databaseUrl) {
    // The database's owner where one is named (decision 093): a restore loads the audit trail with its triggers off.
    const url = config.databaseOwnerUrl ?? config.databaseUrl;
    const pool = createPool(url);
    return { pool, url, close: () => pool.end() };
  }
  const pgdata = path.join(clusterHome(config.dataDir), 'pgdata');
  const hasCluster = existsSync(pgdata) && readdirSync(pgdata).length > 0;
  if (opts.mustExist && !hasCluster) {
    throw new EmbeddedDatabaseError(`DATA_DIR ${config.dataDir} holds no portal database (no pgdata).`);
  }
  if (opts.mustBeEmpty && (hasCluster || existsSync(path.join(config.dataDir, 'portal.lock')))) {
    throw new EmbeddedDatabaseError(
      `DATA_DIR ${config.dataDir} already holds a portal database: restore only into an empty DATA_DIR. Nothing was changed.`,
    );
  }
  try {
    const database = await openDatabase({ dataDir: config.dataDir, migrate: false, asOwner: true });
    return { pool: database.pool, url: database.url, close: database.close };
  } catch (err) {
    if (!(err instanceof DataDirLockedError) || opts.mustBeEmpty) throw err;
    // The portal is running: use its database server.
    const url = readFileSync(path.join(config.dataDir, 'pg-url'), 'utf8').trim();
    const pool = createPool(url);
    return { pool, url, close: () => pool.end() };
  }
}
