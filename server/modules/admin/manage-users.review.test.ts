import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { activityLogs } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createGroup, createUser, signIn } from '#server/test/factories.ts';

import { actionsOn, expectAdminOnly, login } from './manage-users.test-helpers.ts';

buildTestAppBeforeAll();

// Rejecting a registration, the Manage Users list, and changing role and group.

describe('POST /admin/reject-user/:userId', () => {
  it('rejects a pending user with a reason, which they are told at login; the card leaves the list', async () => {
    const { app, headers, user: admin } = await signIn('admin');
    const pending = await createUser(app, 'pending_director', { status: 'pending' });
    const res = await app.inject({
      method: 'POST',
      url: `/admin/reject-user/${pending.id}`,
      headers,
      payload: { reason: '  Not on the staff list  ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'User rejected.',
      user: { status: 'rejected', statusReason: 'Not on the staff list' },
    });
    const signIn403 = await login(app, pending.email);
    expect(signIn403.statusCode).toBe(403);
    expect(signIn403.json()).toMatchObject({
      status: 'rejected',
      message: 'Your registration was not approved. Reason: Not on the staff list',
    });
    const list = await app.inject({ method: 'GET', url: '/admin/pending-users?limit=100', headers });
    expect(list.json().map((u: { _id: string }) => u._id)).not.toContain(pending.id);
    const logs = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, pending.id));
    expect(
      logs.some((l) => l.userId === admin.id && l.action === `Rejected user ${pending.email}: Not on the staff list`),
    ).toBe(true);
  });

  it('needs a reason, refuses a user who is not pending, and 404s an unknown user', async () => {
    const { app, headers } = await signIn('admin');
    const pending = await createUser(app, 'employee', { status: 'pending' });
    for (const payload of [{}, { reason: '   ' }]) {
      const res = await app.inject({ method: 'POST', url: `/admin/reject-user/${pending.id}`, headers, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: 'Please give a reason for rejecting this user.', field: 'reason' });
    }
    const long = await app.inject({
      method: 'POST',
      url: `/admin/reject-user/${pending.id}`,
      headers,
      payload: { reason: 'x'.repeat(501) },
    });
    expect(long.json().message).toBe('The reason must be at most 500 characters.');
    const approved = await createUser(app, 'employee');
    const notPending = await app.inject({
      method: 'POST',
      url: `/admin/reject-user/${approved.id}`,
      headers,
      payload: { reason: 'x' },
    });
    expect(notPending.statusCode).toBe(409);
    expect(notPending.json().message).toBe('This user is not waiting for approval.');
    const unknown = await app.inject({
      method: 'POST',
      url: '/admin/reject-user/00000000-0000-4000-8000-000000000000',
      headers,
      payload: { reason: 'x' },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('is for admins only', async () => {
    const app = await buildTestApp();
    const pending = await createUser(app, 'employee', { status: 'pending' });
    await expectAdminOnly(app, 'POST', `/admin/reject-user/${pending.id}`, { reason: 'x' });
  });
});

describe('GET /admin/users (Manage Users)', () => {
  it('lists every account with group, documents and status; searches, filters and pages on the server', async () => {
    const { app, headers } = await signIn('admin');
    const group = await createGroup(app);
    const tag = Math.random().toString(36).slice(2, 8);
    const a = await createUser(app, 'employee', {
      name: `Alpha ${tag}`,
      groupId: group.id,
      employmentFrom: '2020-01-01',
    });
    const b = await createUser(app, 'director', { name: `Beta ${tag}`, status: 'deactivated' });
    await createUser(app, 'employee', { name: `Gamma ${tag}`, status: 'pending' });
    const res = await app.inject({ method: 'GET', url: `/admin/users?q=${tag}&limit=2`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().total).toBe(3);
    expect(res.json().items).toHaveLength(2);
    expect(res.json().items[0]).toMatchObject({
      _id: a.id,
      group: { _id: group.id, name: group.name },
      employmentPeriod: { from: '2020-01-01', to: null },
      documents: [],
      status: 'approved',
    });
    const deactivated = await app.inject({ method: 'GET', url: `/admin/users?q=${tag}&status=deactivated`, headers });
    expect(deactivated.json()).toMatchObject({ total: 1, items: [{ _id: b.id }] });
    const byRole = await app.inject({ method: 'GET', url: `/admin/users?q=${tag}&role=director`, headers });
    expect(byRole.json().items.map((u: { _id: string }) => u._id)).toEqual([b.id]);
    const byGroup = await app.inject({ method: 'GET', url: `/admin/users?groupId=${group.id}`, headers });
    expect(byGroup.json().items.map((u: { _id: string }) => u._id)).toEqual([a.id]);
  });

  it('refuses a bad filter', async () => {
    const { app, headers } = await signIn('admin');
    const res = await app.inject({ method: 'GET', url: '/admin/users?status=gone', headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Please choose a status from the list.', field: 'status' });
  });

  it('is for admins only', async () => {
    const app = await buildTestApp();
    await expectAdminOnly(app, 'GET', '/admin/users');
  });
});

describe('PUT /admin/users/:userId/access', () => {
  it('changes role and group, effective at once, and records both', async () => {
    const { app, headers } = await signIn('admin');
    const from = await createGroup(app);
    const to = await createGroup(app);
    const user = await createUser(app, 'employee', { groupId: from.id });
    const res = await app.inject({
      method: 'PUT',
      url: `/admin/users/${user.id}/access`,
      headers,
      payload: { role: 'associate_director', groupId: to.id },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'User updated successfully!',
      user: { role: 'associate_director', group: { _id: to.id } },
    });
    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: await authHeaders(app, user) });
    expect(me.json().role).toBe('associate_director');
    expect(await actionsOn(app, user.id)).toContain(
      `Changed ${user.email}: role employee → associate_director, group → ${to.name}`,
    );
    const none = await app.inject({
      method: 'PUT',
      url: `/admin/users/${user.id}/access`,
      headers,
      payload: { role: 'associate_director', groupId: null },
    });
    expect(none.json().user.group).toBeNull();
  });

  it.each([
    [{ groupId: null }, 'Please choose a role from the list.', 'role'],
    [{ role: 'pending_director', groupId: null }, 'Please choose a role from the list.', 'role'],
    [{ role: 'employee', groupId: 'x' }, 'Please choose a group from the list.', 'groupId'],
    [
      { role: 'employee', groupId: '00000000-0000-4000-8000-000000000000' },
      'The chosen group does not exist.',
      'groupId',
    ],
  ])('refuses %j with "%s"', async (payload, message, field) => {
    const { app, headers } = await signIn('admin');
    const user = await createUser(app, 'employee');
    const res = await app.inject({ method: 'PUT', url: `/admin/users/${user.id}/access`, headers, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, field });
  });

  it("refuses to change an admin's own role, and pending or rejected registrations", async () => {
    const { app, headers, user: admin } = await signIn('admin');
    const own = await app.inject({
      method: 'PUT',
      url: `/admin/users/${admin.id}/access`,
      headers,
      payload: { role: 'employee', groupId: null },
    });
    expect(own.statusCode).toBe(400);
    expect(own.json()).toMatchObject({ message: 'You cannot change your own role.', field: 'role' });
    const pending = await createUser(app, 'employee', { status: 'pending' });
    const res = await app.inject({
      method: 'PUT',
      url: `/admin/users/${pending.id}/access`,
      headers,
      payload: { role: 'employee', groupId: null },
    });
    expect(res.statusCode).toBe(409);
  });

  it('is for admins only', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    await expectAdminOnly(app, 'PUT', `/admin/users/${user.id}/access`, { role: 'admin', groupId: null });
  });
});
