import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createUser, TEST_PASSWORD } from '#server/test/factories.ts';
import { listRoutes } from '#server/test/routes.ts';

import { HSTS, PERMISSIONS_POLICY } from './security-headers.ts';

// Decision 116: every answer of every route carries the security headers, as a visitor and as an admin, over plain
// http and behind a TLS proxy (X-Forwarded-Proto from the loopback proxy TRUST_PROXY trusts by default).

buildTestAppBeforeAll();

type Headers = Record<string, string | string[] | number | undefined>;

/** Each header checked on one answer; `tls`: the request came through https. */
function expectSecurityHeaders(headers: Headers, where: string, tls: boolean) {
  const csp = String(headers['content-security-policy']);
  const file = where.includes(' /uploads/');
  expect(csp, where).toContain("default-src 'self'");
  expect(csp, where).toMatch(/script-src 'self' ?;/);
  expect(csp, where).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  expect(csp, where).toContain("script-src-attr 'none'");
  expect(csp, where).toContain("object-src 'none'");
  expect(csp, where).not.toMatch(/https:|validator/);
  expect(csp, where).toContain(file ? "frame-ancestors 'self'" : "frame-ancestors 'none'");
  expect(headers['x-frame-options'], where).toBe(file ? 'SAMEORIGIN' : 'DENY');
  expect(headers['referrer-policy'], where).toBe('no-referrer');
  expect(headers['permissions-policy'], where).toBe(PERMISSIONS_POLICY);
  expect(headers['x-content-type-options'], where).toBe('nosniff');
  expect(headers['x-powered-by'], where).toBeUndefined();
  expect(headers.server, where).toBeUndefined();
  expect(headers['strict-transport-security'], where).toBe(tls ? HSTS : undefined);
}

/** A request for every route (parameters filled with a new id), as it is or behind TLS. */
async function sweep(headers: Record<string, string>, tls: boolean) {
  const app = await buildTestApp();
  const routes = listRoutes(app);
  expect(routes.length).toBeGreaterThan(100);
  for (const { method, url } of routes) {
    const address = url.replace(/:[A-Za-z]+/g, randomUUID());
    const res = await app.inject({
      method: method as 'GET',
      url: address,
      headers: { ...headers, ...(tls ? { 'x-forwarded-proto': 'https' } : {}) },
    });
    expectSecurityHeaders(res.headers, `${method} ${address} (${res.statusCode})`, tls);
  }
}

describe('security headers on every route', () => {
  it('as a visitor, over http: no HSTS', { timeout: 120_000 }, async () => {
    await sweep({}, false);
  });

  it('as a visitor, behind TLS: HSTS', { timeout: 120_000 }, async () => {
    await sweep({}, true);
  });

  it('as an admin, behind TLS', { timeout: 120_000 }, async () => {
    const app = await buildTestApp();
    const admin = await createUser(app, 'admin');
    await sweep(await authHeaders(app, admin), true);
  });
});

describe('the sign-in cookie is Secure behind TLS only', () => {
  async function signIn(tls: boolean) {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: tls ? { 'x-forwarded-proto': 'https' } : {},
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(cookies.length).toBeGreaterThan(0);
    return cookies;
  }

  it('Secure when the request came over https through the trusted proxy', async () => {
    for (const cookie of await signIn(true)) expect(cookie).toMatch(/; Secure/);
  });

  it('not Secure over plain http (a browser would drop it)', async () => {
    for (const cookie of await signIn(false)) expect(cookie).not.toMatch(/; Secure/);
  });
});
