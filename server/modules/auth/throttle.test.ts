import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';

import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createUser, TEST_PASSWORD } from '#server/test/factories.ts';

buildTestAppBeforeAll();

const unique = () => `user-${Math.random().toString(36).slice(2, 10)}@lab.test`;
const login = (app: FastifyInstance, email: string, password: string, remoteAddress = '127.0.0.1') =>
  app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress, payload: { email, password } });

const registration = (email: string) => ({
  email,
  password: 'secret123',
  role: 'employee',
  personalDetails: { name: 'Asha Verma', mobile: '9876543210' },
  professionalDetails: { designation: "Scientist 'B'", cadre: 'DRDS' },
});

describe('sign-in throttling counts failures, not people (issue 13)', () => {
  it('lets one address sign in successfully 20 times: successes are never throttled', async () => {
    const app = await buildTestApp({ LOGIN_ADDRESS_FAILURES: '10' });
    const user = await createUser(app, 'employee');
    const codes: number[] = [];
    for (let i = 0; i < 20; i++) codes.push((await login(app, user.email, TEST_PASSWORD, '198.51.100.7')).statusCode);
    expect(codes).toEqual(new Array(20).fill(200));
  });

  it('throttles an account after failures from 20 addresses; another account from those addresses still signs in', async () => {
    const app = await buildTestApp();
    const victim = await createUser(app, 'admin');
    const colleague = await createUser(app, 'employee');
    const codes: number[] = [];
    for (let i = 0; i < 20; i++)
      codes.push((await login(app, victim.email, 'wrong-guess', `203.0.113.${i}`)).statusCode);
    expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(codes.slice(5)).toEqual(new Array(15).fill(429));
    // The right password does not get through while the account is throttled: no oracle for the guesser.
    const right = await login(app, victim.email, TEST_PASSWORD, '203.0.113.99');
    expect(right.statusCode).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect(right.json().error).toMatch(
      /^Too many failed sign-in attempts for this account\. Please try again in \d+ (seconds?|minutes?)\.$/,
    );
    for (let i = 0; i < 20; i++)
      expect((await login(app, colleague.email, TEST_PASSWORD, `203.0.113.${i}`)).statusCode).toBe(200);
  });

  it('answers an unknown email with the same 429 as a real one', async () => {
    const app = await buildTestApp();
    const real = await createUser(app, 'employee');
    const ghost = unique();
    for (let i = 0; i < 5; i++) {
      await login(app, real.email, 'wrong-guess', `192.0.2.${i}`);
      await login(app, ghost, 'wrong-guess', `192.0.2.${i}`);
    }
    const a = await login(app, real.email, 'wrong-guess', '192.0.2.50');
    const b = await login(app, ghost.toUpperCase(), 'wrong-guess', '192.0.2.51');
    expect([a.statusCode, b.statusCode]).toEqual([429, 429]);
    expect(a.json().error.replace(/\d+ \w+\.$/, '')).toBe(b.json().error.replace(/\d+ \w+\.$/, ''));
    expect(Object.keys(a.json()).sort()).toEqual(Object.keys(b.json()).sort());
  });

  it('grows the wait with each further failure', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    for (let i = 0; i < 5; i++) await login(app, user.email, 'wrong-guess');
    const first = Number((await login(app, user.email, 'wrong-guess')).headers['retry-after']);
    // The lock ends early only in the store: pretend the wait passed by clearing the lock, then fail once more.
    await app.pgPool.query(`delete from rate_limits where key like 'login_lock_account:%'`);
    expect((await login(app, user.email, 'wrong-guess')).statusCode).toBe(401);
    const second = Number((await login(app, user.email, 'wrong-guess')).headers['retry-after']);
    expect(second).toBeGreaterThan(first);
  });

  it('a successful sign-in clears the account failures', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    for (let i = 0; i < 4; i++) expect((await login(app, user.email, 'wrong-guess')).statusCode).toBe(401);
    expect((await login(app, user.email, TEST_PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(app, user.email, 'wrong-guess')).statusCode).toBe(401);
    expect((await login(app, user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('pauses an address that fails for many accounts, without clearing it by one success', async () => {
    const app = await buildTestApp({ LOGIN_ADDRESS_FAILURES: '3' });
    const own = await createUser(app, 'employee');
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) codes.push((await login(app, unique(), 'wrong-guess', '198.51.100.20')).statusCode);
    codes.push((await login(app, unique(), 'wrong-guess', '198.51.100.20')).statusCode);
    expect(codes).toEqual([401, 401, 401, 429]);
    // Another address is not affected.
    expect((await login(app, own.email, TEST_PASSWORD, '198.51.100.21')).statusCode).toBe(200);
  });

  it('cannot be dodged with a forged X-Forwarded-For from a client that is not a trusted proxy', async () => {
    const app = await buildTestApp({ LOGIN_ADDRESS_FAILURES: '3' });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '203.0.113.9',
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
        payload: { email: unique(), password: 'wrong-pass' },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([401, 401, 401, 429]);
  });
});

describe('the account allowance holds under concurrency (issue 28 item 6)', () => {
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

  it.each([
    ['PostgreSQL, one node', {}, 1],
    ['Redis, two nodes', { REDIS_URL: redisUrl }, 2],
  ] as const)('20 simultaneous wrong passwords from 20 addresses check 5 of them (%s)', async (_, env, nodes) => {
    const apps = await Promise.all(Array.from({ length: nodes }, () => buildTestApp({ ...env })));
    const victim = await createUser(apps[0]!, 'employee');
    const ghost = unique(); // an unknown email is throttled the same way
    for (const email of [victim.email, ghost]) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => login(apps[i % nodes]!, email, 'wrong-guess', `198.18.1.${i}`)),
      );
      const codes = answers.map((res) => res.statusCode);
      // A 401 is a password that was checked; the 429s were refused before argon2 ran.
      expect(codes.filter((c) => c === 401)).toHaveLength(5);
      expect(codes.filter((c) => c === 429)).toHaveLength(15);
      for (const res of answers.filter((r) => r.statusCode === 429))
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // And once the wait is over (pretended: the lock cleared), a burst gets exactly one more check.
    if (nodes === 1) {
      await apps[0]!.pgPool.query(`delete from rate_limits where key like 'login_lock_account:%'`);
      const codes = await Promise.all(
        Array.from(
          { length: 10 },
          async (_, i) => (await login(apps[0]!, victim.email, 'x', `198.18.2.${i}`)).statusCode,
        ),
      );
      expect(codes.filter((c) => c === 401)).toHaveLength(1);
    }
  });
});

describe('password change is throttled like sign-in', () => {
  it('throttles currentPassword guesses with a stolen token, and they count for the account', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const headers = await authHeaders(app, user);
    const change = (currentPassword: string) =>
      app.inject({
        method: 'PUT',
        url: `/api/users/${user.id}/password`,
        headers,
        payload: { currentPassword, newPassword: 'brand-new-1' },
      });
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await change(`guess-${i}`)).statusCode);
    expect(codes).toEqual([400, 400, 400, 400, 400, 429]);
    const right = await change(TEST_PASSWORD);
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toBeDefined();
    expect((await login(app, user.email, TEST_PASSWORD)).statusCode).toBe(429);
  });
});

describe('registration is limited per address', () => {
  it('refuses a burst of registrations from one address with 429, another address still registers', async () => {
    const app = await buildTestApp({ REGISTRATIONS_PER_ADDRESS: '3' });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/register',
        remoteAddress: '198.51.100.30',
        payload: registration(unique()),
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([201, 201, 201, 429]);
    const other = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: '198.51.100.31',
      payload: registration(unique()),
    });
    expect(other.statusCode).toBe(201);
  });
});

describe('with REDIS_URL the counters live in Redis, shared by every node (issue 15)', () => {
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

  it('failures spread over two nodes throttle the account on both', async () => {
    const [a, b] = await Promise.all([buildTestApp({ REDIS_URL: redisUrl }), buildTestApp({ REDIS_URL: redisUrl })]);
    const ghost = unique();
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const node = i % 2 ? b : a;
      codes.push((await login(node, ghost, 'wrong-guess', `198.18.0.${i}`)).statusCode);
    }
    expect(codes).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await login(a, ghost, 'wrong-guess', '198.18.0.77')).statusCode).toBe(429);
    expect((await login(b, ghost, 'wrong-guess', '198.18.0.78')).statusCode).toBe(429);
  });
});
