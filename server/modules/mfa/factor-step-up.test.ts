import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { generate } from 'otplib';
import { beforeAll, describe, expect, it } from 'vitest';

import { userFactors, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser, TEST_PASSWORD } from '#server/test/factories.ts';
import { SoftwareAuthenticator } from '#server/test/software-authenticator.ts';

// Changing one's second factors needs a step-up (decision 094): adding or removing an authenticator app or a
// passkey, or making new recovery codes, in a session whose sign-in or last check is older than STEP_UP_MINUTES (15
// by default) answers 401 auth.step_up_required with the methods, and works once POST /api/auth/step-up (or a passkey
// in the session) has been given.

const HOST = 'portal.test';
const ORIGIN = `http://${HOST}`;
const MINUTE = 60_000;
/** A session signed in (or last checked) 20 minutes ago: past STEP_UP_MINUTES. */
const stale = { verifiedAt: new Date(Date.now() - 20 * MINUTE) };

type Headers = Record<string, string>;
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});

const post = (url: string, payload: object, headers: Headers) =>
  app.inject({ method: 'POST', url, payload, headers: { host: HOST, ...headers } });
const remove = (id: string, headers: Headers) =>
  app.inject({ method: 'DELETE', url: `/api/auth/second-factor/${id}`, headers });
const codeAt = (secret: string, offsetSteps: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });
const factorsOf = (user: UserRow, kind: 'totp' | 'passkey') =>
  app.db
    .select()
    .from(userFactors)
    .where(and(eq(userFactors.userId, user.id), eq(userFactors.kind, kind)));

/** Expects the refusal of a stale session: 401 auth.step_up_required with these methods. */
function expectStepUp(res: { statusCode: number; json: () => unknown }, methods: string[]) {
  expect(res.statusCode).toBe(401);
  expect(res.json()).toMatchObject({ code: 'auth.step_up_required', methods });
}

/** Sets up an authenticator app in a fresh session: its secret (confirmed with the previous step's code). */
async function withAuthenticator(user: UserRow) {
  const headers = await authHeaders(app, user);
  const { secret } = (await post('/api/auth/second-factor/totp/enrol', {}, headers)).json<{ secret: string }>();
  const confirmed = await post('/api/auth/second-factor/totp/confirm', { code: await codeAt(secret, -1) }, headers);
  expect(confirmed.statusCode).toBe(200);
  return { secret, recoveryCodes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes };
}

describe('an authenticator app and recovery codes', () => {
  it('adds the first factor only after a fresh check with the password', async () => {
    const user = await createUser(app, 'employee');
    const headers = await authHeaders(app, user, stale);
    expectStepUp(await post('/api/auth/second-factor/totp/enrol', {}, headers), ['password']);
    expect((await post('/api/auth/step-up', { password: TEST_PASSWORD }, headers)).statusCode).toBe(200);
    const enrol = await post('/api/auth/second-factor/totp/enrol', {}, headers);
    expect(enrol.statusCode).toBe(200);
    const code = await codeAt(enrol.json<{ secret: string }>().secret, 0);
    expect((await post('/api/auth/second-factor/totp/confirm', { code }, headers)).statusCode).toBe(200);
    expect(await factorsOf(user, 'totp')).toHaveLength(1);
  });

  it('refuses a confirmation in a stale session (the enrolment begun in a fresh one)', async () => {
    const user = await createUser(app, 'employee');
    const fresh = await authHeaders(app, user);
    const { secret } = (await post('/api/auth/second-factor/totp/enrol', {}, fresh)).json<{ secret: string }>();
    const res = await post(
      '/api/auth/second-factor/totp/confirm',
      { code: await codeAt(secret, 0) },
      await authHeaders(app, user, stale),
    );
    expectStepUp(res, ['password']);
    expect((await factorsOf(user, 'totp')).filter((f) => f.confirmedAt)).toHaveLength(0);
  });

  it('removes a factor and makes new recovery codes only after a fresh check with a code', async () => {
    const user = await createUser(app, 'employee');
    const { secret, recoveryCodes } = await withAuthenticator(user);
    const [factor] = await factorsOf(user, 'totp');
    const headers = await authHeaders(app, user, { ...stale, secondFactor: 'totp' });

    expectStepUp(await remove(factor!.id, headers), ['totp', 'recovery']);
    expectStepUp(await post('/api/auth/second-factor/recovery-codes', {}, headers), ['totp', 'recovery']);
    expect(await factorsOf(user, 'totp')).toHaveLength(1);

    // A current code in the request is a step-up of its own.
    const renewed = await post('/api/auth/second-factor/recovery-codes', { code: await codeAt(secret, 0) }, headers);
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().recoveryCodes).toHaveLength(10);
    expect(renewed.json().recoveryCodes).not.toContain(recoveryCodes[0]);

    // The dialog's check (a recovery code here), then the same calls go through.
    const check = await post('/api/auth/step-up', { code: renewed.json().recoveryCodes[0] }, headers);
    expect(check.statusCode).toBe(200);
    const again = await post('/api/auth/second-factor/recovery-codes', {}, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json().recoveryCodes).toHaveLength(10);
    expect((await remove(factor!.id, headers)).statusCode).toBe(200);
    expect(await factorsOf(user, 'totp')).toHaveLength(0);
  });

  it('still refuses a session that skipped its second factor, before any fresh check', async () => {
    const user = await createUser(app, 'employee');
    await withAuthenticator(user);
    const [factor] = await factorsOf(user, 'totp');
    const res = await remove(factor!.id, await authHeaders(app, user, stale));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('auth.second_factor_required');
  });
});

describe('passkeys', () => {
  it('adds a passkey after a fresh check, and removes it after a check with the passkey itself', async () => {
    const user = await createUser(app, 'employee');
    const headers = await authHeaders(app, user, stale);
    const optionsUrl = '/api/auth/second-factor/passkey/registration-options';
    expectStepUp(await post(optionsUrl, {}, headers), ['password']);
    expect((await post('/api/auth/step-up', { password: TEST_PASSWORD }, headers)).statusCode).toBe(200);
    const key = new SoftwareAuthenticator(ORIGIN);
    const options = await post(optionsUrl, {}, headers);
    expect(options.statusCode).toBe(200);
    const registered = await post(
      '/api/auth/second-factor/passkey/register',
      { label: 'Office laptop', response: key.register(options.json()) },
      headers,
    );
    expect(registered.statusCode).toBe(200);
    const [passkey] = await factorsOf(user, 'passkey');

    // Later, in a stale session that passed the passkey at sign-in: adding another or removing it needs a check.
    const later = await authHeaders(app, user, { ...stale, secondFactor: 'passkey' });
    expectStepUp(await post(optionsUrl, {}, later), ['passkey', 'recovery']);
    expectStepUp(await remove(passkey!.id, later), ['passkey', 'recovery']);
    const assertion = await post('/api/auth/second-factor/passkey/authentication-options', {}, later);
    const verified = await post(
      '/api/auth/second-factor/passkey/verify',
      { response: key.assert(assertion.json()) },
      later,
    );
    expect(verified.statusCode).toBe(200);
    expect((await remove(passkey!.id, later)).statusCode).toBe(200);
    expect(await factorsOf(user, 'passkey')).toHaveLength(0);
  });
});
