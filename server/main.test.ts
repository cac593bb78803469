import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** Starts the real server (server/main.ts) on a free port with an empty DATA_DIR. */
function start(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-main-'));
  const port = env.PORT ?? String(20000 + Math.floor(Math.random() * 20000));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: port,
      HOST: '127.0.0.1',
      SERVE_WEB: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, dataDir, port, output: () => output, exited };
}

async function waitHealthy(port: string, timeoutMs = 90000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not become healthy');
}

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
    await waitHealthy(s.port);
    const match = s.output().match(/password: (\S+)/);
    expect(match).toBeTruthy();
    const login = await fetch(`http://127.0.0.1:${s.port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@lab.local', password: match![1] }),
    });
    expect(login.status).toBe(200);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);

    // A second start on the same DATA_DIR keeps the admin and prints no password.
    const again = start({ DATA_DIR: s.dataDir, PORT: String(Number(s.port) + 1) });
    children.push(again.child);
    await waitHealthy(again.port);
    expect(again.output()).not.toContain('password:');
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 240000);

  it('creates the admin named by ADMIN_EMAIL and ADMIN_PASSWORD', async () => {
    const s = start({ ADMIN_EMAIL: 'Chief.Admin@lab.test', ADMIN_PASSWORD: 'chief-secret-1' });
    children.push(s.child);
    dirs.push(s.dataDir);
    await waitHealthy(s.port);
    expect(s.output()).not.toContain('password:');
    const login = await fetch(`http://127.0.0.1:${s.port}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'chief.admin@lab.test', password: 'chief-secret-1' }),
    });
    expect(login.status).toBe(200);
    expect((await login.json()).user.role).toBe('admin');
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  }, 120000);
});
