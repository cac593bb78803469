import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import {
  activityLogs,
  auditEvents,
  mailOutbox,
  passwordResetTokens,
  type UserRow,
  users,
} from '#server/db/schema/index.ts';
import { type BackgroundJobs, startBackgroundJobs } from '#server/jobs/job-queue.ts';
import { deliverMail } from '#server/modules/mail/mail.delivery.ts';
import { mailJobs } from '#server/modules/mail/mail.jobs.ts';
import { createMailTransport } from '#server/modules/mail/mail.transport.ts';
import { buildTestApp, TEST_JWT_SECRET } from '#server/test/app.ts';
import { authHeaders, createUser, TEST_PASSWORD } from '#server/test/factories.ts';
import { mailDrained } from '#server/test/mail-drained.ts';
import { startTestSmtp, type TestSmtp } from '#server/test/smtp-server.ts';

import { RESET_ANSWER_MS } from './password-reset.ts';
import { resetToken } from './reset-token.ts';

/*
 * Forgot password (decision 077), against a real SMTP server and the portal's own mail jobs: the link
 * comes by mail and is followed as the reset page would (its token posted with a new password).
 */
const PORTAL_URL = 'http://localhost:4321';
let smtp: TestSmtp;
let app: FastifyInstance;
let jobs: BackgroundJobs;

const settings = (smtpUrl: string) => ({ SMTP_URL: smtpUrl, MAIL_FROM: 'portal@lab.test', PORTAL_URL });

beforeAll(async () => {
  smtp = await startTestSmtp();
  app = await buildTestApp(settings(smtp.url));
  const database = {
    db: app.db,
    pool: app.pgPool,
    kind: app.dbKind,
    url: String(app.pgPool.options.connectionString),
    close: async () => {},
  };
  jobs = await startBackgroundJobs(
    { database, store: app.storage, config: app.config, log: { error() {}, info() {} } },
    [mailJobs({ retryDelaySeconds: 1, retryBackoff: false, pollingIntervalSeconds: 1 })],
  );
}, 60_000);
afterAll(async () => {
  await jobs.stop();
  await smtp.close();
});

const ask = (email: string, on = app, ip = '127.0.0.1') =>
  on.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email }, remoteAddress: ip });
const reset = (token: string, password: string, on = app) =>
  on.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password } });
const signIn = (email: string, password: string) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

/** The token of the newest reset mail to `user`, from its link (the `count`th mail). */
async function mailedToken(user: UserRow, count = 1): Promise<string> {
  const mails = await smtp.waitForMail(user.email, { count });
  const link = new URL(mails[count - 1]!.text.match(/https?:\/\/\S+/)![0]);
  expect(link.origin + link.pathname).toBe(`${PORTAL_URL}/reset-password`);
  return link.searchParams.get('token')!;
}

const auditOf = (action: 'password_reset_requested' | 'password_reset', userId?: string) =>
  app.db
    .select()
    .from(auditEvents)
    .where(
      userId ? and(eq(auditEvents.action, action), eq(auditEvents.actorId, userId)) : eq(auditEvents.action, action),
    )
    .orderBy(desc(auditEvents.seq));

const ANSWER = {
  message:
    'If this email belongs to an account of the portal, a link to reset its password has been sent to it. The link works for 30 minutes.',
};

