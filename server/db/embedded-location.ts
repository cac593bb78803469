import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

/**
 * Where the embedded cluster lives (decision 040). Normally in DATA_DIR (`pgdata/`, its socket in `run/`). PostgreSQL
 * refuses to run as root, so a portal run as root runs it as the system user "postgres", which must be able to pass
 * through every folder above the cluster. When DATA_DIR sits where that user cannot pass (root's home, a mkdtemp
 * folder: the README's quick start as root), the cluster's home is
 * `/var/lib/lab-portal/<hash of DATA_DIR>` instead, and DATA_DIR/pg-location names it, so every tool that opens
 * DATA_DIR (the portal, backup, restore) finds the same cluster.
 */
export const RELOCATED_ROOT = '/var/lib/lab-portal';
export const LOCATION_FILE = 'pg-location';

/** A start-up failure of the embedded database the operator can fix (main.ts prints its message). */
export class EmbeddedDatabaseError extends Error {}

export type Owner = { uid: number; gid: number };

/** PostgreSQL refuses to run as root: there it runs as the system user "postgres", created if missing. */
export function runAs(): Owner | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres']).toString().trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres']).toString().trim()),
  });
  try {
    return ids();
  } catch {
    try {
      execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
    } catch {
      // the group may exist already
    }
    execFileSync('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres'], { stdio: 'ignore' });
    return ids();
  }
}

/**
 * The folder holding this DATA_DIR's cluster (`pgdata/`) and socket folder (`run/`): the one DATA_DIR/pg-location
 * names, else DATA_DIR itself. Reads only; for tools and tests that look at a portal's cluster.
 */
export function clusterHome(dataDir: string): string {
  try {
    const recorded = readFileSync(path.join(dataDir, LOCATION_FILE), 'utf8').trim();
    if (recorded) return recorded;
  } catch {
    // not relocated
  }
  return dataDir;
}

const hasCluster = (pgdata: string) => existsSync(pgdata) && readdirSync(pgdata).length > 0;

/** The relocated home of a DATA_DIR: one folder per DATA_DIR path. */
export const relocatedHome = (dataDir: string) =>
  path.join(RELOCATED_ROOT, createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 16));

/**
 * Chooses (and, relocated, prepares) the cluster's home for a start. Not as root: DATA_DIR. As root: a home already
 * recorded in DATA_DIR; else DATA_DIR, given search permission (o+x, not listing) for "postgres", when that user can
 * reach it; else, with no cluster in DATA_DIR yet, the relocated home, recorded in DATA_DIR. A cluster already in an
 * unreachable DATA_DIR cannot be moved by the portal: that refusal names the fix.
 */
export function prepareClusterHome(dataDir: string, owner: Owner | undefined): string {
  const recorded = clusterHome(dataDir);
  if (recorded !== dataDir) {
    if (owner) ensureHome(recorded, owner);
    return recorded;
  }
  if (!owner) return dataDir;
  const mode = statSync(dataDir).mode;
  if (!(mode & 0o001)) chmodSync(dataDir, (mode & 0o7777) | 0o001);
  if (spawnSync('test', ['-x', dataDir], { ...owner }).status === 0) return dataDir;
  if (hasCluster(path.join(dataDir, 'pgdata'))) {
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL runs as the system user "postgres" (the portal runs as root) and cannot reach its cluster in ${dataDir}/pgdata: ` +
        'a parent folder is closed to other users. Open that folder to others (chmod o+x), move DATA_DIR where that user can pass, or run the portal as an ordinary user.',
    );
  }
  const home = relocatedHome(dataDir);
  if (hasCluster(path.join(home, 'pgdata'))) {
    throw new EmbeddedDatabaseError(
      `${home}/pgdata holds the database of an earlier portal whose DATA_DIR was ${dataDir}, but this DATA_DIR does not record it (no ${LOCATION_FILE}). ` +
        `Nothing was changed. Move ${home} away if that database is no longer needed, or restore a backup into an empty DATA_DIR elsewhere.`,
    );
  }
  ensureHome(home, owner);
  const file = path.join(dataDir, LOCATION_FILE);
  writeFileSync(`${file}.tmp`, `${home}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
  return home;
}

function ensureHome(home: string, owner: Owner) {
  try {
    mkdirSync(RELOCATED_ROOT, { recursive: true, mode: 0o755 });
    mkdirSync(home, { recursive: true, mode: 0o700 });
    chownSync(home, owner.uid, owner.gid);
  } catch (err) {
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL's cluster belongs in ${home} (DATA_DIR is closed to the system user "postgres"), but that folder cannot be made (${(err as NodeJS.ErrnoException).code}). ` +
        'Put DATA_DIR where that user can pass, or run the portal as an ordinary user.',
    );
  }
}
