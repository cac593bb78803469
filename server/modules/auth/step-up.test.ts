import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';

import { activityLogs, recoveryCodes, sessions, userFactors, type UserRow } from '#server/db/schema/index.ts';
import { hashPassword } from '#server/lib/passwords.ts';
import { replaceRecoveryCodes } from '#server/modules/mfa/recovery-codes.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { pdfWithText } from '#server/test/documents.ts';
import { createUser, letterFields, letterPdf, postLetter, TEST_PASSWORD, tokenFor } from '#server/test/factories.ts';

/**
 * The step-up before classified letters (decision 066): POST /api/auth/step-up, letters.open on
 * the card, history, dak trail, file and dak actions, and the search's links. Sessions are aged by their row's
 * verified_at, as a person 16 minutes after signing in would have it.
 */
buildTestAppBeforeAll();

const MINUTE = 60_000;
const aged = (minutes: number) => ({ verifiedAt: new Date(Date.now() - minutes * MINUTE) });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const word = () => `w${Math.random().toString(36).slice(2, 10)}`;

async function uploadLetter(app: FastifyInstance, user: UserRow, classification: string) {
  const res = await postLetter(
    app,
    user,
    letterFields({ letterSub: `Step up ${word()}`, classification }),
    // A page to watermark: a classified letter's PDF is sent watermarked, and one without a page is refused (decision 071).
    letterPdf('letter.pdf', pdfWithText('A letter')),
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { _id: string; letterId: string; letterSub: string; fileUrl: string };
}

const stepUp = (app: FastifyInstance, token: string | null, payload: unknown) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/step-up',
    headers: token ? bearer(token) : {},
    payload: payload as object,
  });

const REQUIRED = {
  code: 'auth.step_up_required',
  message: 'Please confirm it is you to carry on.',
  methods: ['password'],
};

