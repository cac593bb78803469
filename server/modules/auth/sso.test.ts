import { randomUUID } from 'node:crypto';

import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { activityLogs, auditEvents, notifications, sessions, users } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { createUser, TEST_PASSWORD } from '#server/test/factories.ts';
import {
  signInAtProvider,
  startTestProvider,
  TEST_CLIENT,
  TEST_ROLE_CLAIM,
  type TestProvider,
} from '#server/test/oidc-provider.ts';

// The portal's address as the provider knows it (its redirect URI); the tests call the app with inject.
const PORTAL_URL = 'http://localhost:3999';
const CALLBACK = `${PORTAL_URL}/api/auth/sso/callback`;

let provider: TestProvider;
let other: TestProvider;
let app: FastifyInstance;

const ssoEnv = (issuer: string) => ({
  PORTAL_URL,
  OIDC_ISSUER: issuer,
  OIDC_CLIENT_ID: TEST_CLIENT.id,
  OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
  OIDC_ROLE_CLAIM: TEST_ROLE_CLAIM,
  OIDC_ROLE_MAP: 'admin=portal-admins;director=directors;employee=staff',
  OIDC_BUTTON_LABEL_EN: 'Sign in with Parichay',
  OIDC_BUTTON_LABEL_HI: 'परिचय से लॉग इन करें',
});

beforeAll(async () => {
  provider = await startTestProvider(PORTAL_URL);
  other = await startTestProvider(PORTAL_URL);
  app = await buildTestApp(ssoEnv(provider.issuer));
});
afterAll(async () => {
  await provider?.close();
  await other?.close();
});

/** A person at the provider; a fresh subject and email for each test. */
function account(values: Record<string, unknown> = {}) {
  const sub = randomUUID();
  const login = sub; // the development sign-in form takes the subject as the login
  const claims = {
    sub,
    email: `p-${sub.slice(0, 8)}@lab.test`,
    email_verified: true,
    name: 'Sso Person',
    [TEST_ROLE_CLAIM]: ['staff'],
    ...values,
  };
  provider.accounts.set(login, claims);
  other.accounts.set(login, claims);
  return { login, claims };
}

/** GET /api/auth/sso/start: the provider's address and the flow cookie. */
async function start(target = app) {
  const res = await target.inject({ method: 'GET', url: '/api/auth/sso/start' });
  expect(res.statusCode).toBe(302);
  const cookie = res.cookies.find((c) => c.name === 'lp_sso');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth/sso' });
  return { location: res.headers.location!, cookie: cookie!.value };
}

/** The portal's callback with the provider's answer and the flow cookie: where it sends the browser. */
async function callback(url: string, cookie: string | undefined) {
  const { pathname, search } = new URL(url);
  const res = await app.inject({
    method: 'GET',
    url: `${pathname}${search}`,
    ...(cookie ? { cookies: { lp_sso: cookie } } : {}),
  });
  expect(res.statusCode).toBe(302);
  const to = new URL(res.headers.location!, PORTAL_URL);
  expect(to.pathname).toBe('/login');
  return { code: to.searchParams.get('sso'), error: to.searchParams.get('sso_error') };
}

/** The whole journey of one sign-in at the provider, up to the portal's redirect to /login. */
async function ssoSignIn(login: string) {
  const { location, cookie } = await start();
  const back = await signInAtProvider(location, login, CALLBACK);
  return callback(back, cookie);
}

const exchange = (code: string) => app.inject({ method: 'POST', url: '/api/auth/sso/exchange', payload: { code } });

describe('GET /api/auth/options', () => {
  it('answers the single sign-on button in English and Hindi when it is set up', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/auth/options' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.json()).toEqual({
      sso: { label: { en: 'Sign in with Parichay', hi: 'परिचय से लॉग इन करें' } },
      email: false, // no SMTP_URL: no "Forgot password?" (decision 077)
    });
  });

  it('answers sso null without OIDC_ISSUER, and /sso/start says it is not set up', async () => {
    const plain = await buildTestApp();
    expect((await plain.inject({ method: 'GET', url: '/api/auth/options' })).json()).toEqual({
      sso: null,
      email: false,
    });
    const res = await plain.inject({ method: 'GET', url: '/api/auth/sso/start' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?sso_error=auth.sso_not_configured');
  });
});

describe('GET /api/auth/sso/start', () => {
  it('sends the browser to the provider with PKCE (S256), state and nonce', async () => {
    const { location } = await start();
    const url = new URL(location);
    expect(url.origin).toBe(provider.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: TEST_CLIENT.id,
      redirect_uri: CALLBACK,
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
    });
    for (const p of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(p)).toBeTruthy();
  });

  it('says the provider cannot be reached when its discovery fails', async () => {
    const down = await startTestProvider(PORTAL_URL);
    await down.close();
    const lonely = await buildTestApp(ssoEnv(down.issuer));
    const res = await lonely.inject({ method: 'GET', url: '/api/auth/sso/start' });
    expect(res.headers.location).toBe('/login?sso_error=auth.sso_unavailable');
  });
});

