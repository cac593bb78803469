import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';

import { activityLogs, recoveryCodes, sessions, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser, TEST_PASSWORD } from '#server/test/factories.ts';

import { decryptTotpSecret } from './totp.ts';

// The second factor (decision 064). One app where directors must have one (and the cleared), one
// with the default (nobody).
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({ MFA_REQUIRED_ROLES: 'director,associateDirector', MFA_FOR_CLEARED: 'true' });
});

const login = (user: UserRow, over: FastifyInstance = app) =>
  over.inject({ method: 'POST', url: '/api/auth/login', payload: { email: user.email, password: TEST_PASSWORD } });
const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url, payload, headers });
const codeAt = (secret: string, offsetSteps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });

/** Signs a new director in and sets up their authenticator at sign-in: the secret, the session and recovery codes. */
async function enrolledDirector() {
  const user = await createUser(app, 'director');
  const { ticket } = (await login(user)).json<{ ticket: string }>();
  const { secret } = (await post('/api/auth/second-factor/totp/enrol', { ticket })).json<{ secret: string }>();
  const confirmed = await post('/api/auth/second-factor/totp/confirm', { ticket, code: await codeAt(secret) });
  expect(confirmed.statusCode).toBe(200);
  const body = confirmed.json<{ token: string; recoveryCodes: string[] }>();
  return { user, secret, token: body.token, recoveryCodes: body.recoveryCodes };
}

describe('the login answer', () => {
  it('is the spec answer (token and user) where no second factor is configured (the default)', async () => {
    const plain = await buildTestApp();
    const director = await createUser(plain, 'director', { classifiedClearance: true });
    const res = await login(director, plain);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['token', 'user']);
  });

  it('is the same for a role the installation did not name', async () => {
    const res = await login(await createUser(app, 'employee'));
    expect(Object.keys(res.json()).sort()).toEqual(['token', 'user']);
  });

  it('asks a director without a factor to set one up: a ticket, no token, no session', async () => {
    const user = await createUser(app, 'director');
    const res = await login(user);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 'auth.second_factor_enrolment_required', methods: ['passkey', 'totp'] });
    expect(res.json().token).toBeUndefined();
    expect(await app.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
  });

  it('asks for a code of a cleared employee (MFA_FOR_CLEARED) and of an associate director', async () => {
    for (const user of [
      await createUser(app, 'employee', { classifiedClearance: true }),
      await createUser(app, 'associate_director'),
    ]) {
      expect((await login(user)).json().code).toBe('auth.second_factor_enrolment_required');
    }
  });

  it('asks a director with a factor for a code, naming the methods they have', async () => {
    const { user } = await enrolledDirector();
    expect((await login(user)).json()).toMatchObject({
      code: 'auth.second_factor_required',
      methods: ['totp', 'recovery'],
    });
  });
});

