import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';

import { activityLogs, passwordHistory, type UserRow, users } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser, TEST_PASSWORD } from '#server/test/factories.ts';

// Decision 117: PASSWORD_MAX_AGE_DAYS asks a person with an older portal password for a new one at sign-in, and
// PASSWORD_HISTORY refuses the last N passwords, compared by hash. Unset, sign-in and password changes are as before.

const DAY = 86_400_000;
let strict: FastifyInstance;
let plain: FastifyInstance;

beforeAll(async () => {
  strict = await buildTestApp({ PASSWORD_MAX_AGE_DAYS: '90', PASSWORD_HISTORY: '3' });
  plain = await buildTestApp();
}, 120_000);

const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
const login = (on: FastifyInstance, email: string, password = TEST_PASSWORD) =>
  on.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
const changeExpired = (on: FastifyInstance, payload: Record<string, unknown>) =>
  on.inject({ method: 'POST', url: '/api/auth/expired-password', payload });
async function changeOwn(on: FastifyInstance, user: UserRow, currentPassword: string, newPassword: string) {
  return on.inject({
    method: 'PUT',
    url: `/api/users/${user.id}/password`,
    headers: await authHeaders(on, user),
    payload: { currentPassword, newPassword },
  });
}

describe('PASSWORD_MAX_AGE_DAYS', () => {
  it('unset: a password of any age signs in as before', async () => {
    const old = await createUser(plain, 'employee', { passwordChangedAt: daysAgo(4000) });
    const res = await login(plain, old.email);
    expect(res.statusCode).toBe(200);
    expect(res.json().token).toEqual(expect.any(String));
  });

  it('a password younger than the limit signs in; an older one gets the step, no token and no cookie', async () => {
    const fresh = await createUser(strict, 'employee', { passwordChangedAt: daysAgo(89) });
    expect((await login(strict, fresh.email)).json().token).toEqual(expect.any(String));
    const old = await createUser(strict, 'employee', { passwordChangedAt: daysAgo(91) });
    const res = await login(strict, old.email);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 'auth.password_expired', ticket: expect.any(String), days: 90 });
    expect(res.headers['set-cookie']?.toString() ?? '').not.toContain('lp_token=');
    // A wrong password is refused as ever: the step is only for the right one.
    expect((await login(strict, old.email, 'not-the-password')).statusCode).toBe(401);
  });

  it('the new password with the ticket: validation, the current one refused, then signed in; the ticket used up', async () => {
    const old = await createUser(strict, 'employee', { passwordChangedAt: daysAgo(200) });
    const { ticket } = (await login(strict, old.email)).json();
    const missing = await changeExpired(strict, { ticket });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'auth.password_required', field: 'newPassword' });
    const short = await changeExpired(strict, { ticket, newPassword: 'abc' });
    expect(short.json()).toMatchObject({ code: 'auth.password_too_short', field: 'newPassword' });
    const noTicket = await changeExpired(strict, { newPassword: 'brand-new-pass' });
    expect(noTicket.statusCode).toBe(400);
    expect(noTicket.json()).toMatchObject({ code: 'auth.password_change_ticket_invalid' });
    const forged = await changeExpired(strict, { ticket: `${ticket}x`, newPassword: 'brand-new-pass' });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ code: 'auth.password_change_ticket_invalid' });
    const same = await changeExpired(strict, { ticket, newPassword: TEST_PASSWORD });
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({ code: 'users.new_password_same', field: 'newPassword' });

    const done = await changeExpired(strict, { ticket, newPassword: 'brand-new-pass' });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ token: expect.any(String), user: { _id: old.id } });
    const me = await strict.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${done.json().token}` },
    });
    expect(me.statusCode).toBe(200);
    expect((await changeExpired(strict, { ticket, newPassword: 'another-new-pass' })).statusCode).toBe(401);
    expect((await login(strict, old.email, 'brand-new-pass')).json().token).toEqual(expect.any(String));
    expect((await login(strict, old.email)).statusCode).toBe(401);
    const logged = await strict.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.userId, old.id), eq(activityLogs.code, 'activity.own_password_changed')));
    expect(logged).toHaveLength(1);
  });

  it('an account that may not sign in gets no step: its refusal, as before', async () => {
    const gone = await createUser(strict, 'employee', { passwordChangedAt: daysAgo(200), status: 'deactivated' });
    expect((await login(strict, gone.email)).statusCode).toBe(403);
  });
});

describe('PASSWORD_HISTORY', () => {
  it('the current password and the two before it are refused; the fourth back may be chosen again', async () => {
    let person = await createUser(strict, 'employee');
    const step = async (from: string, to: string) => {
      const res = await changeOwn(strict, person, from, to);
      person = (await strict.db.select().from(users).where(eq(users.id, person.id)))[0]!;
      return res;
    };
    expect((await step(TEST_PASSWORD, 'second-pass')).statusCode).toBe(200);
    expect((await step('second-pass', 'third-pass')).statusCode).toBe(200);
    const reused = await step('third-pass', TEST_PASSWORD);
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({
      code: 'users.password_recently_used',
      field: 'newPassword',
      params: { count: 3 },
      message: 'Choose a password you have not used recently: your last 3 passwords cannot be used again.',
    });
    expect((await step('third-pass', 'fourth-pass')).statusCode).toBe(200);
    expect((await step('fourth-pass', 'second-pass')).statusCode).toBe(400);
    // Now fourth, third, second are the last three: the first is free again. The history keeps N − 1 hashes, no text.
    const kept = await strict.db.select().from(passwordHistory).where(eq(passwordHistory.userId, person.id));
    expect(kept).toHaveLength(2);
    expect(kept.every((k) => k.passwordHash.startsWith('$argon2id$'))).toBe(true);
    expect((await step('fourth-pass', TEST_PASSWORD)).statusCode).toBe(200);
    expect(person.passwordChangedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('unset: an earlier password may be chosen again, and no history is kept', async () => {
    let person = await createUser(plain, 'employee');
    expect((await changeOwn(plain, person, TEST_PASSWORD, 'second-pass')).statusCode).toBe(200);
    person = (await plain.db.select().from(users).where(eq(users.id, person.id)))[0]!;
    expect((await changeOwn(plain, person, 'second-pass', TEST_PASSWORD)).statusCode).toBe(200);
    expect(await plain.db.select().from(passwordHistory).where(eq(passwordHistory.userId, person.id))).toEqual([]);
  });

  it("an admin's reset is kept in the history and restarts the password's age", async () => {
    const admin = await createUser(strict, 'admin');
    const person = await createUser(strict, 'employee', { passwordChangedAt: daysAgo(200) });
    const res = await strict.inject({
      method: 'POST',
      url: `/admin/users/${person.id}/reset-password`,
      headers: await authHeaders(strict, admin),
      payload: { newPassword: 'set-by-admin' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await login(strict, person.email, 'set-by-admin')).json().token).toEqual(expect.any(String));
    expect(await strict.db.select().from(passwordHistory).where(eq(passwordHistory.userId, person.id))).toHaveLength(1);
  });
});
