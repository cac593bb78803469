import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { activityLogs, sessions, userFactors } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';
import { SoftwareAuthenticator } from '#server/test/software-authenticator.ts';

import {
  addPasskeySignedIn,
  assertionFor,
  HOST,
  mfaApp,
  ORIGIN,
  passwordStep,
  post,
  URL_OF,
} from './passkeys.test-helpers.ts';

// Passkeys as a second factor (decision 065), with real WebAuthn bytes from a software authenticator
// (an ES256 key pair of node:crypto) checked by @simplewebauthn/server's real code.

buildTestAppBeforeAll();

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