describe('POST /api/auth/second-factor/totp/enrol and /totp/confirm at sign-in', () => {
  it('answers a secret, an otpauth address and a QR code; keeps the secret encrypted', async () => {
    const user = await createUser(app, 'director');
    const { ticket } = (await login(user)).json();
    const res = await post('/api/auth/second-factor/totp/enrol', { ticket });
    expect(res.statusCode).toBe(200);
    const { secret, otpauthUrl, qrDataUrl } = res.json();
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(qrDataUrl).toMatch(/^data:image\/png;base64,/);
    const [row] = await app.db.query.userFactors.findMany({ where: (f, { eq: e }) => e(f.userId, user.id) });
    expect(row!.totpSecret).not.toContain(secret);
    expect(decryptTotpSecret('test-secret-test-secret-test-secret', row!.totpSecret!)).toBe(secret);
  });

  it('starts the session with the factor and answers 10 recovery codes once', async () => {
    const { user, token, recoveryCodes: codes } = await enrolledDirector();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const [session] = await app.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(session!.secondFactor).toBe('totp');
    const me = await app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect(me.statusCode).toBe(200);
    const stored = await app.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    expect(stored.map((r) => r.codeHash)).not.toContain(codes[0]);
  });

  it('refuses a wrong code, a missing code, and no ticket nor session', async () => {
    const user = await createUser(app, 'director');
    const { ticket } = (await login(user)).json();
    await post('/api/auth/second-factor/totp/enrol', { ticket });
    const wrong = await post('/api/auth/second-factor/totp/confirm', { ticket, code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'auth.second_factor_code_invalid', field: 'code' });
    const blank = await post('/api/auth/second-factor/totp/confirm', { ticket, code: ' ' });
    expect(blank.json()).toMatchObject({ code: 'auth.second_factor_code_required', field: 'code' });
    const long = await post('/api/auth/second-factor/totp/confirm', { ticket, code: '123456', label: 'x'.repeat(61) });
    expect(long.json()).toMatchObject({ code: 'auth.second_factor_label_too_long', field: 'label' });
    const visitor = await post('/api/auth/second-factor/totp/enrol', {});
    expect(visitor.statusCode).toBe(401);
    expect((await post('/api/auth/second-factor/totp/confirm', { code: '123456' })).statusCode).toBe(401);
  });

  it('refuses confirming before enrolling', async () => {
    const user = await createUser(app, 'director');
    const { ticket } = (await login(user)).json();
    const res = await post('/api/auth/second-factor/totp/confirm', { ticket, code: '123456' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('auth.second_factor_no_enrolment');
  });

  it('refuses a forged, expired or session token as a ticket', async () => {
    const user = await createUser(app, 'director');
    const { token } = await enrolledDirector();
    for (const ticket of ['not-a-jwt', token, app.jwt.sign({ purpose: 'second-factor', sub: user.id } as never)]) {
      const res = await post('/api/auth/second-factor/totp/enrol', { ticket });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('auth.second_factor_ticket_invalid');
    }
  });

  it('never lets a ticket add a factor beside an existing one (the password alone)', async () => {
    const { user } = await enrolledDirector();
    const { ticket } = (await login(user)).json();
    const res = await post('/api/auth/second-factor/totp/enrol', { ticket });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('auth.second_factor_already_set_up');
  });
});

describe('POST /api/auth/second-factor/verify', () => {
  it('signs in with a TOTP code and refuses the same code again (replay)', async () => {
    const { user, secret } = await enrolledDirector();
    const code = await codeAt(secret, 1); // the next step: the enrolment used this one
    const first = (await login(user)).json().ticket;
    const ok = await post('/api/auth/second-factor/verify', { ticket: first, code });
    expect(ok.statusCode).toBe(200);
    expect(Object.keys(ok.json()).sort()).toEqual(['token', 'user']);
    const second = (await login(user)).json().ticket;
    const replay = await post('/api/auth/second-factor/verify', { ticket: second, code });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('auth.second_factor_code_invalid');
  });

  it('refuses a used ticket (its session has started)', async () => {
    const { user, recoveryCodes: codes } = await enrolledDirector();
    const { ticket } = (await login(user)).json();
    expect((await post('/api/auth/second-factor/verify', { ticket, code: codes[0]! })).statusCode).toBe(200);
    const again = await post('/api/auth/second-factor/verify', { ticket, code: codes[1]! });
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('auth.second_factor_ticket_invalid');
  });

  it('accepts a recovery code once (any case, spaces), records it, and says how many are left', async () => {
    const { user, token, recoveryCodes: codes } = await enrolledDirector();
    const typed = ` ${codes[2]!.toUpperCase().replace('-', ' ')} `;
    const ok = await post('/api/auth/second-factor/verify', { ticket: (await login(user)).json().ticket, code: typed });
    expect(ok.statusCode).toBe(200);
    const reused = await post('/api/auth/second-factor/verify', {
      ticket: (await login(user)).json().ticket,
      code: codes[2]!,
    });
    expect(reused.json().code).toBe('auth.second_factor_code_invalid');
    const list = await app.inject({ url: '/api/auth/second-factor', headers: { authorization: `Bearer ${token}` } });
    expect(list.json().recoveryCodesLeft).toBe(9);
    const log = await app.db.select().from(activityLogs).where(eq(activityLogs.userId, user.id));
    expect(log.map((l) => l.code)).toContain('activity.signed_in_recovery_code');
  });

  it('sends a person without a factor to enrolment', async () => {
    const user = await createUser(app, 'director');
    const { ticket } = (await login(user)).json();
    const res = await post('/api/auth/second-factor/verify', { ticket, code: '123456' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('auth.second_factor_enrolment_required');
  });

  it('throttles wrong codes like passwords (429 after LOGIN_ACCOUNT_FAILURES)', async () => {
    const { user, secret } = await enrolledDirector();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const { ticket } = (await login(user)).json();
      statuses.push((await post('/api/auth/second-factor/verify', { ticket, code: '000000' })).statusCode);
    }
    expect(statuses.slice(0, 5)).toEqual([400, 400, 400, 400, 400]);
    expect(statuses[5]).toBe(429);
    // The right code waits too.
    const { ticket } = (await login(user)).json();
    const right = await post('/api/auth/second-factor/verify', { ticket, code: await codeAt(secret, 1) });
    expect(right.statusCode).toBe(429);
    expect(right.json().code).toBe('auth.account_locked');
  });
});

describe('enforcement on existing sessions', () => {
  it('refuses a session without a factor everywhere but "who am I" and the second-factor routes', async () => {
    const none = await createUser(app, 'director');
    const headers = await authHeaders(app, none); // a session begun before the installation required one
    const groups = await app.inject({ url: '/api/groups', headers });
    expect(groups.statusCode).toBe(403);
    expect(groups.json().code).toBe('auth.second_factor_enrolment_required');
    expect((await app.inject({ url: '/api/auth/me', headers })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/auth/second-factor', headers })).statusCode).toBe(200);

    const { user } = await enrolledDirector();
    const unproven = await authHeaders(app, user);
    const refused = await app.inject({ url: '/api/groups', headers: unproven });
    expect(refused.json().code).toBe('auth.second_factor_required');
    const proven = await authHeaders(app, user, { secondFactor: 'totp' });
    expect((await app.inject({ url: '/api/groups', headers: proven })).statusCode).toBe(200);
  });

  it('lets the session pass its factor in place (verify without a ticket)', async () => {
    const { user, recoveryCodes: codes } = await enrolledDirector();
    const headers = await authHeaders(app, user);
    const res = await post('/api/auth/second-factor/verify', { code: codes[0]! }, headers);
    expect(res.statusCode).toBe(200);
    expect((await app.inject({ url: '/api/groups', headers })).statusCode).toBe(200);
  });

  it('lets a session without any factor enrol, and then passes it', async () => {
    const user = await createUser(app, 'director');
    const headers = await authHeaders(app, user);
    const { secret } = (await post('/api/auth/second-factor/totp/enrol', {}, headers)).json();
    const res = await post(
      '/api/auth/second-factor/totp/confirm',
      { code: await codeAt(secret), label: 'Phone' },
      headers,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().recoveryCodes).toHaveLength(10);
    expect((await app.inject({ url: '/api/groups', headers })).statusCode).toBe(200);
  });
});

describe('My Account: GET, add, DELETE, new recovery codes', () => {
  it('lists the factors; a second app is added without new recovery codes', async () => {
    const { token } = await enrolledDirector();
    const headers = { authorization: `Bearer ${token}` };
    const list = await app.inject({ url: '/api/auth/second-factor', headers });
    expect(list.json()).toMatchObject({ required: true, recoveryCodesLeft: 10, factors: [{ kind: 'totp' }] });
    const { secret } = (await post('/api/auth/second-factor/totp/enrol', {}, headers)).json();
    const added = await post(
      '/api/auth/second-factor/totp/confirm',
      { code: await codeAt(secret), label: 'Tablet' },
      headers,
    );
    expect(added.json()).toEqual({});
    const after = (await app.inject({ url: '/api/auth/second-factor', headers })).json();
    expect(after.factors.map((f: { label: string }) => f.label)).toEqual(['Authenticator app', 'Tablet']);
  });

  it('refuses a visitor (401) on every signed-in route', async () => {
    expect((await app.inject({ url: '/api/auth/second-factor' })).statusCode).toBe(401);
    expect((await post('/api/auth/second-factor/recovery-codes', { code: '123456' })).statusCode).toBe(401);
    const del = await app.inject({ method: 'DELETE', url: `/api/auth/second-factor/${crypto.randomUUID()}` });
    expect(del.statusCode).toBe(401);
  });

  it("removes one's own factor but not the last one when required; an outsider's is not found", async () => {
    const { user, token } = await enrolledDirector();
    const headers = { authorization: `Bearer ${token}` };
    const [factor] = (await app.inject({ url: '/api/auth/second-factor', headers })).json().factors;
    const last = await app.inject({ method: 'DELETE', url: `/api/auth/second-factor/${factor.id}`, headers });
    expect(last.statusCode).toBe(409);
    expect(last.json().code).toBe('auth.second_factor_last_required');
    const outsider = await authHeaders(app, await createUser(app, 'employee'));
    const theirs = await app.inject({
      method: 'DELETE',
      url: `/api/auth/second-factor/${factor.id}`,
      headers: outsider,
    });
    expect(theirs.statusCode).toBe(404);
    const admin = await authHeaders(app, await createUser(app, 'admin'));
    expect(
      (await app.inject({ method: 'DELETE', url: `/api/auth/second-factor/${factor.id}`, headers: admin })).statusCode,
    ).toBe(404);
    const bad = await app.inject({ method: 'DELETE', url: '/api/auth/second-factor/nope', headers });
    expect(bad.statusCode).toBe(400);
    expect(user.id).toBeTruthy();
  });

  it('removes the last factor (and its recovery codes) where none is required', async () => {
    const employee = await createUser(app, 'employee');
    const headers = await authHeaders(app, employee);
    const { secret } = (await post('/api/auth/second-factor/totp/enrol', {}, headers)).json();
    await post('/api/auth/second-factor/totp/confirm', { code: await codeAt(secret) }, headers);
    const [factor] = (await app.inject({ url: '/api/auth/second-factor', headers })).json().factors;
    const res = await app.inject({ method: 'DELETE', url: `/api/auth/second-factor/${factor.id}`, headers });
    expect(res.statusCode).toBe(200);
    expect((await app.inject({ url: '/api/auth/second-factor', headers })).json()).toMatchObject({
      required: false,
      factors: [],
      recoveryCodesLeft: 0,
    });
  });

  it('makes 10 new recovery codes for a fresh code or in a fresh session; the old ones stop working', async () => {
    const { user, token, secret, recoveryCodes: old } = await enrolledDirector();
    const headers = { authorization: `Bearer ${token}` };
    const wrong = await post('/api/auth/second-factor/recovery-codes', { code: '000000' }, headers);
    expect(wrong.json()).toMatchObject({ code: 'auth.second_factor_code_invalid', field: 'code' });
    // Without a code, the session's own fresh sign-in is the check (decision 094; a stale one: factor-step-up.test.ts).
    const blank = await post('/api/auth/second-factor/recovery-codes', {}, headers);
    expect(blank.json().recoveryCodes).toHaveLength(10);
    const res = await post('/api/auth/second-factor/recovery-codes', { code: await codeAt(secret, 1) }, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().recoveryCodes).toHaveLength(10);
    const { ticket } = (await login(user)).json();
    expect((await post('/api/auth/second-factor/verify', { ticket, code: old[0]! })).statusCode).toBe(400);
  });

  it('refuses managing factors in a session that skipped an existing factor', async () => {
    const { user } = await enrolledDirector();
    const headers = await authHeaders(app, user);
    const res = await post('/api/auth/second-factor/totp/enrol', {}, headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('auth.second_factor_required');
  });
});

describe('POST /api/users/:id/second-factor/reset', () => {
  it("lets an admin reset another person's factor: factors gone, sessions ended, activity recorded", async () => {
    const { user, token } = await enrolledDirector();
    const admin = await createUser(app, 'admin');
    const headers = await authHeaders(app, admin, { secondFactor: 'totp' });
    const res = await post(`/api/users/${user.id}/second-factor/reset`, {}, headers);
    expect(res.statusCode).toBe(200);
    expect((await app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(
      401,
    );
    expect((await login(user)).json().code).toBe('auth.second_factor_enrolment_required');
    const [row] = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, user.id));
    expect(row).toMatchObject({ code: 'activity.user_second_factor_reset', userId: admin.id });
  });

  it('refuses an admin resetting their own, a director, an employee and a visitor', async () => {
    const admin = await createUser(app, 'admin');
    const own = await post(`/api/users/${admin.id}/second-factor/reset`, {}, await authHeaders(app, admin));
    expect(own.statusCode).toBe(403);
    expect(own.json().code).toBe('auth.second_factor_reset_own');
    const target = await createUser(app, 'employee');
    const director = await authHeaders(app, await createUser(app, 'director'), { secondFactor: 'totp' });
    expect((await post(`/api/users/${target.id}/second-factor/reset`, {}, director)).statusCode).toBe(403);
    const employee = await authHeaders(app, await createUser(app, 'employee'));
    expect((await post(`/api/users/${target.id}/second-factor/reset`, {}, employee)).json().code).toBe(
      'common.forbidden',
    );
    expect((await post(`/api/users/${target.id}/second-factor/reset`, {})).statusCode).toBe(401);
  });

  it('answers 404 for an unknown person', async () => {
    const headers = await authHeaders(app, await createUser(app, 'admin'));
    const res = await post(`/api/users/${crypto.randomUUID()}/second-factor/reset`, {}, headers);
    expect(res.statusCode).toBe(404);
  });
});
