import { randomUUID } from 'node:crypto';

import { asc, eq, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';

import { type AuditEventRow, auditEvents, type UserRow, users } from '#server/db/schema/index.ts';
import { asDatabaseOwner, buildTestApp } from '#server/test/app.ts';
import { authHeaders, createGroup, createLab, createUser, TEST_PASSWORD, tokenFor } from '#server/test/factories.ts';

// What the portal records in the audit trail as it works (decision 069): sign-ins and their failures, the
// second factor, the step-up, sign-out; role, clearance, group and status changes; exports. Each test reads the
// events of its own people (as actor or object).
let app: FastifyInstance;
let mfa: FastifyInstance;
let admin: UserRow;
beforeAll(async () => {
  app = await buildTestApp();
  mfa = await buildTestApp({ MFA_REQUIRED_ROLES: 'director' });
  admin = await createUser(app, 'admin');
});

const UA = 'Mozilla/5.0 audit test';
const login = (over: FastifyInstance, email: string, password = TEST_PASSWORD) =>
  over.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    headers: { 'user-agent': UA },
  });

/** The events where this person is the actor or the object, oldest first. */
async function eventsOf(over: FastifyInstance, userId: string): Promise<AuditEventRow[]> {
  return over.db
    .select()
    .from(auditEvents)
    .where(or(eq(auditEvents.actorId, userId), eq(auditEvents.objectId, userId)))
    .orderBy(asc(auditEvents.seq));
}
const detailsOf = (e: AuditEventRow | undefined) => (e?.details ? JSON.parse(e.details) : null);