describe('single sign-on, new and linked accounts', () => {
  it('creates an approved account with the mapped role, and the exchange answers what a login answers', async () => {
    const { login, claims } = account({ [TEST_ROLE_CLAIM]: ['somewhere-else', 'directors'] });
    const { code, error } = await ssoSignIn(login);
    expect(error).toBeNull();
    const res = await exchange(code!);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['token', 'user']);
    expect(body.user).toMatchObject({ email: claims.email, role: 'director' });
    expect(res.cookies.find((c) => c.name === 'lp_token')?.value).toBe(body.token);

    const [row] = await app.db.select().from(users).where(eq(users.email, claims.email));
    expect(row).toMatchObject({
      authSource: 'sso',
      passwordHash: null,
      ssoIssuer: provider.issuer,
      ssoSubject: claims.sub,
      status: 'approved',
      role: 'director',
      name: 'Sso Person',
    });
    const [session] = await app.db.select().from(sessions).where(eq(sessions.userId, row!.id));
    expect(session).toMatchObject({ method: 'sso' });
    expect(session!.ssoIdToken).toMatch(/^ey/);
    const me = await app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(me.statusCode).toBe(200);
    const logs = await app.db.select().from(activityLogs).where(eq(activityLogs.userId, row!.id));
    expect(logs.map((l) => l.code).sort()).toEqual(['activity.signed_in', 'activity.sso_registered']);
    // The audit trail (decision 069): the role mapping's grant, from nothing, then the sign-in.
    const events = await app.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.objectId, row!.id))
      .orderBy(asc(auditEvents.seq));
    expect(events.map((e) => [e.action, e.actorId, JSON.parse(e.details!)])).toEqual([
      ['status_changed', null, { from: null, to: 'approved', via: 'single_sign_on' }],
      ['role_changed', null, { from: null, to: 'director', via: 'single_sign_on' }],
      ['sign_in', row!.id, { method: 'sso', secondFactor: null }],
    ]);
  });

  it('signs the same account in again by its subject, even after its email changed at the provider', async () => {
    const { login, claims } = account({ [TEST_ROLE_CLAIM]: 'portal-admins' });
    const first = await exchange((await ssoSignIn(login)).code!);
    expect(first.json().user.role).toBe('admin');
    provider.accounts.set(login, { ...claims, email: `renamed-${claims.email}` });
    const second = await exchange((await ssoSignIn(login)).code!);
    expect(second.statusCode).toBe(200);
    expect(second.json().user._id).toBe(first.json().user._id);
  });

  it('makes a pending account when the role claim maps to no role, and sends the person back with the reason', async () => {
    const { login, claims } = account({ [TEST_ROLE_CLAIM]: ['visitors'] });
    expect(await ssoSignIn(login)).toEqual({ code: null, error: 'auth.account_pending' });
    const [row] = await app.db.select().from(users).where(eq(users.email, claims.email));
    expect(row).toMatchObject({ status: 'pending', role: 'employee', authSource: 'sso', passwordHash: null });
    // The admins are told of it as of a registration through the form ("Registration received").
    const admin = await createUser(app, 'admin');
    const other = account({ [TEST_ROLE_CLAIM]: ['visitors'] });
    await ssoSignIn(other.login);
    const [made] = await app.db.select().from(users).where(eq(users.email, other.claims.email));
    const told = await app.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, admin.id), eq(notifications.subjectId, made!.id)));
    expect(told.map((n) => n.kind)).toEqual(['registration_received']);
  });

  it('links an existing account whose email the provider verified, and records it', async () => {
    const local = await createUser(app, 'employee');
    const { login, claims } = account({ email: local.email.toUpperCase(), email_verified: true });
    const res = await exchange((await ssoSignIn(login)).code!);
    expect(res.json().user._id).toBe(local.id);
    const [row] = await app.db.select().from(users).where(eq(users.id, local.id));
    expect(row).toMatchObject({ ssoIssuer: provider.issuer, ssoSubject: claims.sub, authSource: 'local' });
    expect(row!.passwordHash).toBe(local.passwordHash); // the portal's password still works
    const [linked] = await app.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.userId, local.id), eq(activityLogs.code, 'activity.sso_linked')));
    expect(linked!.params).toEqual({ issuer: provider.issuer, email: local.email });
    // The audit trail's access change: no person made it, the provider's verified email did (decision 090).
    const [event] = await app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.objectId, local.id), eq(auditEvents.action, 'sso_link_changed')));
    expect(event).toMatchObject({ actorId: null, outcome: 'success' });
    expect(JSON.parse(event!.details!)).toEqual({
      from: null,
      to: provider.issuer,
      subject: claims.sub,
      via: 'single_sign_on',
    });
    const password = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: local.email, password: TEST_PASSWORD },
    });
    expect(password.statusCode).toBe(200);
  });

  it('never links by an email the provider did not verify: an administrator is asked to (decision 090)', async () => {
    const local = await createUser(app, 'employee');
    const { login } = account({ email: local.email, email_verified: false });
    expect(await ssoSignIn(login)).toEqual({ code: null, error: 'auth.sso_link_requested' });
    const [row] = await app.db.select().from(users).where(eq(users.id, local.id));
    expect(row!.ssoSubject).toBeNull();
  });

  it('refuses an account that was rejected or deactivated with its code', async () => {
    const rejected = await createUser(app, 'employee', { status: 'rejected', statusReason: 'Not staff' });
    const deactivated = await createUser(app, 'employee', { status: 'deactivated' });
    const a = account({ email: rejected.email });
    const b = account({ email: deactivated.email });
    expect((await ssoSignIn(a.login)).error).toBe('auth.account_rejected');
    expect((await ssoSignIn(b.login)).error).toBe('auth.account_deactivated');
    // The audit trail names the person the provider vouched for, refused (decision 069).
    for (const [user, code] of [
      [rejected, 'auth.account_rejected_reason'],
      [deactivated, 'auth.account_deactivated'],
    ] as const) {
      // (After the link the provider's verified email made, decision 090.)
      const [event] = await app.db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.objectId, user.id), eq(auditEvents.action, 'sign_in_failed')));
      expect(event).toMatchObject({ action: 'sign_in_failed', outcome: 'refused', actorId: user.id });
      expect(JSON.parse(event!.details!)).toEqual({ method: 'sso', login: user.email, code });
    }
  });

  it('refuses a provider account without an email', async () => {
    const { login } = account({ email: undefined });
    expect((await ssoSignIn(login)).error).toBe('auth.sso_no_email');
  });
});

