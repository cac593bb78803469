import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';

import { activityLogs, sessions, userFactors, type UserRow, webauthnChallenges } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createUser, TEST_PASSWORD } from '#server/test/factories.ts';
import { SoftwareAuthenticator } from '#server/test/software-authenticator.ts';

// Passkeys as a second factor (decision 065), with real WebAuthn bytes from a software authenticator
// (an ES256 key pair of node:crypto) checked by @simplewebauthn/server's real code.

buildTestAppBeforeAll();

/** The portal's name in these requests: the RP ID and origin come from the request's host (PORTAL_URL unset). */
const HOST = 'portal.test';
const ORIGIN = `http://${HOST}`;
const URL_OF = {
  registrationOptions: '/api/auth/second-factor/passkey/registration-options',
  register: '/api/auth/second-factor/passkey/register',
  authenticationOptions: '/api/auth/second-factor/passkey/authentication-options',
  verify: '/api/auth/second-factor/passkey/verify',
} as const;

type Headers = Record<string, string>;
const post = (app: FastifyInstance, url: string, payload: object, headers: Headers = {}) =>
  app.inject({ method: 'POST', url, payload, headers: { host: HOST, ...headers } });

/** An app whose installation requires directors to pass a second factor (the sign-in then answers a ticket). */
const mfaApp = () => buildTestApp({ MFA_REQUIRED_ROLES: 'director' });

/** Adds a passkey to `user`'s account from My Account (signed in, no factor yet); answers the authenticator. */
async function addPasskeySignedIn(app: FastifyInstance, user: UserRow, headers?: Headers, label = 'Office laptop') {
  const h = headers ?? (await authHeaders(app, user));
  const key = new SoftwareAuthenticator(ORIGIN);
  const options = await post(app, URL_OF.registrationOptions, {}, h);
  expect(options.statusCode).toBe(200);
  const res = await post(app, URL_OF.register, { label, response: key.register(options.json()) }, h);
  expect(res.statusCode).toBe(200);
  return { key, answer: res.json() as { recoveryCodes?: string[] } };
}

/** The password step of a sign-in that needs a second factor: its answer (code, ticket, methods). */
async function passwordStep(app: FastifyInstance, user: UserRow) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password: TEST_PASSWORD },
    headers: { host: HOST },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { code: string; ticket: string; methods: string[] };
}

async function assertionFor(app: FastifyInstance, ticket: string, key: SoftwareAuthenticator) {
  const options = await post(app, URL_OF.authenticationOptions, { ticket });
  expect(options.statusCode).toBe(200);
  return key.assert(options.json());
}