describe('sign-ins', () => {
  it('records a password sign-in under the person and their role, with the address and browser', async () => {
    const user = await createUser(app, 'director', { name: 'Signing Director' });
    expect((await login(app, user.email)).statusCode).toBe(200);
    const [event] = await eventsOf(app, user.id);
    expect(event).toMatchObject({
      action: 'sign_in',
      outcome: 'success',
      actorId: user.id,
      actorName: 'Signing Director',
      actorRole: 'director',
      clientAddress: '127.0.0.1',
      userAgent: UA,
      objectType: 'user',
      objectId: user.id,
      objectLabel: `Signing Director (${user.email})`,
    });
    expect(detailsOf(event)).toEqual({ method: 'password', secondFactor: null });
  });

  it('records a wrong password against the account with the login tried, never the password, and no actor', async () => {
    const user = await createUser(app, 'employee');
    const typed = user.email.toUpperCase();
    expect((await login(app, typed, 'Wrong-Secret-42')).statusCode).toBe(401);
    const [event] = await eventsOf(app, user.id);
    expect(event).toMatchObject({
      action: 'sign_in_failed',
      outcome: 'failure',
      actorId: null,
      objectId: user.id,
      clientAddress: '127.0.0.1',
      userAgent: UA,
    });
    // The login as the server reads it (lower case, loginInput).
    expect(detailsOf(event)).toEqual({ login: user.email, code: 'auth.invalid_credentials' });
    expect(JSON.stringify(event)).not.toContain('Wrong-Secret-42');
  });

  it('records an unknown login as the login tried', async () => {
    const typed = `nobody-${randomUUID().slice(0, 6)}@Lab.test`;
    expect((await login(app, typed, 'Guess-1234')).statusCode).toBe(401);
    const [event] = await app.db.select().from(auditEvents).where(eq(auditEvents.objectId, typed.toLowerCase()));
    expect(event).toMatchObject({
      action: 'sign_in_failed',
      outcome: 'failure',
      objectType: 'login',
      objectLabel: typed.toLowerCase(),
    });
    expect(detailsOf(event)).toEqual({ login: typed.toLowerCase(), code: 'auth.invalid_credentials' });
    expect(event!.details).not.toContain('Guess-1234');
  });

  it('records a refused account (pending, deactivated) as refused, naming the person who proved their password', async () => {
    for (const status of ['pending', 'deactivated'] as const) {
      const user = await createUser(app, 'employee', { status });
      expect((await login(app, user.email)).statusCode).toBe(403);
      const [event] = await eventsOf(app, user.id);
      expect(event, status).toMatchObject({ action: 'sign_in_failed', outcome: 'refused', actorId: user.id });
      expect(detailsOf(event).code).toBe(status === 'pending' ? 'auth.account_pending' : 'auth.account_deactivated');
    }
  });

  it('records the throttle refusing an account as refused', async () => {
    const throttled = await buildTestApp({ LOGIN_ACCOUNT_FAILURES: '2' });
    const user = await createUser(throttled, 'employee');
    for (let i = 0; i < 3; i++) await login(throttled, user.email, 'wrong-password');
    expect((await login(throttled, user.email, 'wrong-password')).statusCode).toBe(429);
    const codes = (await eventsOf(throttled, user.id)).map((e) => `${e.outcome} ${detailsOf(e).code}`);
    expect(codes.at(-1)).toBe('refused auth.account_locked');
    expect(codes).toContain('failure auth.invalid_credentials');
  });

  it('records a sign-out', async () => {
    const user = await createUser(app, 'employee');
    const token = await tokenFor(app, user);
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode).toBe(200);
    expect((await eventsOf(app, user.id)).map((e) => [e.action, e.actorId])).toEqual([['sign_out', user.id]]);
  });

  it('records signing out of one session and of every device (My Account → Security)', async () => {
    const user = await createUser(app, 'employee');
    const headers = await authHeaders(app, user);
    const other = await tokenFor(app, user);
    const { sid } = app.jwt.decode<{ sid: string }>(other)!;
    expect((await app.inject({ method: 'DELETE', url: `/api/auth/sessions/${sid}`, headers })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/auth/logout-all', headers })).statusCode).toBe(200);
    const events = await eventsOf(app, user.id);
    expect(events.map((e) => [e.action, e.actorId, detailsOf(e).sessions])).toEqual([
      ['sign_out', user.id, 'one'],
      ['sign_out', user.id, 'all'],
    ]);
  });
});

describe('the second factor', () => {
  const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
  const post = (url: string, payload: object) =>
    mfa.inject({ method: 'POST', url, payload, headers: { 'user-agent': UA } });

  it('records second_factor and sign_in when a sign-in passes it, and second_factor_failed for a wrong code', async () => {
    const user = await createUser(mfa, 'director');
    const { ticket } = (await login(mfa, user.email)).json<{ ticket: string }>();
    const { secret } = (await post('/api/auth/second-factor/totp/enrol', { ticket })).json<{ secret: string }>();
    expect(
      (await post('/api/auth/second-factor/totp/confirm', { ticket, code: await codeAt(secret) })).statusCode,
    ).toBe(200);
    const again = (await login(mfa, user.email)).json<{ ticket: string }>();
    const wrong = await post('/api/auth/second-factor/verify', { ticket: again.ticket, code: '000000' });
    expect(wrong.statusCode).toBe(400);
    const right = await post('/api/auth/second-factor/verify', { ticket: again.ticket, code: await codeAt(secret, 1) });
    expect(right.statusCode, right.body).toBe(200);
    const events = await eventsOf(mfa, user.id);
    expect(events.map((e) => `${e.action} ${e.outcome}`)).toEqual([
      'second_factor success',
      'sign_in success',
      'second_factor_failed failure',
      'second_factor success',
      'sign_in success',
    ]);
    expect(detailsOf(events[1])).toEqual({ method: 'password', secondFactor: 'totp' });
    expect(detailsOf(events[2])).toEqual({ method: 'code', code: 'auth.second_factor_code_invalid' });
    expect(events.every((e) => e.actorId === user.id && e.actorRole === 'director' && e.userAgent === UA)).toBe(true);
  });
});

describe('the fresh check before Secret letters', () => {
  it('records step_up when the password is right and step_up_failed when it is wrong', async () => {
    const user = await createUser(app, 'director');
    const headers = { ...(await authHeaders(app, user)), 'user-agent': UA };
    const step = (password: string) =>
      app.inject({ method: 'POST', url: '/api/auth/step-up', headers, payload: { password } });
    expect((await step('not-the-password')).statusCode).toBe(400);
    expect((await step(TEST_PASSWORD)).statusCode).toBe(200);
    const events = await eventsOf(app, user.id);
    expect(events.map((e) => `${e.action} ${e.outcome}`)).toEqual(['step_up_failed failure', 'step_up success']);
    expect(detailsOf(events[0])).toEqual({ method: 'password', code: 'auth.step_up_wrong_password' });
    expect(detailsOf(events[1])).toEqual({ method: 'password' });
  });
});

describe('role, clearance, group and status changes', () => {
  const as = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const res = await app.inject({ method, url, payload, headers: await authHeaders(app, admin) });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const changes = async (userId: string) =>
    (await eventsOf(app, userId))
      .filter((e) => e.action.endsWith('_changed'))
      .map((e) => ({ action: e.action, actor: e.actorId, role: e.actorRole, details: detailsOf(e) }));

  it('records an approval, a role and group change, a clearance and a deactivation with old and new values', async () => {
    const lab = await createLab(app);
    const [first, second] = [await createGroup(app), await createGroup(app)];
    const user = await createUser(app, 'pending_director', { status: 'pending' });
    await as('POST', `/admin/approve-user/${user.id}`, { labId: lab.id, groupId: first.id, role: 'employee' });
    await as('PUT', `/admin/users/${user.id}/access`, { role: 'associate_director', groupId: second.id });
    await as('PUT', `/admin/users/${user.id}/clearance`, { cleared: true });
    await as('POST', `/admin/users/${user.id}/deactivate`, { reason: 'Left the lab' });
    await as('POST', `/admin/users/${user.id}/reactivate`);
    const by = { actor: admin.id, role: 'admin' };
    expect(await changes(user.id)).toEqual([
      { action: 'status_changed', ...by, details: { from: 'pending', to: 'approved' } },
      { action: 'role_changed', ...by, details: { from: 'pending_director', to: 'employee' } },
      { action: 'group_changed', ...by, details: { from: null, to: { id: first.id, name: first.name } } },
      { action: 'role_changed', ...by, details: { from: 'employee', to: 'associate_director' } },
      {
        action: 'group_changed',
        ...by,
        details: { from: { id: first.id, name: first.name }, to: { id: second.id, name: second.name } },
      },
      { action: 'clearance_changed', ...by, details: { from: false, to: true } },
      { action: 'status_changed', ...by, details: { from: 'approved', to: 'deactivated', reason: 'Left the lab' } },
      { action: 'status_changed', ...by, details: { from: 'deactivated', to: 'approved' } },
    ]);
    const [event] = (await eventsOf(app, user.id)).filter((e) => e.action === 'clearance_changed');
    expect(event).toMatchObject({
      objectType: 'user',
      objectId: user.id,
      outcome: 'success',
      clientAddress: '127.0.0.1',
    });
  });

  it('records nothing for a change that changes nothing, and nothing of a refused change', async () => {
    const user = await createUser(app, 'employee');
    await as('PUT', `/admin/users/${user.id}/access`, { role: 'employee', groupId: null });
    await as('PUT', `/admin/users/${user.id}/clearance`, { cleared: false });
    const refused = await app.inject({
      method: 'PUT',
      url: `/admin/users/${admin.id}/access`,
      payload: { role: 'employee', groupId: null },
      headers: await authHeaders(app, admin),
    });
    expect(refused.statusCode).toBe(400);
    expect(await changes(user.id)).toEqual([]);
    expect(await app.db.select().from(auditEvents).where(eq(auditEvents.objectId, admin.id))).toEqual([]);
  });

  it('records a rejection with its reason', async () => {
    const user = await createUser(app, 'employee', { status: 'pending' });
    await as('POST', `/admin/reject-user/${user.id}`, { reason: 'Not on the rolls' });
    expect(await changes(user.id)).toEqual([
      {
        action: 'status_changed',
        actor: admin.id,
        role: 'admin',
        details: { from: 'pending', to: 'rejected', reason: 'Not on the rolls' },
      },
    ]);
  });

  it("records group changes made through a group's members: add, move, remove, and a new group's staff", async () => {
    const [a, b] = [await createGroup(app), await createGroup(app)];
    const user = await createUser(app, 'employee');
    await as('POST', `/api/groups/${a.id}/members`, { userIds: [user.id] });
    await as('PUT', `/api/groups/${a.id}/members/${user.id}`, { groupId: b.id });
    await as('DELETE', `/api/groups/${b.id}/members/${user.id}`);
    const res = await app.inject({
      method: 'POST',
      url: '/api/groups',
      payload: { name: `Audit Group ${randomUUID().slice(0, 6)}`, employees: [user.id] },
      headers: await authHeaders(app, admin),
    });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json<{ _id: string; name: string }>();
    const named = (g: { id: string; name: string }) => ({ id: g.id, name: g.name });
    expect((await changes(user.id)).map((c) => c.details)).toEqual([
      { from: null, to: named(a) },
      { from: named(a), to: named(b) },
      { from: named(b), to: null },
      { from: null, to: { id: made._id, name: made.name } },
    ]);
  });

  it('is written in the change’s transaction: a change whose audit row fails is not made', async () => {
    const user = await createUser(app, 'employee');
    const check = `audit_refuses_${user.id.slice(0, 8)}`;
    await asDatabaseOwner(app).execute(
      sql.raw(
        `alter table audit_events add constraint ${check} check (object_id is distinct from '${user.id}') not valid`,
      ),
    );
    try {
      const res = await app.inject({
        method: 'PUT',
        url: `/admin/users/${user.id}/clearance`,
        payload: { cleared: true },
        headers: await authHeaders(app, admin),
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('audit.unavailable');
    } finally {
      await asDatabaseOwner(app).execute(sql.raw(`alter table audit_events drop constraint ${check}`));
    }
    const [row] = await app.db.select().from(auditEvents).where(eq(auditEvents.objectId, user.id));
    expect(row).toBeUndefined();
    const [saved] = await app.db.select().from(users).where(eq(users.id, user.id));
    expect(saved!.classifiedClearance).toBe(false);
  });
});

describe('exports', () => {
  it('records the letters CSV and the pendency CSV as exported, with their filters', async () => {
    const director = await createUser(app, 'director');
    const headers = await authHeaders(app, director);
    expect((await app.inject({ url: '/api/dac/export?q=fire', headers })).statusCode).toBe(200);
    expect(
      (await app.inject({ url: '/api/dac/pendency/export?from=2026-01-01&to=2026-01-31', headers })).statusCode,
    ).toBe(200);
    const events = (await eventsOf(app, director.id)).filter((e) => e.action === 'exported');
    expect(events.map((e) => [e.objectId, e.actorRole, detailsOf(e).filters])).toEqual([
      ['letters', 'director', { q: 'fire', mine: false }],
      ['pendency', 'director', { from: '2026-01-01', to: '2026-01-31', group: null }],
    ]);
  });
});