describe('POST /api/auth/forgot-password', () => {
  it('answers an unknown email exactly as a known one, no sooner than the floor, and mails only the known', async () => {
    const user = await createUser(app, 'employee');
    const unknown = `nobody-${Date.now()}@lab.test`;
    let began = Date.now();
    const known = await ask(user.email);
    expect(Date.now() - began).toBeGreaterThanOrEqual(RESET_ANSWER_MS - 5);
    began = Date.now();
    const stranger = await ask(unknown);
    expect(Date.now() - began).toBeGreaterThanOrEqual(RESET_ANSWER_MS - 5);
    expect(known.statusCode).toBe(200);
    expect(stranger.statusCode).toBe(200);
    expect(stranger.body).toBe(known.body);
    expect(known.json()).toEqual(ANSWER);

    await mailedToken(user);
    await mailDrained(app.db); // every mail the portal will send has arrived
    expect(smtp.mailsTo(unknown)).toEqual([]);
    expect(await app.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, unknown))).toEqual([]);
    // The audit trail has both: the account's request, and the unknown one refused with the email typed.
    const [mine] = await auditOf('password_reset_requested', user.id);
    expect(mine).toMatchObject({ outcome: 'success', objectId: user.id, clientAddress: '127.0.0.1' });
    const refused = await auditOf('password_reset_requested');
    expect(refused.find((e) => e.details?.includes(unknown))).toMatchObject({ outcome: 'refused', actorId: null });
    const [logged] = await app.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.userId, user.id), eq(activityLogs.code, 'activity.password_reset_requested')));
    expect(logged).toBeDefined();
  });

  it("mails the link in the person's language, to an account awaiting approval too, never to a deactivated one", async () => {
    const hindi = await createUser(app, 'employee', { language: 'hi', status: 'pending' });
    const gone = await createUser(app, 'employee', { status: 'deactivated' });
    expect((await ask(hindi.email)).json()).toEqual(ANSWER);
    expect((await ask(gone.email)).json()).toEqual(ANSWER);
    const [mail] = await smtp.waitForMail(hindi.email);
    expect(mail!.subject).toBe('अपना लैब पोर्टल पासवर्ड रीसेट करें');
    expect(mail!.text).toContain('30 मिनट');
    expect(mail!.html).toContain('नया पासवर्ड चुनें');
    await mailDrained(app.db);
    expect(smtp.mailsTo(gone.email)).toEqual([]);
  });

  // A directory or single sign-on account: password-reset-elsewhere.test.ts (decision 094).

  it.each([
    [{}, 'auth.email_required'],
    [{ email: '' }, 'auth.email_required'],
    [{ email: 'not-an-email' }, 'common.email_invalid'],
  ])('refuses %j with %s', async (payload, code) => {
    const res = await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code, field: 'email' });
  });

  it('is throttled like sign-in: per typed email (known or not) and per address', async () => {
    const throttled = await buildTestApp({
      ...settings(smtp.url),
      LOGIN_ACCOUNT_FAILURES: '2',
      LOGIN_ADDRESS_FAILURES: '5',
    });
    const user = await createUser(throttled, 'employee');
    const unknown = `ghost-${Date.now()}@lab.test`;
    for (const email of [user.email, unknown]) {
      expect((await ask(email, throttled, '10.0.0.1')).statusCode).toBe(200);
      expect((await ask(email, throttled, '10.0.0.2')).statusCode).toBe(200);
      const third = await ask(email, throttled, '10.0.0.3');
      expect(third.statusCode).toBe(429);
      expect(third.json()).toMatchObject({ code: 'auth.reset_rate_limited' });
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    }
    // One address: five requests a day, whatever the emails.
    for (let i = 0; i < 5; i++)
      expect((await ask(`a${i}-${Date.now()}@lab.test`, throttled, '10.0.0.9')).statusCode).toBe(200);
    const sixth = await ask(`a6-${Date.now()}@lab.test`, throttled, '10.0.0.9');
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toMatchObject({ code: 'auth.reset_rate_limited' });
  });

  it('is refused with a code where the portal sends no mail', async () => {
    const plain = await buildTestApp();
    const res = await ask('someone@lab.test', plain);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'auth.reset_off' });
  });
});