describe('adding a passkey from My Account (signed in)', () => {
  it('refuses a visitor', async () => {
    const app = await buildTestApp();
    // Well-formed bodies: these routes also take a sign-in ticket in the body, so the body is read first.
    const key = new SoftwareAuthenticator(ORIGIN);
    const registration = key.register({ challenge: 'AAAA', rp: { id: HOST, name: 'x' }, user: { id: 'AAAA' } });
    const bodies = {
      registrationOptions: {},
      register: { label: 'x', response: registration },
      authenticationOptions: {},
      verify: { response: key.assert({ challenge: 'AAAA', rpId: HOST }) },
    };
    for (const [name, url] of Object.entries(URL_OF)) {
      const res = await post(app, url, bodies[name as keyof typeof URL_OF]);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('auth.sign_in_required');
    }
  });

  it('gives options bound to the request host, with user verification preferred, and keeps the challenge', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const res = await post(app, URL_OF.registrationOptions, {}, await authHeaders(app, user));
    expect(res.statusCode).toBe(200);
    const options = res.json();
    expect(options).toMatchObject({
      rp: { id: HOST, name: 'Lab Portal' },
      user: { name: user.email, displayName: user.name },
      attestation: 'none',
      authenticatorSelection: { userVerification: 'preferred', residentKey: 'preferred' },
      excludeCredentials: [],
    });
    const [kept] = await app.db
      .select()
      .from(webauthnChallenges)
      .where(eq(webauthnChallenges.challenge, options.challenge));
    expect(kept).toMatchObject({ userId: user.id, purpose: 'registration' });
    expect(kept!.expiresAt.getTime() - Date.now()).toBeGreaterThan(4 * 60 * 1000);
  });

  it('keeps the owner’s first passkey with 10 recovery codes and an activity row; the second excludes the first', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const headers = await authHeaders(app, user);
    const { key, answer } = await addPasskeySignedIn(app, user, headers);
    expect(answer.recoveryCodes).toHaveLength(10);
    const [factor] = await app.db.select().from(userFactors).where(eq(userFactors.userId, user.id));
    expect(factor).toMatchObject({ kind: 'passkey', label: 'Office laptop', credentialId: key.id, counter: 0 });
    expect(factor!.confirmedAt).toBeInstanceOf(Date);
    expect(factor!.transports).toEqual(['internal']);
    const logged = await app.db.select().from(activityLogs).where(eq(activityLogs.userId, user.id));
    expect(logged.map((l) => l.action)).toContain('Added a passkey (Office laptop)');
    // The session that added it has passed the second factor, so it may go on adding.
    const options = (await post(app, URL_OF.registrationOptions, {}, headers)).json();
    expect(options.excludeCredentials).toEqual([{ id: key.id, type: 'public-key', transports: ['internal'] }]);
    const second = new SoftwareAuthenticator(ORIGIN);
    const res = await post(app, URL_OF.register, { label: '', response: second.register(options) }, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    const labels = (await app.db.select().from(userFactors).where(eq(userFactors.userId, user.id))).map((f) => f.label);
    expect(labels.sort()).toEqual(['Office laptop', 'Passkey']);
    // My Account → Security lists both.
    const listed = await app.inject({ method: 'GET', url: '/api/auth/second-factor', headers });
    expect(listed.json().factors.map((f: { kind: string }) => f.kind)).toEqual(['passkey', 'passkey']);
  });

  it('an admin adds their own passkey like anyone', async () => {
    const app = await buildTestApp();
    const admin = await createUser(app, 'admin');
    const { answer } = await addPasskeySignedIn(app, admin);
    expect(answer.recoveryCodes).toHaveLength(10);
  });

  it('says why a missing or malformed answer, or a long name, is refused', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const headers = await authHeaders(app, user);
    const options = (await post(app, URL_OF.registrationOptions, {}, headers)).json();
    const good = new SoftwareAuthenticator(ORIGIN).register(options);
    for (const response of [
      undefined,
      {},
      { ...good, type: 'password' },
      { ...good, response: { clientDataJSON: '!' } },
    ]) {
      const res = await post(app, URL_OF.register, { label: 'x', response }, headers);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'auth.passkey_response_invalid',
        message: "The passkey's answer could not be read. Please try again.",
      });
    }
    const long = await post(app, URL_OF.register, { label: 'x'.repeat(61), response: good }, headers);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ code: 'auth.second_factor_label_too_long', field: 'label' });
  });

  it('uses a challenge once: the same answer again is refused', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const headers = await authHeaders(app, user);
    const options = (await post(app, URL_OF.registrationOptions, {}, headers)).json();
    const response = new SoftwareAuthenticator(ORIGIN).register(options);
    expect((await post(app, URL_OF.register, { label: 'a', response }, headers)).statusCode).toBe(200);
    const again = await post(app, URL_OF.register, { label: 'a', response }, headers);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({
      code: 'auth.passkey_challenge_expired',
      message: 'This passkey request has expired or was already used. Please try again.',
    });
  });

  it('refuses an expired challenge', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const headers = await authHeaders(app, user);
    const options = (await post(app, URL_OF.registrationOptions, {}, headers)).json();
    await app.db
      .update(webauthnChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(webauthnChallenges.challenge, options.challenge));
    const res = await post(
      app,
      URL_OF.register,
      { label: 'a', response: new SoftwareAuthenticator(ORIGIN).register(options) },
      headers,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('auth.passkey_challenge_expired');
  });

  it('refuses an answer made on another origin (a look-alike site) or for another RP ID, and keeps nothing', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const headers = await authHeaders(app, user);
    for (const wrong of [{ origin: 'http://portal.test.evil.example' }, { rpId: 'evil.example' }]) {
      const options = (await post(app, URL_OF.registrationOptions, {}, headers)).json();
      const response = new SoftwareAuthenticator(ORIGIN).register(options, wrong);
      const res = await post(app, URL_OF.register, { label: 'a', response }, headers);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'auth.passkey_not_verified',
        message: 'The passkey could not be verified. Please try again.',
      });
    }
    expect(await app.db.select().from(userFactors).where(eq(userFactors.userId, user.id))).toEqual([]);
  });

  it("refuses another person's challenge: options made for one person cannot be answered by another", async () => {
    const app = await buildTestApp();
    const owner = await createUser(app, 'employee');
    const stranger = await createUser(app, 'employee');
    const options = (await post(app, URL_OF.registrationOptions, {}, await authHeaders(app, owner))).json();
    const response = new SoftwareAuthenticator(ORIGIN).register(options);
    const res = await post(app, URL_OF.register, { label: 'a', response }, await authHeaders(app, stranger));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('auth.passkey_challenge_expired');
  });

  it('refuses an authenticator already registered', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const headers = await authHeaders(app, user);
    const { key } = await addPasskeySignedIn(app, user, headers);
    const options = (await post(app, URL_OF.registrationOptions, {}, headers)).json();
    const res = await post(app, URL_OF.register, { label: 'again', response: key.register(options) }, headers);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'auth.passkey_already_registered' });
  });

  it('a session that has not passed the second factor cannot add a passkey beside an existing factor', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    await addPasskeySignedIn(app, user);
    const bare = await authHeaders(app, user); // a session that skipped the second factor
    const res = await post(app, URL_OF.registrationOptions, {}, bare);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('auth.second_factor_required');
  });

  it('an admin cannot remove another person’s passkey; the owner can', async () => {
    const app = await buildTestApp();
    const owner = await createUser(app, 'employee');
    const admin = await createUser(app, 'admin');
    const stranger = await createUser(app, 'employee');
    const ownerHeaders = await authHeaders(app, owner);
    await addPasskeySignedIn(app, owner, ownerHeaders);
    const [factor] = await app.db.select().from(userFactors).where(eq(userFactors.userId, owner.id));
    const url = `/api/auth/second-factor/${factor!.id}`;
    for (const someone of [admin, stranger]) {
      const res = await app.inject({ method: 'DELETE', url, headers: await authHeaders(app, someone) });
      expect(res.statusCode).toBe(404);
    }
    const removed = await app.inject({ method: 'DELETE', url, headers: ownerHeaders });
    expect(removed.statusCode).toBe(200);
    expect(await app.db.select().from(userFactors).where(eq(userFactors.userId, owner.id))).toEqual([]);
  });
});

