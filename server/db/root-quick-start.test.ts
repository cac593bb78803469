import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';

import { afterAll, describe, expect, it } from 'vitest';

import { RELOCATED_ROOT, relocatedHome } from '#server/db/embedded-location.ts';
import { projectRoot } from '#server/lib/project-root.ts';
import { npmScript } from '#server/test/backup-archives.ts';
import {
  killServer,
  login,
  postmasterPid,
  type ServerProcess,
  startServer,
  waitHealthy,
} from '#server/test/server-process.ts';

/**
 * Decision 040: the README's quick start run as root in root's home. PostgreSQL runs as the system user
 * "postgres", which cannot pass through a folder closed to others (/root, a mkdtemp folder): the cluster then lives in
 * /var/lib/lab-portal/<hash of DATA_DIR>, recorded in DATA_DIR/pg-location. What cannot be fixed is refused with a
 * clear message, and DATA_DIR is left as it was found.
 */
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const servers: ServerProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const s of servers) await killServer(s);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A DATA_DIR path (not made yet) inside a folder closed to other users, as /root is. */
function closedParent(): string {
  const parent = mkdtempSync(path.join(os.tmpdir(), 'lp-root-home-'));
  chmodSync(parent, 0o700);
  dirs.push(parent);
  return path.join(parent, 'portal', 'data');
}

describe.runIf(asRoot)('the quick start as root, with DATA_DIR in a folder closed to other users', () => {
  it('starts, keeps the cluster where "postgres" can reach it, records it in DATA_DIR, and finds it again', async () => {
    const dataDir = closedParent();
    const home = relocatedHome(dataDir);
    dirs.push(home);
    const first = startServer({ DATA_DIR: dataDir });
    servers.push(first);
    const base = await waitHealthy(first);
    const password = /password: (\S+)/.exec(first.output())?.[1];
    expect(password).toBeTruthy();
    expect(readFileSync(path.join(dataDir, 'pg-location'), 'utf8').trim()).toBe(home);
    expect(path.dirname(home)).toBe(RELOCATED_ROOT);
    const postgresUid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    expect(statSync(path.join(home, 'pgdata')).uid).toBe(postgresUid);
    expect(existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
    expect(postmasterPid(dataDir)).toBeGreaterThan(0);
    expect((await login(base, 'admin@lab.local', password!)).status).toBe(200);

    // A backup (while the portal runs) finds the database through DATA_DIR.
    const archive = path.join(path.dirname(dataDir), 'backup.tar.gz');
    execFileSync(process.execPath, ['--import', 'tsx', 'scripts/backup.ts', '--out', archive], {
      cwd: projectRoot,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      stdio: 'pipe',
    });
    expect(statSync(archive).size).toBeGreaterThan(0);

    // A restore into another closed DATA_DIR: a damaged archive is refused after its cluster was made in the relocated
    // home, and leaves neither that home nor pg-location behind, so the good archive then restores there.
    const target = closedParent();
    const targetHome = relocatedHome(target);
    dirs.push(targetHome);
    mkdirSync(target, { recursive: true });
    const damaged = path.join(path.dirname(target), 'damaged.tar.gz');
    const whole = gunzipSync(readFileSync(archive));
    writeFileSync(damaged, gzipSync(whole.subarray(0, Math.floor(whole.length / 2))));
    const refused = await npmScript('restore', [damaged], { DATA_DIR: target });
    expect(refused.status).toBe(1);
    expect(refused.output).toMatch(/^Restore refused: /m);
    expect(readdirSync(target)).toEqual([]);
    expect(existsSync(targetHome)).toBe(false);
    const good = await npmScript('restore', [archive], { DATA_DIR: target });
    expect(good.output).toMatch(/^Restored /m);
    expect(good.status).toBe(0);
    expect(readFileSync(path.join(target, 'pg-location'), 'utf8').trim()).toBe(targetHome);
    expect(postmasterPid(target)).toBeUndefined();

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(postmasterPid(dataDir)).toBeUndefined();

    // The second start uses the same cluster: the first admin's password still signs in, no new admin is made.
    const second = startServer({ DATA_DIR: dataDir });
    servers.push(second);
    const again = await waitHealthy(second);
    expect(second.output()).not.toMatch(/password: /);
    expect((await login(again, 'admin@lab.local', password!)).status).toBe(200);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 180_000);

  it('refuses a relocated home that already holds a database DATA_DIR does not record, leaving DATA_DIR as found', async () => {
    const dataDir = closedParent();
    const home = relocatedHome(dataDir);
    dirs.push(home);
    mkdirSync(path.join(home, 'pgdata'), { recursive: true });
    writeFileSync(path.join(home, 'pgdata', 'PG_VERSION'), '18\n');
    const s = startServer({ DATA_DIR: dataDir });
    servers.push(s);
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain(
      `Lab Portal cannot start: ${home}/pgdata holds the database of an earlier portal whose DATA_DIR was ${dataDir}`,
    );
    // Neither DATA_DIR nor the folder made for it, nor a generated jwt-secret, stays behind; the old database is kept.
    expect(existsSync(path.dirname(dataDir))).toBe(false);
    expect(readdirSync(path.join(home, 'pgdata'))).toEqual(['PG_VERSION']);
  }, 60_000);

  it('refuses a cluster already inside an unreachable DATA_DIR with the fix, and removes only what it made', async () => {
    const dataDir = closedParent();
    mkdirSync(path.join(dataDir, 'pgdata'), { recursive: true });
    writeFileSync(path.join(dataDir, 'pgdata', 'PG_VERSION'), '18\n');
    const s = startServer({ DATA_DIR: dataDir });
    servers.push(s);
    expect(await s.exited).toBe(1);
    expect(s.output()).toMatch(/cannot reach its cluster in .*\/pgdata: a parent folder is closed to other users/);
    expect(readdirSync(dataDir)).toEqual(['pgdata']); // the jwt-secret this start generated went again
  }, 60_000);
});
