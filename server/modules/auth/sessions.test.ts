import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';

import type { UserRow } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { createUser, TEST_PASSWORD } from '#server/test/factories.ts';

buildTestAppBeforeAll();

/** Two sign-ins of one account, as two devices would have them. */
async function twoDevices(app: FastifyInstance, user: UserRow) {
  const tokens: string[] = [];
  for (let i = 0; i < 2; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    tokens.push(res.json().token);
  }
  return tokens as [string, string];
}
const me = (app: FastifyInstance, token: string, how: 'bearer' | 'cookie' = 'bearer') =>
  app.inject({
    method: 'GET',
    url: '/api/auth/me',
    ...(how === 'bearer' ? { headers: { authorization: `Bearer ${token}` } } : { cookies: { lp_token: token } }),
  });

describe('signing out ends the session on the server (issue 13)', () => {
  it('POST /api/auth/logout revokes that token for the bearer header and the cookie; the other device goes on', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const [laptop, phone] = await twoDevices(app, user);
    const out = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${laptop}` },
    });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/lp_token=;/);
    for (const how of ['bearer', 'cookie'] as const) {
      const res = await me(app, laptop, how);
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toBe('Your session has expired. Please sign in again.');
    }
    expect((await me(app, phone)).statusCode).toBe(200);
    expect((await me(app, phone, 'cookie')).statusCode).toBe(200);
  });

  it('signing out with only the cookie also revokes it, and signing out twice or without a session is fine', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const [token] = await twoDevices(app, user);
    const out = await app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { lp_token: token } });
    expect(out.statusCode).toBe(200);
    expect((await me(app, token)).statusCode).toBe(401);
    const again = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(again.statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(200);
  });

  it('POST /api/auth/logout-all ends every session of the account and records it', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const other = await createUser(app, 'employee');
    const [laptop, phone] = await twoDevices(app, user);
    const [otherToken] = await twoDevices(app, other);
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/logout-all',
      headers: { authorization: `Bearer ${laptop}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Signed out of all devices.' });
    expect((await me(app, laptop)).statusCode).toBe(401);
    expect((await me(app, phone)).statusCode).toBe(401);
    expect((await me(app, phone, 'cookie')).statusCode).toBe(401);
    expect((await me(app, otherToken)).statusCode).toBe(200);
    // A new sign-in works again.
    expect((await twoDevices(app, user)).length).toBe(2);
    const { rows } = await app.pgPool.query(`select action from activity_logs where user_id = $1`, [user.id]);
    expect(rows.map((r) => r.action)).toContain('Signed out of all devices');
  });

  it('logout-all is refused to a visitor and with the cookie alone (a write)', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const [token] = await twoDevices(app, user);
    expect((await app.inject({ method: 'POST', url: '/api/auth/logout-all' })).statusCode).toBe(401);
    const cookieOnly = await app.inject({ method: 'POST', url: '/api/auth/logout-all', cookies: { lp_token: token } });
    expect(cookieOnly.statusCode).toBe(401);
    expect((await me(app, token)).statusCode).toBe(200);
  });

  it('refuses a token that carries no session id (issued before sessions could be revoked)', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const old = app.jwt.sign({ sub: user.id, sv: user.sessionsValidAfter.getTime() } as never);
    expect((await me(app, old)).statusCode).toBe(401);
  });
});

describe('"Stay signed in" ends the session it replaces (issue 16 item 5)', () => {
  const refresh = (app: FastifyInstance, token: string) =>
    app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { authorization: `Bearer ${token}` } });

  it('the old token answers 401 afterwards (header and cookie), the new one and its cookie work', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const [old, phone] = await twoDevices(app, user);
    const res = await refresh(app, old);
    expect(res.statusCode).toBe(200);
    const fresh = res.json().token as string;
    expect(fresh).not.toBe(old);
    expect(res.cookies.find((c) => c.name === 'lp_token')?.value).toBe(fresh);
    for (const how of ['bearer', 'cookie'] as const) {
      const gone = await me(app, old, how);
      expect(gone.statusCode).toBe(401);
      expect(gone.json().error).toBe('Your session has expired. Please sign in again.');
      expect((await me(app, fresh, how)).statusCode).toBe(200);
    }
    // Another device's session is not touched.
    expect((await me(app, phone)).statusCode).toBe(200);
    // The old session is ended, with one activity row for the refresh.
    const sid = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;
    const revoked = await app.pgPool.query(`select id from sessions where user_id = $1 and ended_at is not null`, [
      user.id,
    ]);
    expect(revoked.rows).toEqual([{ id: sid(old) }]);
    const { rows } = await app.pgPool.query(`select action from activity_logs where user_id = $1`, [user.id]);
    expect(rows.filter((r) => r.action === 'Stayed signed in')).toHaveLength(1);
  });

  it('refuses a revoked token (refreshed already, or signed out) and issues nothing', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const [token, other] = await twoDevices(app, user);
    expect((await refresh(app, token)).statusCode).toBe(200);
    const again = await refresh(app, token);
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toBe('Your session has expired. Please sign in again.');
    expect(again.cookies.find((c) => c.name === 'lp_token')).toBeUndefined();

    await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { authorization: `Bearer ${other}` } });
    expect((await refresh(app, other)).statusCode).toBe(401);
    const { rows } = await app.pgPool.query(`select action from activity_logs where user_id = $1`, [user.id]);
    expect(rows.filter((r) => r.action === 'Stayed signed in')).toHaveLength(1);
  });

  it('of two refreshes of one token at once, exactly one gets a new token', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const [token] = await twoDevices(app, user);
    const answers = await Promise.all([refresh(app, token), refresh(app, token)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
  });
});
