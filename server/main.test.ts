import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** Starts the real server (server/main.ts) on a port the system chooses, with an empty DATA_DIR unless given. */
function start(env: Record<string, string>) {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'lp-main-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SERVE_WEB: 'false',
      LOG_LEVEL: 'info',
      ...env,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, dataDir, output: () => output, exited };
}

/** Waits for the "listening" log line, then for GET /api/health 200; returns the base URL. */
async function waitHealthy(s: ReturnType<typeof start>, timeoutMs = 120000): Promise<string> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const port = /listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(s.output())?.[1];
    if (port) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (res.status === 200) return `http://127.0.0.1:${port}`;
      } catch {
        /* not answering yet */
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not become healthy:\n${s.output()}`);
}

const login = (base: string, email: string, password: string) =>
  fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('server/main.ts', () => {
  it('on a first start without ADMIN_EMAIL creates an admin, prints its password once, and drains on SIGTERM', async () => {
    const s = start({});
    children.push(s.child);
    dirs.push(s.dataDir);
    const base = await waitHealthy(s);
    const password = /password: (\S+)/.exec(s.output())?.[1];
    expect(password).toBeTruthy();
    expect((await login(base, 'admin@lab.local', password!)).status).toBe(200);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);

    // A second start on the same DATA_DIR keeps the admin and prints no password.
    const again = start({ DATA_DIR: s.dataDir });
    children.push(again.child);
    const base2 = await waitHealthy(again);
    expect(again.output()).not.toContain('password:');
    expect((await login(base2, 'admin@lab.local', password!)).status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 300000);

  it('creates the admin named by ADMIN_EMAIL and ADMIN_PASSWORD', async () => {
    const s = start({ ADMIN_EMAIL: 'Chief.Admin@lab.test', ADMIN_PASSWORD: 'chief-secret-1' });
    children.push(s.child);
    dirs.push(s.dataDir);
    const base = await waitHealthy(s);
    expect(s.output()).not.toContain('password:');
    const res = await login(base, 'chief.admin@lab.test', 'chief-secret-1');
    expect(res.status).toBe(200);
    expect((await res.json()).user.role).toBe('admin');
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  }, 180000);
});