describe('POST /api/auth/reset-password', () => {
  it('sets the new password from the mailed link, ends every session, and refuses the link a second time', async () => {
    const user = await createUser(app, 'employee');
    const headers = await authHeaders(app, user);
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode).toBe(200);
    await ask(user.email);
    const token = await mailedToken(user);

    const done = await reset(token, 'a-new-secret');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ message: 'Your password has been changed. Please sign in with your new password.' });
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode).toBe(401);
    expect((await signIn(user.email, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await signIn(user.email, 'a-new-secret')).statusCode).toBe(200);

    const again = await reset(token, 'another-secret');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'auth.reset_link_invalid' });
    expect((await signIn(user.email, 'a-new-secret')).statusCode).toBe(200);

    // Newest first: the second use refused, the reset itself.
    const events = await auditOf('password_reset', user.id);
    expect(events.map((e) => e.outcome)).toEqual(['refused', 'success']);
    const [logged] = await app.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.userId, user.id), eq(activityLogs.code, 'activity.password_reset_by_link')));
    expect(logged).toBeDefined();
  });

  it('refuses a link after its 30 minutes, and does not mail one that has already expired', async () => {
    const user = await createUser(app, 'employee');
    await ask(user.email);
    const token = await mailedToken(user);
    await app.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.userId, user.id));
    const late = await reset(token, 'a-new-secret');
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ code: 'auth.reset_link_invalid' });

    // A mail whose link expired before the relay took it is dropped, not sent (the relay was down half an hour).
    const [row] = await app.db.select().from(mailOutbox).where(eq(mailOutbox.userId, user.id));
    await app.db.update(mailOutbox).set({ status: 'queued' }).where(eq(mailOutbox.id, row!.id));
    const transport = createMailTransport(app.config.mail!);
    expect(await deliverMail(app.db, transport, app.config.mail!, TEST_JWT_SECRET, row!.id)).toBe('dropped');
    transport.close();
  });

  it('refuses an earlier link once another has reset the password', async () => {
    const user = await createUser(app, 'employee');
    await ask(user.email);
    const first = await mailedToken(user, 1);
    await ask(user.email);
    const second = await mailedToken(user, 2);
    expect(second).not.toBe(first);
    expect((await reset(second, 'second-secret')).statusCode).toBe(200);
    const old = await reset(first, 'first-secret');
    expect(old.statusCode).toBe(400);
    expect(old.json()).toMatchObject({ code: 'auth.reset_link_invalid' });
    expect((await signIn(user.email, 'second-secret')).statusCode).toBe(200);
  });

  it('refuses a link of an account that has since become a directory account', async () => {
    const user = await createUser(app, 'employee');
    await ask(user.email);
    const token = await mailedToken(user);
    await app.db.update(users).set({ authSource: 'directory' }).where(eq(users.id, user.id));
    expect((await reset(token, 'a-new-secret')).json()).toMatchObject({ code: 'auth.reset_link_invalid' });
  });

  it("refuses a made-up token, and checks the new password by the portal's rules", async () => {
    const made = await reset(resetToken(TEST_JWT_SECRET, '00000000-0000-4000-8000-000000000000'), 'a-new-secret');
    expect(made.statusCode).toBe(400);
    expect(made.json()).toMatchObject({ code: 'auth.reset_link_invalid' });
    const cases: [object, string, string][] = [
      [{ password: 'a-new-secret' }, 'auth.reset_token_required', 'token'],
      [{ token: ' ', password: 'a-new-secret' }, 'auth.reset_token_required', 'token'],
      [{ token: 'x'.repeat(201), password: 'a-new-secret' }, 'auth.reset_link_invalid', 'token'],
      [{ token: 'abc' }, 'auth.password_required', 'password'],
      [{ token: 'abc', password: '12345' }, 'auth.password_too_short', 'password'],
      [{ token: 'abc', password: 'x'.repeat(201) }, 'auth.password_too_long', 'password'],
    ];
    for (const [payload, code, field] of cases) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/reset-password', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code, field });
    }
  });

  it('wakes the mail jobs at once: the link arrives within a few seconds', async () => {
    const user = await createUser(app, 'employee');
    const began = Date.now();
    await ask(user.email);
    await vi.waitFor(() => expect(smtp.mailsTo(user.email)).toHaveLength(1), { timeout: 10_000, interval: 50 });
    expect(Date.now() - began).toBeLessThan(10_000);
  });
});
