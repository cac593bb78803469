import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { activityLogs, userFactors, webauthnChallenges } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';
import { SoftwareAuthenticator } from '#server/test/software-authenticator.ts';

import { addPasskeySignedIn, HOST, ORIGIN, post, URL_OF } from './passkeys.test-helpers.ts';

// Passkeys as a second factor (decision 065), with real WebAuthn bytes from a software authenticator
// (an ES256 key pair of node:crypto) checked by @simplewebauthn/server's real code.

buildTestAppBeforeAll();

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