describe('a Secret letter needs a sign-in or a check within STEP_UP_MINUTES (issue 30 item 4)', () => {
  it('opens within the window, and past it answers 401 auth.step_up_required with the methods', async () => {
    const app = await buildTestApp();
    const director = await createUser(app, 'director');
    const letter = await uploadLetter(app, director, 'Secret');
    const fresh = await tokenFor(app, director, aged(14));
    const stale = await tokenFor(app, director, aged(16));
    for (const url of [
      `/api/dac/${letter._id}`,
      `/api/dac/${letter._id}/history`,
      `/api/dac/${letter._id}/movements`,
    ]) {
      expect((await app.inject({ url, headers: bearer(fresh) })).statusCode, url).toBe(200);
      const res = await app.inject({ url, headers: bearer(stale) });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toMatchObject(REQUIRED);
    }
    // The file, by the download cookie (a link opened in a new tab).
    expect((await app.inject({ url: letter.fileUrl, cookies: { lp_token: fresh } })).statusCode).toBe(200);
    const file = await app.inject({ url: letter.fileUrl, cookies: { lp_token: stale } });
    expect(file.statusCode).toBe(401);
    expect(file.json()).toMatchObject(REQUIRED);
    expect(file.headers['content-disposition']).toBeUndefined();
    // The stale session is still signed in: a list is not an opening, and the Secret letter's line is there.
    const list = await app.inject({
      url: `/api/dac?q=${encodeURIComponent(letter.letterSub)}`,
      headers: bearer(stale),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((l: { _id: string }) => l._id)).toEqual([letter._id]);
    expect((await app.inject({ url: '/api/auth/me', headers: bearer(stale) })).statusCode).toBe(200);
  });

  it('asks an admin too, for the file and the card', async () => {
    const app = await buildTestApp();
    const director = await createUser(app, 'director');
    const admin = await createUser(app, 'admin');
    const letter = await uploadLetter(app, director, 'Secret');
    const stale = await tokenFor(app, admin, aged(20));
    expect((await app.inject({ url: letter.fileUrl, cookies: { lp_token: stale } })).statusCode).toBe(401);
    expect((await app.inject({ url: `/api/dac/${letter._id}`, headers: bearer(stale) })).statusCode).toBe(401);
    const fresh = await tokenFor(app, admin);
    expect((await app.inject({ url: letter.fileUrl, cookies: { lp_token: fresh } })).statusCode).toBe(200);
  });

  it('does not tell someone who may not see the letter that it is Secret: 404 and 403 as before', async () => {
    const app = await buildTestApp();
    const director = await createUser(app, 'director');
    const stranger = await createUser(app, 'employee');
    const letter = await uploadLetter(app, director, 'Secret');
    const stale = await tokenFor(app, stranger, aged(30));
    expect((await app.inject({ url: `/api/dac/${letter._id}`, headers: bearer(stale) })).statusCode).toBe(404);
    expect((await app.inject({ url: letter.fileUrl, cookies: { lp_token: stale } })).statusCode).toBe(403);
  });

  it('asks before marking a Secret letter, and marks it after the check', async () => {
    const app = await buildTestApp();
    const director = await createUser(app, 'director');
    const officer = await createUser(app, 'employee', { classifiedClearance: true });
    const letter = await uploadLetter(app, director, 'Secret');
    const stale = await tokenFor(app, director, aged(16));
    const mark = () =>
      app.inject({
        method: 'POST',
        url: `/api/dac/${letter._id}/movements`,
        headers: bearer(stale),
        payload: { to: [officer.id] },
      });
    const refused = await mark();
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject(REQUIRED);
    expect((await stepUp(app, stale, { password: TEST_PASSWORD })).statusCode).toBe(200);
    expect((await mark()).statusCode).toBe(201);
  });

  it('leaves Normal letters, and Confidential ones unless STEP_UP_CLASSIFICATIONS names them, as they were', async () => {
    const app = await buildTestApp();
    const director = await createUser(app, 'director');
    const stale = await tokenFor(app, director, aged(60));
    for (const classification of ['Normal', 'Confidential']) {
      const letter = await uploadLetter(app, director, classification);
      expect((await app.inject({ url: `/api/dac/${letter._id}`, headers: bearer(stale) })).statusCode).toBe(200);
      expect((await app.inject({ url: letter.fileUrl, cookies: { lp_token: stale } })).statusCode).toBe(200);
    }
  });

  it('asks for Confidential letters too when configured, within its own STEP_UP_MINUTES', async () => {
    const app = await buildTestApp({ STEP_UP_CLASSIFICATIONS: 'Confidential,Secret', STEP_UP_MINUTES: '5' });
    const director = await createUser(app, 'director');
    const letter = await uploadLetter(app, director, 'Confidential');
    const six = await tokenFor(app, director, aged(6));
    const four = await tokenFor(app, director, aged(4));
    expect((await app.inject({ url: `/api/dac/${letter._id}`, headers: bearer(six) })).statusCode).toBe(401);
    expect((await app.inject({ url: `/api/dac/${letter._id}`, headers: bearer(four) })).statusCode).toBe(200);
  });

  it('links a Secret letter found by the search to its register page, not to its file', async () => {
    const app = await buildTestApp();
    const director = await createUser(app, 'director');
    const secret = await uploadLetter(app, director, 'Secret');
    const normal = await uploadLetter(app, director, 'Normal');
    const token = await tokenFor(app, director);
    for (const [letter, file] of [
      [secret, false],
      [normal, true],
    ] as const) {
      const q = letter.letterSub.split(' ').pop()!;
      const res = await app.inject({ url: `/api/search?q=${q}`, headers: bearer(token) });
      expect(res.statusCode, res.body).toBe(200);
      const [hit] = res.json().results;
      // The Secret letter's link says it came from the search: its opening is recorded so (decision 070).
      expect(hit.url).toBe(file ? letter.fileUrl : `/allLetter?q=${letter.letterId}&from=search`);
    }
  });
});

describe('POST /api/auth/step-up', () => {
  it('refuses a visitor', async () => {
    const app = await buildTestApp();
    expect((await stepUp(app, null, { password: TEST_PASSWORD })).statusCode).toBe(401);
  });

  it.each([
    [{}, 'Enter your password or a code.', 'password'],
    [{ password: '', code: '  ' }, 'Enter your password or a code.', 'password'],
    [{ password: TEST_PASSWORD, code: '123456' }, 'Enter either your password or a code, not both.', 'code'],
    [{ code: '1'.repeat(65) }, 'A code is at most 64 characters.', 'code'],
    [{ password: 'p'.repeat(201) }, 'Password must be at most 200 characters.', 'password'],
  ])('says why %j is refused', async (payload, message, field) => {
    const app = await buildTestApp();
    const user = await createUser(app);
    const res = await stepUp(app, await tokenFor(app, user), payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, field });
  });

  it('with the right password: the session is proven now, with its activity row, and the letter opens', async () => {
    const app = await buildTestApp();
    const director = await createUser(app, 'director');
    const letter = await uploadLetter(app, director, 'Secret');
    const token = await tokenFor(app, director, aged(16));
    const before = Date.now();
    const res = await stepUp(app, token, { password: TEST_PASSWORD });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Confirmed.');
    expect(new Date(res.json().verifiedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const { sid } = app.jwt.decode<{ sid: string }>(token)!;
    const [row] = await app.db.select().from(sessions).where(eq(sessions.id, sid));
    expect(row!.verifiedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row!.secondFactor).toBeNull();
    const logs = await app.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.userId, director.id), eq(activityLogs.code, 'activity.identity_confirmed_password')));
    expect(logs).toHaveLength(1);
    expect(logs[0]!.action).toBe('Confirmed it was them with their password');
    expect((await app.inject({ url: `/api/dac/${letter._id}`, headers: bearer(token) })).statusCode).toBe(200);
    expect((await app.inject({ url: letter.fileUrl, cookies: { lp_token: token } })).statusCode).toBe(200);
  });

  it('with a wrong password: 400 on the password, the session stays as it was, no activity row', async () => {
    const app = await buildTestApp();
    const user = await createUser(app);
    const token = await tokenFor(app, user, aged(16));
    const res = await stepUp(app, token, { password: 'not-the-password' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'auth.step_up_wrong_password', field: 'password' });
    const { sid } = app.jwt.decode<{ sid: string }>(token)!;
    const [row] = await app.db.select().from(sessions).where(eq(sessions.id, sid));
    expect(Date.now() - row!.verifiedAt.getTime()).toBeGreaterThan(15 * MINUTE);
    const logs = await app.db.select().from(activityLogs).where(eq(activityLogs.userId, user.id));
    expect(logs.filter((l) => l.code?.startsWith('activity.identity_confirmed'))).toEqual([]);
  });

  it('is throttled like a sign-in: past LOGIN_ACCOUNT_FAILURES wrong answers the account waits', async () => {
    const app = await buildTestApp({ LOGIN_ACCOUNT_FAILURES: '2' });
    const user = await createUser(app);
    const token = await tokenFor(app, user, aged(16));
    expect((await stepUp(app, token, { password: 'wrong-1' })).statusCode).toBe(400);
    expect((await stepUp(app, token, { password: 'wrong-2' })).statusCode).toBe(400);
    const locked = await stepUp(app, token, { password: TEST_PASSWORD });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('auth.account_locked');
  });

  it('asks for the second factor of a person who has one (methods), and refuses their password', async () => {
    const app = await buildTestApp();
    const director = await createUser(app, 'director');
    await app.db.insert(userFactors).values({ userId: director.id, kind: 'totp', confirmedAt: new Date() });
    await app.db.insert(recoveryCodes).values({ userId: director.id, codeHash: await hashPassword('abcd-efgh') });
    const letter = await uploadLetter(app, director, 'Secret');
    const token = await tokenFor(app, director, aged(16));
    const refused = await app.inject({ url: `/api/dac/${letter._id}`, headers: bearer(token) });
    expect(refused.json()).toMatchObject({ code: 'auth.step_up_required', methods: ['totp', 'recovery'] });
    const res = await stepUp(app, token, { password: TEST_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'auth.step_up_use_factor', field: 'password' });
  });

  it('with a recovery code of a person who has a second factor: proven now, by that factor, with its activity row', async () => {
    const app = await buildTestApp();
    const director = await createUser(app, 'director');
    await app.db.insert(userFactors).values({ userId: director.id, kind: 'totp', confirmedAt: new Date() });
    const [code] = await replaceRecoveryCodes(app.db, director.id);
    const letter = await uploadLetter(app, director, 'Secret');
    const token = await tokenFor(app, director, { secondFactor: 'totp', ...aged(16) });
    const wrong = await stepUp(app, token, { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'auth.second_factor_code_invalid', field: 'code' });
    const res = await stepUp(app, token, { code: code! });
    expect(res.statusCode, res.body).toBe(200);
    const { sid } = app.jwt.decode<{ sid: string }>(token)!;
    const [row] = await app.db.select().from(sessions).where(eq(sessions.id, sid));
    expect(row!.secondFactor).toBe('recovery');
    const logs = await app.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.userId, director.id), eq(activityLogs.code, 'activity.identity_confirmed_code')));
    expect(logs).toHaveLength(1);
    expect((await app.inject({ url: `/api/dac/${letter._id}`, headers: bearer(token) })).statusCode).toBe(200);
  });

  it('refuses a code from a person without a second factor', async () => {
    const app = await buildTestApp();
    const user = await createUser(app);
    const res = await stepUp(app, await tokenFor(app, user), { code: '123456' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'auth.step_up_no_factor',
      message: 'You have no second factor: please confirm with your password.',
      field: 'code',
    });
  });

  it('tells a directory account to sign in again where the directory is no longer configured', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'director', { authSource: 'directory', passwordHash: null });
    const res = await stepUp(app, await tokenFor(app, user, { method: 'directory' }), { password: 'theirs' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('auth.step_up_sign_in_again');
  });

  it('offers an SSO account without a factor only a new sign-in', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'director', { authSource: 'sso', passwordHash: null });
    const letter = await uploadLetter(app, user, 'Secret');
    const token = await tokenFor(app, user, { method: 'sso', ...aged(16) });
    const refused = await app.inject({ url: `/api/dac/${letter._id}`, headers: bearer(token) });
    expect(refused.json().methods).toEqual(['sign_in']);
    const res = await stepUp(app, token, { password: 'anything' });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('auth.step_up_sign_in_again');
  });
});