describe('signing in with a passkey (the ticket of the password step)', () => {
  it('sets up a passkey at sign-in when the role requires a factor: the session starts with it', async () => {
    const app = await mfaApp();
    const director = await createUser(app, 'director');
    const step = await passwordStep(app, director);
    expect(step.code).toBe('auth.second_factor_enrolment_required');
    expect(step.methods).toContain('passkey');
    const options = await post(app, URL_OF.registrationOptions, { ticket: step.ticket });
    expect(options.statusCode).toBe(200);
    const key = new SoftwareAuthenticator(ORIGIN);
    const res = await post(app, URL_OF.register, {
      ticket: step.ticket,
      label: 'Phone',
      response: key.register(options.json()),
    });
    expect(res.statusCode).toBe(200);
    const answer = res.json();
    expect(answer.user.email).toBe(director.email);
    expect(answer.recoveryCodes).toHaveLength(10);
    const me = await app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${answer.token}` },
    });
    expect(me.statusCode).toBe(200);
    const [session] = await app.db.select().from(sessions).where(eq(sessions.userId, director.id));
    expect(session!.secondFactor).toBe('passkey');
    // The ticket has done its work.
    const reuse = await post(app, URL_OF.registrationOptions, { ticket: step.ticket });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().code).toBe('auth.second_factor_ticket_invalid');
  });

  it('a ticket cannot add a passkey beside an existing factor', async () => {
    const app = await mfaApp();
    const director = await createUser(app, 'director');
    await addPasskeySignedIn(app, director);
    const step = await passwordStep(app, director);
    const res = await post(app, URL_OF.registrationOptions, { ticket: step.ticket });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('auth.second_factor_already_set_up');
  });

  it('signs the owner in with their passkey, offered first, and moves the counter', async () => {
    const app = await mfaApp();
    const director = await createUser(app, 'director');
    const { key } = await addPasskeySignedIn(app, director);
    const step = await passwordStep(app, director);
    expect(step.code).toBe('auth.second_factor_required');
    expect(step.methods[0]).toBe('passkey');
    const options = (await post(app, URL_OF.authenticationOptions, { ticket: step.ticket })).json();
    expect(options).toMatchObject({
      rpId: HOST,
      userVerification: 'preferred',
      allowCredentials: [{ id: key.id, type: 'public-key', transports: ['internal'] }],
    });
    const res = await post(app, URL_OF.verify, { ticket: step.ticket, response: key.assert(options) });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe(director.email);
    const me = await app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${res.json().token}` },
    });
    expect(me.statusCode).toBe(200);
    const [factor] = await app.db.select().from(userFactors).where(eq(userFactors.userId, director.id));
    expect(factor!.counter).toBe(1);
    expect(factor!.lastUsedAt).toBeInstanceOf(Date);
    const [session] = await app.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, director.id), eq(sessions.secondFactor, 'passkey')));
    expect(session).toBeDefined();
  });

  it('accepts a passkey without user verification (preferred, not required)', async () => {
    const app = await mfaApp();
    const director = await createUser(app, 'director');
    const { key } = await addPasskeySignedIn(app, director);
    const step = await passwordStep(app, director);
    const options = (await post(app, URL_OF.authenticationOptions, { ticket: step.ticket })).json();
    const res = await post(app, URL_OF.verify, {
      ticket: step.ticket,
      response: key.assert(options, { userVerified: false }),
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a replayed assertion: the challenge is gone, and the used ticket too', async () => {
    const app = await mfaApp();
    const director = await createUser(app, 'director');
    const { key } = await addPasskeySignedIn(app, director);
    const step = await passwordStep(app, director);
    const response = await assertionFor(app, step.ticket, key);
    expect((await post(app, URL_OF.verify, { ticket: step.ticket, response })).statusCode).toBe(200);
    const sameTicket = await post(app, URL_OF.verify, { ticket: step.ticket, response });
    expect(sameTicket.statusCode).toBe(401);
    expect(sameTicket.json().code).toBe('auth.second_factor_ticket_invalid');
    const next = await passwordStep(app, director);
    const replay = await post(app, URL_OF.verify, { ticket: next.ticket, response });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('auth.passkey_challenge_expired');
  });

  it('refuses an assertion made on another origin, or by a cloned authenticator whose counter went back', async () => {
    const app = await mfaApp();
    const director = await createUser(app, 'director');
    const { key } = await addPasskeySignedIn(app, director);
    let step = await passwordStep(app, director);
    let options = (await post(app, URL_OF.authenticationOptions, { ticket: step.ticket })).json();
    const phished = await post(app, URL_OF.verify, {
      ticket: step.ticket,
      response: key.assert(options, { origin: 'https://portal-test.evil.example' }),
    });
    expect(phished.statusCode).toBe(400);
    expect(phished.json().code).toBe('auth.passkey_not_verified');

    // A real use moves the counter to 2; a clone still at 0 answers 1.
    options = (await post(app, URL_OF.authenticationOptions, { ticket: step.ticket })).json();
    expect((await post(app, URL_OF.verify, { ticket: step.ticket, response: key.assert(options) })).statusCode).toBe(
      200,
    );
    key.counter = 0;
    step = await passwordStep(app, director);
    options = (await post(app, URL_OF.authenticationOptions, { ticket: step.ticket })).json();
    const cloned = await post(app, URL_OF.verify, { ticket: step.ticket, response: key.assert(options) });
    expect(cloned.statusCode).toBe(400);
    expect(cloned.json().code).toBe('auth.passkey_not_verified');
  });

  it("refuses another person's passkey with this person's ticket", async () => {
    const app = await mfaApp();
    const director = await createUser(app, 'director');
    const other = await createUser(app, 'director');
    await addPasskeySignedIn(app, director);
    const { key: othersKey } = await addPasskeySignedIn(app, other);
    const step = await passwordStep(app, director);
    const options = (await post(app, URL_OF.authenticationOptions, { ticket: step.ticket })).json();
    const res = await post(app, URL_OF.verify, { ticket: step.ticket, response: othersKey.assert(options) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'auth.passkey_unknown',
      message: 'This passkey is not registered to your account.',
    });
  });

  it('says why: no passkey yet, a bad ticket, a malformed answer', async () => {
    const app = await mfaApp();
    const director = await createUser(app, 'director');
    const step = await passwordStep(app, director);
    const none = await post(app, URL_OF.authenticationOptions, { ticket: step.ticket });
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({ code: 'auth.passkey_none', message: 'You have no passkey yet.' });
    const badTicket = await post(app, URL_OF.authenticationOptions, { ticket: 'not-a-ticket' });
    expect(badTicket.statusCode).toBe(401);
    expect(badTicket.json().code).toBe('auth.second_factor_ticket_invalid');
    const malformed = await post(app, URL_OF.verify, { ticket: step.ticket, response: { id: 'x' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe('auth.passkey_response_invalid');
  });

  it('a signed-in session passes it with a passkey: also the fresh check before Secret letters (decision 066)', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const { key } = await addPasskeySignedIn(app, user);
    const headers = await authHeaders(app, user);
    const options = (await post(app, URL_OF.authenticationOptions, {}, headers)).json();
    const res = await post(app, URL_OF.verify, { response: key.assert(options) }, headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().token).toBe(headers.authorization!.slice(7));
    const passed = await app.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(passed.filter((s) => s.secondFactor === 'passkey')).toHaveLength(2); // the one that added it, this one
    const sid = JSON.parse(Buffer.from(headers.authorization!.split('.')[1]!, 'base64url').toString()).sid;
    const current = passed.find((s) => s.id === sid)!;
    expect(Date.now() - current.verifiedAt.getTime()).toBeLessThan(60_000);
    const logged = await app.db.select().from(activityLogs).where(eq(activityLogs.userId, user.id));
    expect(logged.map((l) => l.code)).toContain('activity.identity_confirmed_passkey');
  });
});

describe('PORTAL_URL names the relying party (decision 065)', () => {
  it('binds passkeys to its host name and origin whatever the request says', async () => {
    const app = await buildTestApp({ PORTAL_URL: 'https://portal.lab.example' });
    const user = await createUser(app, 'employee');
    const headers = await authHeaders(app, user);
    const options = (await post(app, URL_OF.registrationOptions, {}, headers)).json();
    expect(options.rp.id).toBe('portal.lab.example');
    // An answer from the request's host (portal.test) is not from the portal's origin.
    const fromHost = new SoftwareAuthenticator(ORIGIN).register(options);
    expect((await post(app, URL_OF.register, { label: 'a', response: fromHost }, headers)).statusCode).toBe(400);
    const again = (await post(app, URL_OF.registrationOptions, {}, headers)).json();
    const right = new SoftwareAuthenticator('https://portal.lab.example').register(again);
    expect((await post(app, URL_OF.register, { label: 'a', response: right }, headers)).statusCode).toBe(200);
  });
});
