import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { activityLogs, auditEvents, passwordResetTokens, type UserRow } from '#server/db/schema/index.ts';
import { type BackgroundJobs, startBackgroundJobs } from '#server/jobs/job-queue.ts';
import { mailJobs } from '#server/modules/mail/mail.jobs.ts';
import { buildTestApp } from '#server/test/app.ts';
import { createUser } from '#server/test/factories.ts';
import { startTestSmtp, type TestSmtp } from '#server/test/smtp-server.ts';

/*
 * Forgot password says nothing about accounts (decision 094), against a real SMTP server and the portal's mail jobs:
 * a directory or single sign-on account gets the one answer every email gets, and is told where its password lives
 * by mail, in its language; and a new link ends every earlier one.
 */
const PORTAL_URL = 'http://localhost:4321';
let smtp: TestSmtp;
let app: FastifyInstance;
let jobs: BackgroundJobs;

beforeAll(async () => {
  smtp = await startTestSmtp();
  app = await buildTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'portal@lab.test', PORTAL_URL });
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

const ask = (email: string) => app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
const reset = (token: string, password: string) =>
  app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, password } });

/** The token of the `count`th reset mail to `user`, from its link. */
async function mailedToken(user: UserRow, count: number): Promise<string> {
  const mails = await smtp.waitForMail(user.email, { count });
  return new URL(mails[count - 1]!.text.match(/https?:\/\/\S+/)![0]).searchParams.get('token')!;
}

describe('forgot password of an account whose password the portal does not keep', () => {
  it('answers a directory or single sign-on email exactly as any other, and mails where its password lives', async () => {
    const local = await createUser(app, 'employee');
    const directory = await createUser(app, 'employee', { authSource: 'directory', passwordHash: null });
    const sso = await createUser(app, 'employee', { authSource: 'sso', passwordHash: null, language: 'hi' });
    const answers = await Promise.all([local.email, directory.email, sso.email, 'nobody@lab.test'].map(ask));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);

    const [toDirectory] = await smtp.waitForMail(directory.email);
    expect(toDirectory!.subject).toBe('Your Lab Portal password');
    expect(toDirectory!.text).toContain('signs in with the lab directory');
    expect(toDirectory!.text).toContain(`${PORTAL_URL}/login`);
    expect(toDirectory!.text).not.toContain('reset-password');
    const [toSso] = await smtp.waitForMail(sso.email);
    expect(toSso!.subject).toBe('आपका लैब पोर्टल पासवर्ड');
    expect(toSso!.text).toContain('सिंगल साइन-ऑन');

    // No link for either, an activity row each, and the audit trail's refused request naming why.
    for (const user of [directory, sso]) {
      expect(await app.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id))).toEqual(
        [],
      );
    }
    const told = await app.db
      .select({ userId: activityLogs.userId, code: activityLogs.code })
      .from(activityLogs)
      .where(eq(activityLogs.targetId, directory.id));
    expect(told).toContainEqual({ userId: directory.id, code: 'activity.password_reset_told_directory' });
    const [event] = await app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'password_reset_requested'), eq(auditEvents.objectId, sso.id)));
    expect(event).toMatchObject({ outcome: 'refused' });
    expect(JSON.parse(event!.details!)).toMatchObject({ reason: 'password kept by the single sign-on' });
  });
});

describe('one reset link at a time', () => {
  it('ends the first link when a second is asked for, before either is used', async () => {
    const user = await createUser(app, 'employee');
    expect((await ask(user.email)).statusCode).toBe(200);
    const first = await mailedToken(user, 1);
    expect((await ask(user.email)).statusCode).toBe(200);
    const second = await mailedToken(user, 2);
    expect(second).not.toBe(first);
    const live = await app.db
      .select()
      .from(passwordResetTokens)
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
    expect(live).toHaveLength(1);

    const old = await reset(first, 'first-secret');
    expect(old.statusCode).toBe(400);
    expect(old.json()).toMatchObject({ code: 'auth.reset_link_invalid' });
    expect((await reset(second, 'second-secret')).statusCode).toBe(200);
  });
});
