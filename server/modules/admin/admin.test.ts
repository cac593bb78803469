import { describe, expect, it } from 'vitest';

import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createGroup, createLab, createUser, signIn, TEST_PASSWORD } from '#server/test/factories.ts';

buildTestAppBeforeAll();

describe('GET /admin/pending-users', () => {
  it('refuses a visitor, and every role but admin', async () => {
    const app = await buildTestApp();
    expect((await app.inject({ method: 'GET', url: '/admin/pending-users' })).statusCode).toBe(401);
    for (const role of ['employee', 'director', 'associate_director'] as const) {
      const user = await createUser(app, role);
      const res = await app.inject({
        method: 'GET',
        url: '/admin/pending-users',
        headers: await authHeaders(app, user),
      });
      expect(res.statusCode).toBe(403);
    }
  });

  it('lists pending users only, oldest first, and pages', async () => {
    const { app, headers } = await signIn('admin');
    const first = await createUser(app, 'pending_director', { status: 'pending', name: 'First Pending' });
    const second = await createUser(app, 'employee', { status: 'pending', name: 'Second Pending' });
    const res = await app.inject({ method: 'GET', url: '/admin/pending-users', headers });
    expect(res.statusCode).toBe(200);
    const ids = res.json().map((u: { _id: string }) => u._id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect(res.json().every((u: { status: string }) => u.status === 'pending')).toBe(true);
    const page = await app.inject({ method: 'GET', url: '/admin/pending-users?limit=1', headers });
    expect(page.json()).toHaveLength(1);
    const bad = await app.inject({ method: 'GET', url: '/admin/pending-users?limit=0', headers });
    expect(bad.statusCode).toBe(400);
  });
});

describe('POST /admin/approve-user/:userId', () => {
  it('approves into a group with the chosen role, which overrides the requested one; the user can then sign in', async () => {
    const { app, headers, user: admin } = await signIn('admin');
    const lab = await createLab(app);
    const group = await createGroup(app);
    const pending = await createUser(app, 'pending_director', { status: 'pending' });
    const res = await app.inject({
      method: 'POST',
      url: `/admin/approve-user/${pending.id}`,
      headers,
      payload: { labId: lab.id, groupId: group.id, role: 'employee' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'User approved successfully!',
      user: { _id: pending.id, status: 'approved', role: 'employee', labId: lab.id },
    });
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: pending.email, password: TEST_PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().user.group).toEqual({ _id: group.id, name: group.name });
    const list = await app.inject({ method: 'GET', url: '/admin/pending-users?limit=100', headers });
    expect(list.json().map((u: { _id: string }) => u._id)).not.toContain(pending.id);
    const { activityLogs } = await import('#server/db/schema/index.ts');
    const { eq } = await import('drizzle-orm');
    const logs = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, pending.id));
    expect(logs.some((l) => l.userId === admin.id && l.action.startsWith('Approved user'))).toBe(true);
  });

  it('needs a group and a role', async () => {
    const { app, headers } = await signIn('admin');
    const pending = await createUser(app, 'employee', { status: 'pending' });
    const group = await createGroup(app);
    for (const payload of [
      { role: 'employee' },
      { groupId: group.id },
      { groupId: group.id, role: 'pending_director' },
    ]) {
      const res = await app.inject({ method: 'POST', url: `/admin/approve-user/${pending.id}`, headers, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Please select a Group and a Role for the user.');
    }
  });

  it('answers 400 for an unknown group, 404 for an unknown user and 409 for a user already approved', async () => {
    const { app, headers } = await signIn('admin');
    const group = await createGroup(app);
    const pending = await createUser(app, 'employee', { status: 'pending' });
    const approved = await createUser(app, 'employee');
    const unknownGroup = await app.inject({
      method: 'POST',
      url: `/admin/approve-user/${pending.id}`,
      headers,
      payload: { groupId: '00000000-0000-4000-8000-000000000000', role: 'employee' },
    });
    expect(unknownGroup.statusCode).toBe(400);
    expect(unknownGroup.json().field).toBe('groupId');
    const unknownUser = await app.inject({
      method: 'POST',
      url: '/admin/approve-user/00000000-0000-4000-8000-000000000000',
      headers,
      payload: { groupId: group.id, role: 'employee' },
    });
    expect(unknownUser.statusCode).toBe(404);
    const again = await app.inject({
      method: 'POST',
      url: `/admin/approve-user/${approved.id}`,
      headers,
      payload: { groupId: group.id, role: 'employee' },
    });
    expect(again.statusCode).toBe(409);
  });

  it('refuses anyone but an admin before reading the body', async () => {
    const app = await buildTestApp();
    const pending = await createUser(app, 'employee', { status: 'pending' });
    expect(
      (await app.inject({ method: 'POST', url: `/admin/approve-user/${pending.id}`, payload: {} })).statusCode,
    ).toBe(401);
    const director = await createUser(app, 'director');
    const res = await app.inject({
      method: 'POST',
      url: `/admin/approve-user/${pending.id}`,
      headers: await authHeaders(app, director),
      payload: {},
    });
    expect(res.statusCode).toBe(403);
  });
});
