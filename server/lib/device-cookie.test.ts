import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser, TEST_PASSWORD } from '#server/test/factories.ts';

import { DEVICE_COOKIE } from './device-cookie.ts';

// Decision 041: OWASP's device cookies. Failures from elsewhere lock the account for untrusted
// sources only; the owner's browser, which signed in before, keeps signing in.

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const login = (app: FastifyInstance, email: string, password: string, address: string, device?: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: address,
    payload: { email, password },
    cookies: device ? { [DEVICE_COOKIE]: device } : {},
  });

/** Signs in and returns the device cookie the browser was given. */
async function trustedBrowser(app: FastifyInstance, email: string, address: string) {
  const res = await login(app, email, TEST_PASSWORD, address);
  expect(res.statusCode).toBe(200);
  const cookie = res.cookies.find((c) => c.name === DEVICE_COOKIE);
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/' });
  expect(cookie!.maxAge).toBeGreaterThan(0);
  return cookie!.value;
}

/** Wrong passwords from many addresses until the account is locked for untrusted sources. */
async function attack(app: FastifyInstance, email: string) {
  const codes: number[] = [];
  for (let i = 0; i < 8; i++) codes.push((await login(app, email, 'wrong-guess', `203.0.113.${i}`)).statusCode);
  expect(codes).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
}

describe('device cookies keep the owner signing in during an attack (issue 28 item 7)', () => {
  it.each([
    ['PostgreSQL', {}],
    ['Redis', { REDIS_URL: redisUrl }],
  ])('the owner signs in from their browser while the account is locked for others (%s)', async (_, env) => {
    const app = await buildTestApp(env);
    const director = await createUser(app, 'director');
    const colleague = await createUser(app, 'employee');
    const ownBrowser = await trustedBrowser(app, director.email, '10.1.0.5');
    const colleagueBrowser = await trustedBrowser(app, colleague.email, '10.1.0.6');
    await attack(app, director.email);

    // An untrusted client (no cookie, a forged one, another account's) is still refused, right password or not.
    for (const device of [undefined, 'forged.kq2x1c.AAAA', colleagueBrowser, `${ownBrowser}x`]) {
      const res = await login(app, director.email, TEST_PASSWORD, '10.1.0.7', device);
      expect(res.statusCode).toBe(429);
      expect(res.json().error).toMatch(/^Too many failed sign-in attempts for this account\./);
    }
    // The owner's browser signs in, from its own address or another, and gets a fresh cookie.
    const own = await login(app, director.email, TEST_PASSWORD, '10.1.0.5', ownBrowser);
    expect(own.statusCode).toBe(200);
    const fresh = own.cookies.find((c) => c.name === DEVICE_COOKIE)!.value;
    expect(fresh).not.toBe(ownBrowser);
    expect((await login(app, director.email, TEST_PASSWORD, '10.9.9.9', fresh)).statusCode).toBe(200);
    // The owner's success does not lift the lock for the others: the guesser gets no fresh attempts.
    expect((await login(app, director.email, 'wrong-guess', '203.0.113.50')).statusCode).toBe(429);
  });

  it("a trusted browser's own failures lock that cookie only, after which it counts as untrusted", async () => {
    const app = await buildTestApp();
    const owner = await createUser(app, 'employee');
    const [laptop, desktop] = [
      await trustedBrowser(app, owner.email, '10.2.0.1'),
      await trustedBrowser(app, owner.email, '10.2.0.2'),
    ];
    const typos = async (n: number, device?: string) => {
      const codes: number[] = [];
      for (let i = 0; i < n; i++) codes.push((await login(app, owner.email, 'typo', '10.2.0.1', device)).statusCode);
      return codes;
    };
    expect(await typos(5, laptop)).toEqual([401, 401, 401, 401, 401]);
    // Those failures counted for the laptop's cookie, not the account: another client is not held up at all.
    expect(await typos(4)).toEqual([401, 401, 401, 401]);
    expect((await login(app, owner.email, TEST_PASSWORD, '10.2.0.3')).statusCode).toBe(200);
    // The laptop's cookie is locked, so its failures now count for the account like any untrusted client's ...
    expect(await typos(6, laptop)).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await login(app, owner.email, TEST_PASSWORD, '10.2.0.3')).statusCode).toBe(429);
    expect((await login(app, owner.email, TEST_PASSWORD, '10.2.0.1', laptop)).statusCode).toBe(429);
    // ... while the desktop, trusted and unlocked, still signs in.
    expect((await login(app, owner.email, TEST_PASSWORD, '10.2.0.2', desktop)).statusCode).toBe(200);
  });

  it('the trusted browser can change its password during an attack', async () => {
    const app = await buildTestApp();
    const owner = await createUser(app, 'employee');
    const browser = await trustedBrowser(app, owner.email, '10.3.0.1');
    await attack(app, owner.email);
    const change = async (device?: string): Promise<LightMyRequestResponse> =>
      app.inject({
        method: 'PUT',
        url: `/api/users/${owner.id}/password`,
        headers: await authHeaders(app, owner),
        cookies: device ? { [DEVICE_COOKIE]: device } : {},
        payload: { currentPassword: TEST_PASSWORD, newPassword: 'brand-new-1' },
      });
    expect((await change()).statusCode).toBe(429);
    expect((await change(browser)).statusCode).toBe(200);
  });
});