describe('single sign-on refusals', () => {
  it('refuses a callback whose state is not the one this browser started with, or without the flow cookie', async () => {
    const { login } = account();
    const { location, cookie } = await start();
    const back = new URL(await signInAtProvider(location, login, CALLBACK));
    expect(await callback(back.href, undefined)).toEqual({ code: null, error: 'auth.sso_state_mismatch' });
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-the-state');
    expect(await callback(forged.href, cookie)).toEqual({ code: null, error: 'auth.sso_state_mismatch' });
    expect(await callback(back.href, `${cookie}x`)).toEqual({ code: null, error: 'auth.sso_state_mismatch' });
  });

  it('refuses a replayed authorization code', async () => {
    const { login } = account();
    const { location, cookie } = await start();
    const back = await signInAtProvider(location, login, CALLBACK);
    expect((await callback(back, cookie)).code).toBeTruthy();
    expect(await callback(back, cookie)).toEqual({ code: null, error: 'auth.sso_failed' });
  });

  it('refuses a replayed, unknown or empty exchange code', async () => {
    const { login } = account();
    const { code } = await ssoSignIn(login);
    expect((await exchange(code!)).statusCode).toBe(200);
    for (const again of [code!, 'made-up-code']) {
      const res = await exchange(again);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'auth.sso_code_invalid',
        message: 'This sign-in has expired or was already used. Please sign in again.',
      });
    }
    const empty = await exchange('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'auth.sso_code_invalid', field: 'code' });
  });

  it('refuses an exchange code older than a minute', async () => {
    const { login } = account();
    const { code } = await ssoSignIn(login);
    await app.pgPool.query(`update sso_exchange_codes set expires_at = now() - interval '1 second'`);
    expect((await exchange(code!)).json().code).toBe('auth.sso_code_invalid');
  });

  it('refuses an answer from another issuer (same client, same state, signed by another provider)', async () => {
    const { login } = account();
    const { location, cookie } = await start();
    const elsewhere = new URL(location);
    const target = new URL(other.issuer);
    elsewhere.host = target.host;
    const back = await signInAtProvider(elsewhere.href, login, CALLBACK);
    expect(new URL(back).searchParams.get('iss')).toBe(other.issuer);
    expect(await callback(back, cookie)).toEqual({ code: null, error: 'auth.sso_failed' });
  });

  it('says so when the provider answers with an error (the person cancelled)', async () => {
    const { location, cookie } = await start();
    const state = new URL(location).searchParams.get('state')!;
    const res = await callback(`${CALLBACK}?error=access_denied&state=${state}`, cookie);
    expect(res).toEqual({ code: null, error: 'auth.sso_provider_error' });
  });
});

describe('POST /api/auth/logout after single sign-on', () => {
  it("answers the provider's end-session address with the ID token; a password session answers the message only", async () => {
    const { login } = account();
    const { token } = (await exchange((await ssoSignIn(login)).code!)).json();
    const out = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(out.statusCode).toBe(200);
    const { message, logoutUrl } = out.json();
    expect(message).toBe('Signed out.');
    const url = new URL(logoutUrl);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${PORTAL_URL}/login`);
    // The provider accepts it: its sign-out confirmation page.
    expect((await fetch(url)).status).toBe(200);
    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect(me.statusCode).toBe(401);

    const local = await createUser(app, 'employee');
    const signedIn = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: local.email, password: TEST_PASSWORD },
    });
    const plain = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${signedIn.json().token}` },
    });
    expect(plain.json()).toEqual({ message: 'Signed out.' });
  });
});
