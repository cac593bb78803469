import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import {
  killServer,
  login,
  type ServerProcess,
  startServer as start,
  waitHealthy,
} from '#server/test/server-process.ts';

const children: ServerProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const c of children) await killServer(c);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('server/main.ts', () => {
  it('on a first start without ADMIN_EMAIL creates an admin, prints its password once, and drains on SIGTERM', async () => {
    const s = start({});
    children.push(s);
    dirs.push(s.dataDir);
    const base = await waitHealthy(s);
    const password = /password: (\S+)/.exec(s.output())?.[1];
    expect(password).toBeTruthy();
    expect((await login(base, 'admin@lab.local', password!)).status).toBe(200);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);

    // A second start on the same DATA_DIR keeps the admin and prints no password.
    const again = start({ DATA_DIR: s.dataDir });
    children.push(again);
    const base2 = await waitHealthy(again);
    expect(again.output()).not.toContain('password:');
    expect((await login(base2, 'admin@lab.local', password!)).status).toBe(200);
    again.child.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 300000);

  it('creates the admin named by ADMIN_EMAIL and ADMIN_PASSWORD', async () => {
    const s = start({ ADMIN_EMAIL: 'Chief.Admin@lab.test', ADMIN_PASSWORD: 'chief-secret-1' });
    children.push(s);
    dirs.push(s.dataDir);
    const base = await waitHealthy(s);
    expect(s.output()).not.toContain('password:');
    const res = await login(base, 'chief.admin@lab.test', 'chief-secret-1');
    expect(res.status).toBe(200);
    expect((await res.json()).user.role).toBe('admin');
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  }, 180000);

  it.each([
    [{ PORT: 'abc' }, 'Lab Portal cannot start: PORT must be a whole number from 0 to 65535 (got "abc").'],
    [
      { TRUST_PROXY: 'everyone' },
      'Lab Portal cannot start: TRUST_PROXY must be true, false, or a comma-separated list',
    ],
    [
      { JWT_SECRET: 'too-short' },
      'Lab Portal cannot start: JWT_SECRET must be at least 32 characters long (it has 9).',
    ],
  ])(
    'refuses to start with %j, naming the variable, before touching DATA_DIR',
    async (env, message) => {
      const s = start(env);
      children.push(s);
      dirs.push(s.dataDir);
      expect(await s.exited).toBe(1);
      expect(s.output()).toContain(message);
      expect(s.output()).not.toContain('too-short');
      expect(existsSync(path.join(s.dataDir, 'pgdata'))).toBe(false);
    },
    60000,
  );
});
