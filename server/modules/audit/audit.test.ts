import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';

import { activityLogs } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createUser, signIn } from '#server/test/factories.ts';

import { accessChanges } from './activity-words.ts';
import { recordActivity } from './audit.service.ts';

buildTestAppBeforeAll();

type Log = {
  _id: string;
  action: string;
  timestamp: string;
  userId: { _id: string; name: string; email: string } | null;
};

/** Log rows written at chosen moments, so the date filters and the order can be checked. */
async function logAt(app: FastifyInstance, userId: string | null, action: string, timestamp: string) {
  const [row] = await app.db
    .insert(activityLogs)
    .values({ userId, action, timestamp: new Date(timestamp) })
    .returning();
  return row!;
}

describe('GET /admin/logs', () => {
  it("answers an array, newest first, with the person's name and email", async () => {
    const { app, headers } = await signIn('admin');
    const user = await createUser(app, 'employee', { name: 'Logged Person' });
    await recordActivity(app.db, user, 'activity.signed_in');
    await new Promise((r) => setTimeout(r, 5));
    await recordActivity(app.db, user, 'activity.own_password_changed', undefined, { type: 'user', id: user.id });
    const res = await app.inject({ method: 'GET', url: '/admin/logs', headers });
    expect(res.statusCode).toBe(200);
    const logs: Log[] = res.json();
    expect(Array.isArray(logs)).toBe(true);
    const mine = logs.filter((l) => l.userId?._id === user.id);
    expect(mine.map((l) => l.action)).toEqual(['Changed own password', 'Signed in']);
    expect(mine[0]).toMatchObject({
      userId: { _id: user.id, name: 'Logged Person', email: user.email },
      target: { type: 'user', id: user.id },
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const times = logs.map((l) => l.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('searches name, email and action case-insensitively, filters by user and by days (India time), and pages', async () => {
    const { app, headers } = await signIn('admin');
    const tag = Math.random().toString(36).slice(2, 8);
    const asha = await createUser(app, 'employee', { name: `Asha ${tag}` });
    const ravi = await createUser(app, 'employee', { name: 'Ravi Kumar', email: `ravi-${tag}@lab.test` });
    const a1 = await logAt(app, asha.id, 'Uploaded letter L-1', '2026-03-01T10:00:00+05:30');
    const a2 = await logAt(app, asha.id, 'Signed in', '2026-03-02T23:30:00+05:30'); // 18:00 UTC, still 2 March in India
    const r1 = await logAt(app, ravi.id, 'Signed in', '2026-03-03T00:10:00+05:30');
    const r2 = await logAt(app, ravi.id, `Approved user ${tag}-x@lab.test as employee`, '2026-03-04T09:00:00+05:30');
    const ids = async (qs: string) => {
      const res = await app.inject({ method: 'GET', url: `/admin/logs?${qs}`, headers });
      expect(res.statusCode).toBe(200);
      return (res.json() as Log[]).map((l) => l._id);
    };
    expect(await ids(`q=asha%20${tag.toUpperCase()}`)).toEqual([a2.id, a1.id]);
    expect(await ids(`q=ravi-${tag}`)).toEqual([r2.id, r1.id]);
    expect(await ids(`q=${tag}`)).toEqual([r2.id, r1.id, a2.id, a1.id]);
    expect(await ids(`userId=${ravi.id}`)).toEqual([r2.id, r1.id]);
    expect(await ids(`q=${tag}&from=2026-03-02&to=2026-03-03`)).toEqual([r1.id, a2.id]);
    expect(await ids(`q=${tag}&to=2026-03-01`)).toEqual([a1.id]);
    expect(await ids(`q=${tag}&from=2026-03-04`)).toEqual([r2.id]);
    expect(await ids('q=no-such-thing-anywhere')).toEqual([]);

    const page = await app.inject({ method: 'GET', url: `/admin/logs?q=${tag}&limit=3`, headers });
    expect(page.json()).toMatchObject({ total: 4, capped: false });
    expect(page.json().items.map((l: Log) => l._id)).toEqual([r2.id, r1.id, a2.id]);
    const next = await app.inject({ method: 'GET', url: `/admin/logs?q=${tag}&limit=3&offset=3`, headers });
    expect(next.json()).toMatchObject({ total: 4, items: [{ _id: a1.id }] });
  });

  it('counts the matches of a page up to 1,000 and says when there are more', async () => {
    const { app, headers } = await signIn('admin');
    const tag = Math.random().toString(36).slice(2, 8);
    await app.db.execute(
      sql`insert into activity_logs (action) select ${`Bulk ${tag} `} || g from generate_series(1, 1005) g`,
    );
    const res = await app.inject({ method: 'GET', url: `/admin/logs?q=bulk%20${tag}&limit=20&offset=40`, headers });
    expect(res.json()).toMatchObject({ total: 1000, capped: true });
    expect(res.json().items).toHaveLength(20);
  });

  it('carries each action as a code with parameters beside its English, which the search still reads (decision 060)', async () => {
    const { app, headers } = await signIn('admin');
    const tag = Math.random().toString(36).slice(2, 8);
    const admin = await createUser(app, 'admin');
    const person = await createUser(app, 'employee', { email: `coded-${tag}@lab.test` });
    await recordActivity(
      app.db,
      admin,
      'activity.user_access_changed',
      { email: person.email, changes: accessChanges({ from: 'employee', to: 'director' }, null) },
      { type: 'user', id: person.id },
    );
    await recordActivity(app.db, admin, 'activity.pendency_exported', { fromDate: '2026-10-28', toDate: '2026-11-27' });
    const old = await logAt(app, admin.id, 'Signed in', '2026-01-01T00:00:00Z');

    const res = await app.inject({ method: 'GET', url: `/admin/logs?userId=${admin.id}&limit=5`, headers });
    const [pendency, changed, before] = res.json().items;
    expect(pendency).toMatchObject({
      action: 'Exported letters pendency 28 Oct 2026 to 27 Nov 2026',
      code: 'activity.pendency_exported',
      params: { fromDate: '2026-10-28', toDate: '2026-11-27' },
    });
    expect(changed).toMatchObject({
      action: `Changed coded-${tag}@lab.test: role employee → director, group → none`,
      code: 'activity.user_access_changed',
      params: {
        email: person.email,
        changes: {
          code: 'activity.access_role_and_no_group',
          params: { from: { code: 'activity.word_employee' }, to: { code: 'activity.word_director' } },
        },
      },
    });
    // An entry written before actions had codes keeps only its English.
    expect(before).toMatchObject({ _id: old.id, action: 'Signed in', code: null, params: null });

    const found = await app.inject({ method: 'GET', url: `/admin/logs?q=coded-${tag}&limit=5`, headers });
    expect(found.json().items.map((l: { code: string }) => l.code)).toEqual(['activity.user_access_changed']);
  });

  it('shows an entry whose person has gone with no name', async () => {
    const { app, headers } = await signIn('admin');
    const row = await logAt(app, null, 'System task ran', '2026-01-01T00:00:00Z');
    const res = await app.inject({ method: 'GET', url: `/admin/logs?q=System%20task&limit=5`, headers });
    expect(res.json().items).toEqual([expect.objectContaining({ _id: row.id, userId: null })]);
  });

  it.each([
    ['from=2026-13-01', 'Please enter a valid date.', 'from'],
    ['to=yesterday', 'Please enter a valid date.', 'to'],
    ['from=2026-03-05&to=2026-03-01', 'Start date cannot be after end date.', 'from'],
    ['userId=someone', 'Please choose a user from the list.', 'userId'],
    ['limit=500', undefined, 'limit'],
  ])('refuses ?%s', async (qs, message, field) => {
    const { app, headers } = await signIn('admin');
    const res = await app.inject({ method: 'GET', url: `/admin/logs?${qs}`, headers });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
    if (message) expect(res.json().message).toBe(message);
  });

  it('is for admins only: a visitor, the user whose entries they are, and a director are refused', async () => {
    const app = await buildTestApp();
    expect((await app.inject({ method: 'GET', url: '/admin/logs' })).statusCode).toBe(401);
    for (const role of ['employee', 'director', 'associate_director'] as const) {
      const user = await createUser(app, role);
      const res = await app.inject({
        method: 'GET',
        url: `/admin/logs?userId=${user.id}`,
        headers: await authHeaders(app, user),
      });
      expect(res.statusCode).toBe(403);
    }
  });
});
