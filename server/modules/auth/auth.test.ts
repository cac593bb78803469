import { randomUUID } from 'node:crypto';

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { activityLogs, groups, sessions, users } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { createGroup, createUser, expectKeptCopy, TEST_PASSWORD, tokenFor } from '#server/test/factories.ts';

import { REFRESHES_PER_MINUTE } from './auth.routes.ts';

buildTestAppBeforeAll();

const registration = (email: string) => ({
  email,
  password: 'secret123',
  role: 'employee',
  about: 'Works on fire safety.',
  personalDetails: { name: 'Asha Verma', dob: '1990-04-12', mobile: '9876543210', address: 'Delhi' },
  professionalDetails: {
    designation: "Scientist 'B'",
    cadre: 'DRDS',
    intercom: '1234',
    internetEmail: '',
    dronaEmail: '',
    pis: '',
    aebasId: '',
  },
  employmentPeriod: { from: '2020-01-01', to: '' },
});
const unique = () => `user-${Math.random().toString(36).slice(2, 10)}@lab.test`;

describe('POST /api/auth/register', () => {
  it('creates a pending user and never returns the password hash', async () => {
    const app = await buildTestApp();
    const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: registration(unique()) });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user).toMatchObject({ status: 'pending', role: 'employee', personalDetails: { name: 'Asha Verma' } });
    expect(res.body).not.toContain('argon2');
    expect(body.user._id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each([
    [{ email: '' }, 'Email is required.', 'email'],
    [{ email: 'not-an-email' }, 'Invalid email address.', 'email'],
    [{ password: '' }, 'Password is required.', 'password'],
    [{ password: '12345' }, 'Password must be at least 6 characters.', 'password'],
    [{ personalDetails: { name: ' ' } }, 'Name is required.', 'personalDetails.name'],
    [{ personalDetails: { name: 'A', mobile: '12345' } }, 'Mobile number must be 10 digits.', 'personalDetails.mobile'],
    [
      { professionalDetails: { cadre: 'DRDS', designation: '' } },
      'Designation is required.',
      'professionalDetails.designation',
    ],
    [{ role: 'admin' }, 'Please choose a role.', 'role'],
  ])('refuses %j with "%s"', async (change, message, field) => {
    const app = await buildTestApp();
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...registration(unique()), ...change },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: message, message, field });
  });

  it('refuses a missing body, malformed JSON and a 10 MB body with a 4xx', async () => {
    const app = await buildTestApp();
    const missing = await app.inject({ method: 'POST', url: '/api/auth/register' });
    expect(missing.statusCode).toBe(400);
    const malformed = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error).toBeTruthy();
    const huge = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...registration(unique()), about: 'x'.repeat(10 * 1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toBe('The request is too large.');
  });

  it('answers "User already exists" on the email field for a duplicate, whatever its case', async () => {
    const app = await buildTestApp();
    const email = unique();
    await app.inject({ method: 'POST', url: '/api/auth/register', payload: registration(email) });
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: registration(email.toUpperCase()),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'User already exists', field: 'email' });
  });
});

describe('POST /api/auth/login', () => {
  it('signs an approved user in with a token, the user and an httpOnly cookie', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ token: expect.any(String), user: { _id: user.id, role: 'employee' } });
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    const me = await app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${res.json().token}` },
    });
    expect(me.json()).toMatchObject({ _id: user.id, email: user.email });
  });

  it('refuses a wrong password and an unknown email with the same message', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const wrong = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'nope-nope' },
    });
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: unique(), password: 'nope-nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().error).toBe('Invalid email or password.');
    expect(unknown.json().error).toBe('Invalid email or password.');
  });

  it('requires email and password', async () => {
    const app = await buildTestApp();
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'a@b.c' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Password is required.', field: 'password' });
    const noEmail = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { password: 'x' } });
    expect(noEmail.json()).toMatchObject({ error: 'Email is required.', field: 'email' });
  });

  it('tells a pending, rejected or deactivated user why, and issues no token', async () => {
    const app = await buildTestApp();
    for (const [status, text] of [
      ['pending', 'awaiting admin approval'],
      ['rejected', 'not approved. Reason: Not on the staff list'],
      ['deactivated', 'deactivated'],
    ] as const) {
      const user = await createUser(app, 'pending_director', { status, statusReason: 'Not on the staff list' });
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: user.email, password: TEST_PASSWORD },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ status });
      expect(res.json().error).toContain(text);
      expect(res.json().token).toBeUndefined();
    }
  });
  // Throttling of failed sign-ins: throttle.test.ts.
});

describe('GET /api/auth/me kept per person', () => {
  it('answers from the kept copy (same ETag, 304) until the person, or their group, changes on any path', async () => {
    const app = await buildTestApp();
    const [group, otherGroup] = await Promise.all([createGroup(app), createGroup(app)]);
    const user = await createUser(app, 'employee', { groupId: group.id, about: 'Before.' });
    const headers = { authorization: `Bearer ${await tokenFor(app, user)}` };
    const me = (extra: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url: '/api/auth/me', headers: { ...headers, ...extra } });

    const etag = await expectKeptCopy(me);
    // Someone else's change is not theirs.
    await createUser(app, 'employee', { groupId: group.id });
    expect((await me()).headers.etag).toBe(etag);

    // Their own row (here straight in SQL), their group's name, and a move to another group: each seen at once.
    await app.db.update(users).set({ about: 'After.' }).where(eq(users.id, user.id));
    expect((await me()).json().about).toBe('After.');
    await app.db.update(groups).set({ name: 'Renamed Group' }).where(eq(groups.id, group.id));
    expect((await me()).json().group).toEqual({ _id: group.id, name: 'Renamed Group' });
    await app.db.update(users).set({ groupId: otherGroup.id }).where(eq(users.id, user.id));
    expect((await me()).json().group).toEqual({ _id: otherGroup.id, name: otherGroup.name });

    // Each person has their own answer.
    const colleague = await createUser(app, 'employee', { groupId: otherGroup.id });
    const theirs = await app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${await tokenFor(app, colleague)}` },
    });
    expect(theirs.json()._id).toBe(colleague.id);
    expect((await me()).json()._id).toBe(user.id);
  });
});

