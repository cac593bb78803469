import { randomUUID } from 'node:crypto';

import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  activityLogs,
  auditEvents,
  notifications,
  ssoLinkRequests,
  type UserRow,
  users,
} from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';
import { signInAtProvider, startTestProvider, TEST_CLIENT, type TestProvider } from '#server/test/oidc-provider.ts';

// Decision 090: a first single sign-on whose email is an unlinked account's, unverified by the provider, leaves a link
// request that an administrator approves or dismisses; an admin may also remove an account's link. Against a real
// oidc-provider, as sso.test.ts.

const PORTAL_URL = 'http://localhost:3999';
const CALLBACK = `${PORTAL_URL}/api/auth/sso/callback`;

let provider: TestProvider;
let app: FastifyInstance;
let admin: UserRow;

beforeAll(async () => {
  provider = await startTestProvider(PORTAL_URL);
  app = await buildTestApp({
    PORTAL_URL,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: TEST_CLIENT.id,
    OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
  });
  admin = await createUser(app, 'admin', { name: 'Link Admin' });
});
afterAll(async () => {
  await provider?.close();
});

/** A person at the provider, by default claiming `email` without the provider having verified it. */
function person(email: string, values: Record<string, unknown> = {}) {
  const sub = randomUUID();
  const claims = { sub, email, email_verified: false, name: 'Provider Name', ...values };
  provider.accounts.set(sub, claims);
  return { login: sub, claims };
}

/** A whole single sign-on up to the portal's redirect to /login: the one-time code, or the refusal's code. */
async function ssoSignIn(login: string) {
  const started = await app.inject({ method: 'GET', url: '/api/auth/sso/start' });
  const cookie = started.cookies.find((c) => c.name === 'lp_sso')!.value;
  const back = new URL(await signInAtProvider(started.headers.location!, login, CALLBACK));
  const res = await app.inject({ method: 'GET', url: `${back.pathname}${back.search}`, cookies: { lp_sso: cookie } });
  const to = new URL(res.headers.location!, PORTAL_URL);
  return { code: to.searchParams.get('sso'), error: to.searchParams.get('sso_error') };
}

const requestsFor = (userId: string) => app.db.select().from(ssoLinkRequests).where(eq(ssoLinkRequests.userId, userId));
const as = async (user: UserRow) => authHeaders(app, user);

/** An account with a refused first sign-in waiting: the account, the provider person and the request. */
async function waitingRequest() {
  const account = await createUser(app, 'employee', { name: 'Waiting Person' });
  const who = person(account.email.toUpperCase(), { name: 'Waiting At Provider' });
  expect(await ssoSignIn(who.login)).toEqual({ code: null, error: 'auth.sso_link_requested' });
  const [request] = await requestsFor(account.id);
  return { account, who, request: request! };
}

describe('a first single sign-on with an unverified email of an unlinked account', () => {
  it('records a link request, tells the admins once, and refuses with auth.sso_link_requested; a repeat renews it', async () => {
    const account = await createUser(app, 'employee');
    const who = person(account.email, { name: 'Asha At Provider' });
    const first = await ssoSignIn(who.login);
    expect(first).toEqual({ code: null, error: 'auth.sso_link_requested' });
    const [request] = await requestsFor(account.id);
    expect(request).toMatchObject({
      issuer: provider.issuer,
      subject: who.claims.sub,
      email: account.email,
      name: 'Asha At Provider',
      userId: account.id,
    });
    const [row] = await app.db.select().from(users).where(eq(users.id, account.id));
    expect(row!.ssoSubject).toBeNull(); // never linked by itself
    const told = await app.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, admin.id), eq(notifications.kind, 'sso_link_requested')));
    expect(told.filter((n) => n.sourceId === request!.id)).toHaveLength(1);
    // The refusal is in the audit trail, naming the account (decision 069).
    const [refused] = await app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.objectId, account.id), eq(auditEvents.action, 'sign_in_failed')));
    expect(JSON.parse(refused!.details!)).toMatchObject({ method: 'sso', code: 'auth.sso_link_requested' });

    await app.pgPool.query(`update sso_link_requests set requested_at = now() - interval '1 hour' where id = $1`, [
      request!.id,
    ]);
    expect((await ssoSignIn(who.login)).error).toBe('auth.sso_link_requested');
    const again = await requestsFor(account.id);
    expect(again).toHaveLength(1);
    expect(again[0]!.id).toBe(request!.id);
    expect(again[0]!.requestedAt.getTime()).toBeGreaterThan(request!.requestedAt.getTime());
    const toldAgain = await app.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, admin.id), eq(notifications.sourceId, request!.id)));
    expect(toldAgain).toHaveLength(1);
  });

  it('keeps auth.sso_email_in_use, without a request, for an account linked to another subject', async () => {
    const linked = await createUser(app, 'employee', { ssoIssuer: provider.issuer, ssoSubject: randomUUID() });
    const who = person(linked.email);
    expect(await ssoSignIn(who.login)).toEqual({ code: null, error: 'auth.sso_email_in_use' });
    expect(await requestsFor(linked.id)).toHaveLength(0);
  });
});

