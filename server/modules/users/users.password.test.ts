import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { activityLogs } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createUser, signIn, TEST_PASSWORD } from '#server/test/factories.ts';

buildTestAppBeforeAll();

const logsOf = async (app: Awaited<ReturnType<typeof buildTestApp>>, userId: string) =>
  app.db.select().from(activityLogs).where(eq(activityLogs.targetId, userId));

describe('PUT /api/users/:id/password', () => {
  it('changes the password with the current one, ends older sessions and hands this device a new token', async () => {
    const { app, headers, user } = await signIn('employee');
    await new Promise((r) => setTimeout(r, 5)); // the new stamp must differ from the one in the old token
    const res = await app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}/password`,
      headers,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'new-secret-1' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Password changed successfully!', token: expect.any(String) });
    expect(String(res.headers['set-cookie'])).toMatch(/lp_token=/);
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode).toBe(401);
    const fresh = { authorization: `Bearer ${res.json().token}` };
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: fresh })).statusCode).toBe(200);
    const oldLogin = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(oldLogin.statusCode).toBe(401);
    const newLogin = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'new-secret-1' },
    });
    expect(newLogin.statusCode).toBe(200);
    expect((await logsOf(app, user.id)).map((l) => l.action)).toContain('Changed own password');
  });

  it.each([
    [
      { currentPassword: 'wrong-one', newPassword: 'new-secret-1' },
      'The current password is not correct.',
      'currentPassword',
    ],
    [{ newPassword: 'new-secret-1' }, 'Please enter your current password.', 'currentPassword'],
    [{ currentPassword: TEST_PASSWORD, newPassword: '' }, 'Password is required.', 'newPassword'],
    [
      { currentPassword: TEST_PASSWORD, newPassword: '12345' },
      'Password must be at least 6 characters.',
      'newPassword',
    ],
    [
      { currentPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD },
      'The new password must differ from the current one.',
      'newPassword',
    ],
  ])('refuses %j with "%s"', async (payload, message, field) => {
    const { app, headers, user } = await signIn('employee');
    const res = await app.inject({ method: 'PUT', url: `/api/users/${user.id}/password`, headers, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, field });
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode).toBe(200);
  });

  it('refuses a visitor, another user and even an admin (admins reset instead)', async () => {
    const app = await buildTestApp();
    const owner = await createUser(app, 'employee');
    const url = `/api/users/${owner.id}/password`;
    const payload = { currentPassword: TEST_PASSWORD, newPassword: 'new-secret-1' };
    expect((await app.inject({ method: 'PUT', url, payload })).statusCode).toBe(401);
    for (const role of ['employee', 'admin'] as const) {
      const other = await createUser(app, role);
      const res = await app.inject({ method: 'PUT', url, payload, headers: await authHeaders(app, other) });
      expect(res.statusCode).toBe(403);
    }
  });
});