describe('tokens', () => {
  it('refuses requests without a token, with a bad token, or after the account is deactivated', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    expect((await app.inject({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    expect(
      (await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: 'Bearer nonsense' } }))
        .statusCode,
    ).toBe(401);
    const token = await tokenFor(app, user);
    await app.db.update(users).set({ status: 'deactivated' }).where(eq(users.id, user.id));
    const res = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(403);
  });

  it('stops tokens issued before sessions were reset (password change)', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const token = await tokenFor(app, user);
    await app.db
      .update(users)
      .set({ sessionsValidAfter: new Date(Date.now() + 1000) })
      .where(eq(users.id, user.id));
    const res = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(401);
  });

  it('accepts the cookie for reads but never for writes', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'admin');
    const token = await tokenFor(app, user);
    const read = await app.inject({ method: 'GET', url: '/api/auth/me', cookies: { lp_token: token } });
    expect(read.statusCode).toBe(200);
    const write = await app.inject({
      method: 'POST',
      url: `/admin/approve-user/${user.id}`,
      cookies: { lp_token: token },
      payload: {},
    });
    expect(write.statusCode).toBe(401);
  });
});

describe('POST /api/auth/refresh (session-timeout warning, issue 16 item 5)', () => {
  const decode = (token: string) =>
    JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number; iat: number; sub: string };

  it('hands a still-valid session a fresh token with a later expiry and a fresh download cookie, and logs it', async () => {
    const app = await buildTestApp({ JWT_EXPIRES_IN: '60s' });
    const user = await createUser(app, 'employee');
    const sid = randomUUID();
    const old = app.jwt.sign({ sub: user.id, sv: user.sessionsValidAfter.getTime(), sid }, { expiresIn: '10s' });
    await app.db
      .insert(sessions)
      .values({ id: sid, userId: user.id, method: 'password', expiresAt: new Date(Date.now() + 10_000) });
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { authorization: `Bearer ${old}` },
    });
    expect(res.statusCode).toBe(200);
    const { token, user: json } = res.json();
    expect(json._id).toBe(user.id);
    expect(decode(token).sub).toBe(user.id);
    expect(decode(token).exp).toBeGreaterThan(decode(old).exp);
    expect(decode(token).exp - decode(token).iat).toBe(60);
    const cookie = res.cookies.find((c) => c.name === 'lp_token');
    expect(cookie).toMatchObject({ value: token, httpOnly: true, sameSite: 'Strict' });
    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect(me.statusCode).toBe(200);
    const logged = await app.db.select().from(activityLogs).where(eq(activityLogs.userId, user.id));
    expect(logged.map((l) => l.action)).toContain('Stayed signed in');
  });

  it('refuses a visitor, an expired token, a revoked session, a deactivated account and the cookie alone', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const refresh = (headers: Record<string, string>, cookies?: Record<string, string>) =>
      app.inject({ method: 'POST', url: '/api/auth/refresh', headers, cookies });
    expect((await refresh({})).statusCode).toBe(401);
    const expired = app.jwt.sign(
      { sub: user.id, sv: user.sessionsValidAfter.getTime(), sid: randomUUID() },
      { expiresIn: '-1s' },
    );
    const late = await refresh({ authorization: `Bearer ${expired}` });
    expect(late.statusCode).toBe(401);
    expect(late.json().message).toBe('Your session has expired. Please sign in again.');
    const token = await tokenFor(app, user);
    expect((await refresh({}, { lp_token: token })).statusCode).toBe(401);
    await app.db
      .update(users)
      .set({ sessionsValidAfter: new Date(Date.now() + 1000) })
      .where(eq(users.id, user.id));
    expect((await refresh({ authorization: `Bearer ${token}` })).statusCode).toBe(401);
    const other = await createUser(app, 'admin');
    const otherToken = await tokenFor(app, other);
    await app.db.update(users).set({ status: 'deactivated' }).where(eq(users.id, other.id));
    expect((await refresh({ authorization: `Bearer ${otherToken}` })).statusCode).toBe(403);
  });

  it('is limited per address (REFRESHES_PER_MINUTE)', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    // Each refresh ends the session it was made with, so each uses the token the one before handed out.
    let token = await tokenFor(app, user);
    const refresh = () =>
      app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        headers: { authorization: `Bearer ${token}` },
        remoteAddress: '10.1.1.1',
      });
    for (let i = 0; i < REFRESHES_PER_MINUTE; i++) {
      const res = await refresh();
      expect(res.statusCode).toBe(200);
      token = res.json().token;
    }
    const third = await refresh();
    expect(third.statusCode).toBe(429);
    expect(third.json().message).toBe('Too many attempts. Please wait a minute and try again.');
  });
});
