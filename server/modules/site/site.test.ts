import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';

import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { openDatabase } from '#server/db/client.ts';
import { activityLogs, groupItems, labItems, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp, TEST_JWT_SECRET } from '#server/test/app.ts';
import { authHeaders, createGroup, createLab, createUser } from '#server/test/factories.ts';

import { DEFAULT_SITE_PAGES } from './default-pages.ts';
import { FEEDBACK_SENT } from './site.routes.ts';

let app: FastifyInstance;
let admin: UserRow;
let employee: UserRow;
beforeAll(async () => {
  app = await buildTestApp({ FEEDBACK_RATE_LIMIT: '1000' });
  admin = await createUser(app, 'admin', { name: 'Asha Admin' });
  employee = await createUser(app, 'employee', { name: 'Esha Employee' });
});

const as = async (user: UserRow | null) => (user ? await authHeaders(app, user) : {});
const feedbackBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Vinod Visitor',
  email: 'Vinod@Example.in',
  category: 'suggestion',
  subject: `Bigger text ${randomUUID().slice(0, 6)}`,
  message: 'Please make the notices easier to read.',
  ...overrides,
});

describe('GET and PUT /api/site/pages/{key} (Terms of use, Privacy policy)', () => {
  it('shows anyone the default text until an admin saves one', async () => {
    for (const key of ['terms', 'privacy'] as const) {
      const res = await app.inject({ url: `/api/site/pages/${key}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ key, ...DEFAULT_SITE_PAGES[key], updatedAt: null, isDefault: true });
    }
    const missing = await app.inject({ url: '/api/site/pages/cookies' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('No such page.');
  });

  it('lets an admin save both languages, records it, and serves the saved text', async () => {
    const put = await app.inject({
      method: 'PUT',
      url: '/api/site/pages/terms',
      headers: await as(admin),
      payload: { en: '  Use it well.  ', hi: 'इसका सही उपयोग करें।' },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ key: 'terms', en: 'Use it well.', hi: 'इसका सही उपयोग करें।', isDefault: false });
    const read = (await app.inject({ url: '/api/site/pages/terms' })).json();
    expect(read.en).toBe('Use it well.');
    expect(new Date(read.updatedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const logged = await app.db.select().from(activityLogs).where(eq(activityLogs.userId, admin.id));
    expect(logged.map((l) => l.action)).toContain('Updated the Terms of use page');
  });

  it('says which language is missing', async () => {
    const put = async (payload: object): Promise<LightMyRequestResponse> =>
      app.inject({ method: 'PUT', url: '/api/site/pages/privacy', headers: await as(admin), payload });
    const noEn = await put({ en: '  ', hi: 'पाठ' });
    expect(noEn.statusCode).toBe(400);
    expect(noEn.json()).toMatchObject({ message: 'The English text is required.', field: 'en' });
    const noHi = await put({ en: 'Text' });
    expect(noHi.json()).toMatchObject({ message: 'The Hindi text is required.', field: 'hi' });
  });

  it('refuses a visitor (401) and staff who are not admins (403)', async () => {
    const payload = { en: 'x', hi: 'y' };
    expect((await app.inject({ method: 'PUT', url: '/api/site/pages/privacy', payload })).statusCode).toBe(401);
    for (const role of ['employee', 'director', 'associate_director'] as const) {
      const user = await createUser(app, role);
      const res = await app.inject({ method: 'PUT', url: '/api/site/pages/privacy', headers: await as(user), payload });
      expect(res.statusCode).toBe(403);
    }
    expect((await app.inject({ url: '/api/site/pages/privacy' })).json().isDefault).toBe(true);
  });
});

describe('POST /api/feedback', () => {
  it('takes feedback from a visitor, stores it and records it in the activity log without a user', async () => {
    const body = feedbackBody();
    const res = await app.inject({ method: 'POST', url: '/api/feedback', payload: body });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(FEEDBACK_SENT);
    const id = res.json().feedback._id;
    const list = (await app.inject({ url: '/api/feedback?limit=100', headers: await as(admin) })).json();
    expect(list.items.find((f: { _id: string }) => f._id === id)).toMatchObject({
      name: 'Vinod Visitor',
      email: 'vinod@example.in',
      category: 'suggestion',
      status: 'new',
      reply: '',
      user: null,
    });
    const [log] = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, id));
    expect(log).toMatchObject({ userId: null, targetType: 'feedback' });
    expect(log!.action).toBe(`Sent feedback (suggestion) from Vinod Visitor <vinod@example.in>: ${body.subject}`);
  });

  it('links feedback to the signed-in sender, who then sees it under their own', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/feedback',
      headers: await as(employee),
      payload: feedbackBody(),
    });
    const id = res.json().feedback._id;
    const [log] = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, id));
    expect(log!.userId).toBe(employee.id);
    const mine = (await app.inject({ url: '/api/feedback/mine', headers: await as(employee) })).json();
    expect(mine.map((f: { _id: string }) => f._id)).toContain(id);
    expect(mine[0].user).toEqual({ _id: employee.id, name: 'Esha Employee' });
    expect((await app.inject({ url: '/api/feedback/mine' })).statusCode).toBe(401);
  });

  it('treats an expired or forged token as a visitor rather than refusing the feedback', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/feedback',
      headers: { authorization: 'Bearer forged' },
      payload: feedbackBody(),
    });
    expect(res.statusCode).toBe(201);
  });

  it.each([
    [{ name: ' ' }, 'Please enter your name.', 'name'],
    [{ email: 'not-an-email' }, 'Please enter a valid email address.', 'email'],
    [{ email: undefined }, 'Please enter a valid email address.', 'email'],
    [{ category: 'rant' }, 'Please choose what your feedback is about.', 'category'],
    [{ subject: '' }, 'Please enter a subject.', 'subject'],
    [{ message: '   ' }, 'Please write your feedback.', 'message'],
  ])('refuses %j with "%s"', async (overrides, message, field) => {
    const before = await app.db.select().from(activityLogs);
    const res = await app.inject({ method: 'POST', url: '/api/feedback', payload: feedbackBody(overrides) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, field });
    expect(await app.db.select().from(activityLogs)).toHaveLength(before.length);
  });

  it('limits each address to FEEDBACK_RATE_LIMIT messages an hour', async () => {
    const limited = await buildTestApp({ FEEDBACK_RATE_LIMIT: '2' });
    const send = (ip: string) =>
      limited.inject({ method: 'POST', url: '/api/feedback', payload: feedbackBody(), remoteAddress: ip });
    expect((await send('10.0.0.1')).statusCode).toBe(201);
    expect((await send('10.0.0.1')).statusCode).toBe(201);
    const third = await send('10.0.0.1');
    expect(third.statusCode).toBe(429);
    // The real wait (decision 042): nearly the whole hour, in the header (seconds) and the sentence (minutes).
    const wait = Number(third.headers['retry-after']);
    expect(wait).toBeGreaterThan(3500);
    expect(wait).toBeLessThanOrEqual(3600);
    expect(third.json()).toMatchObject({
      message: `Too many messages from your network. Please try again in ${Math.ceil(wait / 60)} minutes.`,
      code: 'site.feedback_rate_limited',
    });
    expect((await send('10.0.0.2')).statusCode).toBe(201);
  });

  it('keeps the limit in the shared store: two nodes together allow it once, and a restart does not reset it', async () => {
    const first = await buildTestApp({ FEEDBACK_RATE_LIMIT: '3' });
    // More nodes on the same database, each with its own pool, as two-nodes.test.ts builds them.
    const databaseUrl = (first.pgPool as unknown as { options: { connectionString: string } }).options.connectionString;
    const node = async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-feedback-'));
      const config = loadConfig({
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        JWT_SECRET: TEST_JWT_SECRET,
        SERVE_WEB: 'false',
        FEEDBACK_RATE_LIMIT: '3',
      });
      const app = await buildApp({
        config,
        database: await openDatabase({ databaseUrl, migrate: false }),
        logger: false,
      });
      await app.ready();
      return { app, close: async () => (await app.close(), rmSync(dataDir, { recursive: true, force: true })) };
    };
    const second = await node();
    const send = (app: FastifyInstance) =>
      app.inject({ method: 'POST', url: '/api/feedback', payload: feedbackBody(), remoteAddress: '10.0.7.7' });
    const codes: number[] = [];
    for (const app of [first, second.app, first, second.app]) codes.push((await send(app)).statusCode);
    expect(codes).toEqual([201, 201, 201, 429]);
    await second.close();
    const restarted = await node();
    try {
      const res = await send(restarted.app);
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(3500);
    } finally {
      await restarted.close();
    }
  });

  it('with REDIS_URL, two nodes share the limit in Redis', async () => {
    const env = { FEEDBACK_RATE_LIMIT: '2', REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' };
    const [a, b] = await Promise.all([buildTestApp(env), buildTestApp(env)]);
    const ip = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.9`; // Redis outlives the run
    const send = (app: FastifyInstance) =>
      app.inject({ method: 'POST', url: '/api/feedback', payload: feedbackBody(), remoteAddress: ip });
    const codes: number[] = [];
    for (const app of [a, b, a]) codes.push((await send(app)).statusCode);
    expect(codes).toEqual([201, 201, 429]);
  });
});

describe('GET /api/feedback and PUT /api/feedback/{id} (the admin panel)', () => {
  const send = async () =>
    (await app.inject({ method: 'POST', url: '/api/feedback', payload: feedbackBody() })).json().feedback._id as string;

  it('lists newest first with a status filter, in pages', async () => {
    const first = await send();
    const second = await send();
    const page = (await app.inject({ url: '/api/feedback?limit=2&offset=0', headers: await as(admin) })).json();
    expect(page.items.map((f: { _id: string }) => f._id)).toEqual([second, first]);
    expect(page.total).toBeGreaterThanOrEqual(2);
    await app.inject({
      method: 'PUT',
      url: `/api/feedback/${first}`,
      headers: await as(admin),
      payload: { status: 'closed' },
    });
    const closed = (await app.inject({ url: '/api/feedback?status=closed', headers: await as(admin) })).json();
    expect(closed.items.map((f: { _id: string }) => f._id)).toContain(first);
    expect(closed.items.every((f: { status: string }) => f.status === 'closed')).toBe(true);
    const bad = await app.inject({ url: '/api/feedback?status=lost', headers: await as(admin) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Please choose a status.');
  });

  it('lets an admin answer: the reply is stamped with who and when, and recorded', async () => {
    const id = await send();
    const res = await app.inject({
      method: 'PUT',
      url: `/api/feedback/${id}`,
      headers: await as(admin),
      payload: { status: 'answered', reply: ' The text size buttons are in the header. ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'answered',
      reply: 'The text size buttons are in the header.',
      repliedBy: { _id: admin.id, name: 'Asha Admin' },
    });
    expect(res.json().repliedAt).not.toBeNull();
    const logs = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, id));
    expect(logs.map((l) => l.action)).toContainEqual(
      expect.stringMatching(/^Answered feedback ".*" \(marked answered\)$/),
    );
  });

  it('asks for a reply before marking feedback answered, and 404s unknown feedback', async () => {
    const id = await send();
    const res = await app.inject({
      method: 'PUT',
      url: `/api/feedback/${id}`,
      headers: await as(admin),
      payload: { status: 'answered', reply: '  ' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: 'Please write a reply before marking the feedback answered.',
      field: 'reply',
    });
    const noStatus = await app.inject({
      method: 'PUT',
      url: `/api/feedback/${id}`,
      headers: await as(admin),
      payload: {},
    });
    expect(noStatus.json()).toMatchObject({ message: 'Please choose a status.', field: 'status' });
    const missing = await app.inject({
      method: 'PUT',
      url: `/api/feedback/${randomUUID()}`,
      headers: await as(admin),
      payload: { status: 'closed' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Feedback not found.');
  });

  it('refuses visitors (401) and staff who are not admins (403)', async () => {
    const id = await send();
    expect((await app.inject({ url: '/api/feedback' })).statusCode).toBe(401);
    const put = { method: 'PUT' as const, url: `/api/feedback/${id}`, payload: { status: 'closed' } };
    expect((await app.inject(put)).statusCode).toBe(401);
    for (const role of ['employee', 'director', 'associate_director'] as const) {
      const user = await createUser(app, role);
      expect((await app.inject({ url: '/api/feedback', headers: await as(user) })).statusCode).toBe(403);
      expect((await app.inject({ ...put, headers: await as(user) })).statusCode).toBe(403);
    }
  });
});

describe('GET /api/notices/archive (issue 16 item 11)', () => {
  it("groups expired notices and circulars by year; a group's only for those who may see the group", async () => {
    const archiveApp = await buildTestApp({ FEEDBACK_RATE_LIMIT: '1000' });
    const lab = await createLab(archiveApp, { name: 'Fire Lab' });
    const group = await createGroup(archiveApp, { name: 'Blast Group' });
    const other = await createGroup(archiveApp, { name: 'Other Group' });
    await archiveApp.db.insert(labItems).values([
      { labId: lab.id, kind: 'notice', name: 'Old notice', validUntil: '2024-03-01' },
      { labId: lab.id, kind: 'circular', name: 'Older circular', validUntil: '2023-12-31' },
      { labId: lab.id, kind: 'notice', name: 'Current notice', validUntil: '2999-01-01' },
      { labId: lab.id, kind: 'notice', name: 'Never expires' },
      { labId: lab.id, kind: 'product', name: 'A product', validUntil: '2020-01-01' },
    ]);
    await archiveApp.db.insert(groupItems).values([
      { groupId: group.id, kind: 'notice', name: 'Group notice', validUntil: '2024-05-01' },
      { groupId: other.id, kind: 'circular', name: 'Other circular', validUntil: '2024-06-01' },
      { groupId: group.id, kind: 'project', name: 'A project', validUntil: '2020-01-01' },
    ]);
    const member = await createUser(archiveApp, 'employee', { groupId: group.id });
    const director = await createUser(archiveApp, 'director');
    const names = async (headers: Record<string, string> = {}) => {
      const res = await archiveApp.inject({ url: '/api/notices/archive', headers });
      expect(res.statusCode).toBe(200);
      return (res.json().years as { year: number; items: { name: string }[] }[]).map((y) => [
        y.year,
        y.items.map((i) => i.name),
      ]);
    };
    expect(await names()).toEqual([
      [2024, ['Old notice']],
      [2023, ['Older circular']],
    ]);
    expect(await names(await authHeaders(archiveApp, member))).toEqual([
      [2024, ['Group notice', 'Old notice']],
      [2023, ['Older circular']],
    ]);
    expect(await names(await authHeaders(archiveApp, director))).toEqual([
      [2024, ['Other circular', 'Group notice', 'Old notice']],
      [2023, ['Older circular']],
    ]);
    const first = (
      await archiveApp.inject({ url: '/api/notices/archive', headers: await authHeaders(archiveApp, member) })
    ).json().years[0].items[0];
    expect(first).toMatchObject({
      kind: 'notice',
      validUntil: '2024-05-01',
      source: { type: 'group', name: 'Blast Group' },
    });
    // A visitor with a stale token is still served the lab's archive.
    expect(await names({ authorization: 'Bearer stale' })).toHaveLength(2);
  });
});