describe('GET /admin/sso-link-requests', () => {
  it("lists the waiting requests with the account's and the provider's names and emails", async () => {
    const { account, request } = await waitingRequest();
    const res = await app.inject({ method: 'GET', url: '/admin/sso-link-requests', headers: await as(admin) });
    expect(res.statusCode).toBe(200);
    const mine = res.json().find((r: { _id: string }) => r._id === request.id);
    expect(mine).toEqual({
      _id: request.id,
      issuer: provider.issuer,
      provider: { email: account.email, name: 'Waiting At Provider' },
      account: { _id: account.id, name: 'Waiting Person', email: account.email, role: 'employee', status: 'approved' },
      requestedAt: request.requestedAt.toISOString(),
    });
  });

  it('refuses a visitor (401), and employees, directors and associate directors (403)', async () => {
    expect((await app.inject({ method: 'GET', url: '/admin/sso-link-requests' })).statusCode).toBe(401);
    for (const role of ['employee', 'director', 'associate_director'] as const) {
      const res = await app.inject({
        method: 'GET',
        url: '/admin/sso-link-requests',
        headers: await as(await createUser(app, role)),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('common.forbidden');
    }
  });
});

describe('POST /admin/sso-link-requests/:requestId/approve', () => {
  it('links the account, deletes the request, records it, and the next single sign-on signs the person in', async () => {
    const { account, who, request } = await waitingRequest();
    const res = await app.inject({
      method: 'POST',
      url: `/admin/sso-link-requests/${request.id}/approve`,
      headers: await as(admin),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Single sign-on linked.' });
    const [row] = await app.db.select().from(users).where(eq(users.id, account.id));
    expect(row).toMatchObject({ ssoIssuer: provider.issuer, ssoSubject: who.claims.sub, authSource: 'local' });
    expect(await requestsFor(account.id)).toHaveLength(0);
    const [log] = await app.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.userId, admin.id), eq(activityLogs.targetId, account.id)));
    expect(log).toMatchObject({
      code: 'activity.sso_linked',
      params: { issuer: provider.issuer, email: account.email },
    });
    const [event] = await app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.objectId, account.id), eq(auditEvents.action, 'sso_link_changed')));
    expect(event).toMatchObject({ actorId: admin.id, outcome: 'success' });
    expect(JSON.parse(event!.details!)).toEqual({ from: null, to: provider.issuer, subject: who.claims.sub });

    const { code, error } = await ssoSignIn(who.login);
    expect(error).toBeNull();
    const exchange = await app.inject({ method: 'POST', url: '/api/auth/sso/exchange', payload: { code } });
    expect(exchange.statusCode).toBe(200);
    expect(exchange.json().user._id).toBe(account.id);
  });

  it('refuses with 409 when the account got linked meanwhile, or another account has the identity; the request stays', async () => {
    const { account, request } = await waitingRequest();
    await app.db
      .update(users)
      .set({ ssoIssuer: provider.issuer, ssoSubject: randomUUID() })
      .where(eq(users.id, account.id));
    const linked = await app.inject({
      method: 'POST',
      url: `/admin/sso-link-requests/${request.id}/approve`,
      headers: await as(admin),
    });
    expect(linked.statusCode).toBe(409);
    expect(linked.json()).toMatchObject({
      code: 'admin.sso_already_linked',
      message:
        'This account is already linked to single sign-on. Remove its link first if this sign-in should replace it.',
    });
    expect(await requestsFor(account.id)).toHaveLength(1);

    const other = await waitingRequest();
    await createUser(app, 'employee', { ssoIssuer: provider.issuer, ssoSubject: other.request.subject });
    const taken = await app.inject({
      method: 'POST',
      url: `/admin/sso-link-requests/${other.request.id}/approve`,
      headers: await as(admin),
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('admin.sso_identity_taken');
  });

  it('answers 404 for an unknown request and 400 for a malformed id', async () => {
    const headers = await as(admin);
    const unknown = await app.inject({
      method: 'POST',
      url: `/admin/sso-link-requests/${randomUUID()}/approve`,
      headers,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({
      code: 'admin.sso_request_not_found',
      message: 'This link request was not found: it may have been approved or dismissed already.',
    });
    const bad = await app.inject({ method: 'POST', url: '/admin/sso-link-requests/not-an-id/approve', headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'admin.sso_request_id_invalid', message: 'Invalid link request id.' });
  });

  it('refuses a visitor (401) and other roles (403), and leaves the request', async () => {
    const { account, request } = await waitingRequest();
    const url = `/admin/sso-link-requests/${request.id}/approve`;
    expect((await app.inject({ method: 'POST', url })).statusCode).toBe(401);
    for (const role of ['employee', 'director'] as const) {
      const res = await app.inject({ method: 'POST', url, headers: await as(await createUser(app, role)) });
      expect(res.statusCode).toBe(403);
    }
    expect(await requestsFor(account.id)).toHaveLength(1);
  });
});

describe('POST /admin/sso-link-requests/:requestId/dismiss', () => {
  it('deletes the request without linking, and logs it; a second dismissal is 404', async () => {
    const { account, request } = await waitingRequest();
    const headers = await as(admin);
    const url = `/admin/sso-link-requests/${request.id}/dismiss`;
    const res = await app.inject({ method: 'POST', url, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Link request dismissed.' });
    expect(await requestsFor(account.id)).toHaveLength(0);
    const [row] = await app.db.select().from(users).where(eq(users.id, account.id));
    expect(row!.ssoSubject).toBeNull();
    const [log] = await app.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, account.id), eq(activityLogs.code, 'activity.sso_link_dismissed')));
    expect(log).toMatchObject({ userId: admin.id, params: { issuer: provider.issuer, email: account.email } });
    expect((await app.inject({ method: 'POST', url, headers })).json().code).toBe('admin.sso_request_not_found');
    const bad = await app.inject({ method: 'POST', url: '/admin/sso-link-requests/123/dismiss', headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('admin.sso_request_id_invalid');
  });

  it('refuses a visitor (401) and other roles (403)', async () => {
    const { request } = await waitingRequest();
    const url = `/admin/sso-link-requests/${request.id}/dismiss`;
    expect((await app.inject({ method: 'POST', url })).statusCode).toBe(401);
    for (const role of ['employee', 'director'] as const) {
      const res = await app.inject({ method: 'POST', url, headers: await as(await createUser(app, role)) });
      expect(res.statusCode).toBe(403);
    }
  });
});

describe('DELETE /admin/users/:userId/sso-link', () => {
  it("removes the link, ends the account's sessions, records it; the identity's next sign-in asks to be linked again", async () => {
    const { account, who, request } = await waitingRequest();
    const headers = await as(admin);
    await app.inject({ method: 'POST', url: `/admin/sso-link-requests/${request.id}/approve`, headers });
    const { code } = await ssoSignIn(who.login);
    const signedIn = await app.inject({ method: 'POST', url: '/api/auth/sso/exchange', payload: { code } });
    const token = signedIn.json().token as string;

    // The managed user shows the link.
    const listed = await app.inject({
      method: 'GET',
      url: `/admin/users?q=${encodeURIComponent(account.email)}`,
      headers,
    });
    expect(listed.json().items[0]).toMatchObject({ _id: account.id, ssoIssuer: provider.issuer });

    const res = await app.inject({ method: 'DELETE', url: `/admin/users/${account.id}/sso-link`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Single sign-on link removed.' });
    const [row] = await app.db.select().from(users).where(eq(users.id, account.id));
    expect(row).toMatchObject({ ssoIssuer: null, ssoSubject: null });
    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect(me.statusCode).toBe(401);
    const [log] = await app.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, account.id), eq(activityLogs.code, 'activity.sso_unlinked')));
    expect(log).toMatchObject({ userId: admin.id, params: { issuer: provider.issuer, email: account.email } });
    const events = await app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.objectId, account.id), eq(auditEvents.action, 'sso_link_changed')))
      .orderBy(asc(auditEvents.seq));
    expect(events.map((e) => JSON.parse(e.details!))).toEqual([
      { from: null, to: provider.issuer, subject: who.claims.sub },
      { from: provider.issuer, to: null, subject: who.claims.sub },
    ]);

    expect((await ssoSignIn(who.login)).error).toBe('auth.sso_link_requested');
    const again = await app.inject({ method: 'DELETE', url: `/admin/users/${account.id}/sso-link`, headers });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'admin.sso_not_linked',
      message: 'This account is not linked to single sign-on.',
    });
  });

  it('answers 404 for an unknown account and 400 for a malformed id', async () => {
    const headers = await as(admin);
    const unknown = await app.inject({ method: 'DELETE', url: `/admin/users/${randomUUID()}/sso-link`, headers });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('users.not_found');
    const bad = await app.inject({ method: 'DELETE', url: '/admin/users/nobody/sso-link', headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'admin.invalid_user_id', message: 'Invalid user id.' });
  });

  it('refuses a visitor (401) and other roles (403), even for their own account', async () => {
    const linked = await createUser(app, 'director', { ssoIssuer: provider.issuer, ssoSubject: randomUUID() });
    const url = `/admin/users/${linked.id}/sso-link`;
    expect((await app.inject({ method: 'DELETE', url })).statusCode).toBe(401);
    expect((await app.inject({ method: 'DELETE', url, headers: await as(linked) })).statusCode).toBe(403);
    const employee = await createUser(app, 'employee');
    expect((await app.inject({ method: 'DELETE', url, headers: await as(employee) })).statusCode).toBe(403);
    const [row] = await app.db.select().from(users).where(eq(users.id, linked.id));
    expect(row!.ssoSubject).not.toBeNull();
  });
});
