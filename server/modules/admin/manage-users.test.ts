import { existsSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { activityLogs, files, userDocuments } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createGroup, createUser, signIn, TEST_PASSWORD } from '#server/test/factories.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';

buildTestAppBeforeAll();

const actionsOn = async (app: FastifyInstance, userId: string) =>
  (await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, userId))).map((l) => l.action);
const login = (app: FastifyInstance, email: string, password = TEST_PASSWORD) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
const tick = () => new Promise((r) => setTimeout(r, 5)); // session stamps must differ from those in older tokens

/** Visitor 401; the user themself, another user and a director 403 — every Manage Users route is admin-only. */
async function expectAdminOnly(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) {
  expect((await app.inject({ method, url, payload })).statusCode).toBe(401);
  const target = url.match(/[0-9a-f-]{36}/)?.[0];
  const others = [await createUser(app, 'employee'), await createUser(app, 'director')];
  for (const user of others) {
    const res = await app.inject({ method, url, payload, headers: authHeaders(app, user) });
    expect(res.statusCode).toBe(403);
  }
  if (target) {
    const { users } = await import('#server/db/schema/index.ts');
    const [self] = await app.db.select().from(users).where(eq(users.id, target));
    if (self?.status === 'approved' && self.role !== 'admin') {
      expect((await app.inject({ method, url, payload, headers: authHeaders(app, self) })).statusCode).toBe(403);
    }
  }
}

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
    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeaders(app, user) });
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

describe('deactivate and reactivate', () => {
  it('deactivation stops sign-in and every token at once; reactivation lets the user sign in again', async () => {
    const { app, headers } = await signIn('admin');
    const user = await createUser(app, 'employee');
    const token = authHeaders(app, user);
    await tick();
    const res = await app.inject({
      method: 'POST',
      url: `/admin/users/${user.id}/deactivate`,
      headers,
      payload: { reason: 'Left the lab' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'User deactivated.',
      user: { status: 'deactivated', statusReason: 'Left the lab' },
    });
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: token })).statusCode).toBe(401);
    const refused = await login(app, user.email);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().status).toBe('deactivated');
    const directory = await app.inject({ method: 'GET', url: '/api/users', headers });
    expect(directory.json().map((u: { _id: string }) => u._id)).not.toContain(user.id);

    const back = await app.inject({ method: 'POST', url: `/admin/users/${user.id}/reactivate`, headers });
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({
      message: 'User reactivated.',
      user: { status: 'approved', statusReason: null },
    });
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: token })).statusCode).toBe(401); // old token stays dead
    expect((await login(app, user.email)).statusCode).toBe(200);
    expect(await actionsOn(app, user.id)).toEqual(
      expect.arrayContaining([`Deactivated user ${user.email}: Left the lab`, `Reactivated user ${user.email}`]),
    );
  });

  it('refuses to deactivate oneself, an account that is not active, or to reactivate an active one', async () => {
    const { app, headers, user: admin } = await signIn('admin');
    const self = await app.inject({ method: 'POST', url: `/admin/users/${admin.id}/deactivate`, headers, payload: {} });
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe('You cannot deactivate your own account.');
    const pending = await createUser(app, 'employee', { status: 'pending' });
    const p = await app.inject({ method: 'POST', url: `/admin/users/${pending.id}/deactivate`, headers, payload: {} });
    expect(p.statusCode).toBe(409);
    expect(p.json().message).toBe('Only an active account can be deactivated.');
    const active = await createUser(app, 'employee');
    const r = await app.inject({ method: 'POST', url: `/admin/users/${active.id}/reactivate`, headers });
    expect(r.statusCode).toBe(409);
    expect(r.json().message).toBe('Only a deactivated account can be reactivated.');
    const long = await app.inject({
      method: 'POST',
      url: `/admin/users/${active.id}/deactivate`,
      headers,
      payload: { reason: 'x'.repeat(501) },
    });
    expect(long.json()).toMatchObject({ message: 'The reason must be at most 500 characters.', field: 'reason' });
  });

  it('are for admins only', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    await expectAdminOnly(app, 'POST', `/admin/users/${user.id}/deactivate`, {});
    await expectAdminOnly(app, 'POST', `/admin/users/${user.id}/reactivate`);
  });
});

describe('POST /admin/users/:userId/reset-password', () => {
  it("sets the new password and ends the user's sessions", async () => {
    const { app, headers } = await signIn('admin');
    const user = await createUser(app, 'employee');
    const token = authHeaders(app, user);
    await tick();
    const res = await app.inject({
      method: 'POST',
      url: `/admin/users/${user.id}/reset-password`,
      headers,
      payload: { newPassword: 'reset-123' },
    });
    expect(res.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: token })).statusCode).toBe(401);
    expect((await login(app, user.email)).statusCode).toBe(401);
    expect((await login(app, user.email, 'reset-123')).statusCode).toBe(200);
    expect(await actionsOn(app, user.id)).toContain(`Reset the password of ${user.email}`);
  });

  it.each([
    [{}, 'Password is required.'],
    [{ newPassword: '12345' }, 'Password must be at least 6 characters.'],
  ])('refuses %j with "%s"', async (payload, message) => {
    const { app, headers } = await signIn('admin');
    const user = await createUser(app, 'employee');
    const res = await app.inject({ method: 'POST', url: `/admin/users/${user.id}/reset-password`, headers, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, field: 'newPassword' });
  });

  it('is for admins only', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    await expectAdminOnly(app, 'POST', `/admin/users/${user.id}/reset-password`, { newPassword: 'reset-123' });
  });
});

describe('user documents', () => {
  const upload = (
    app: FastifyInstance,
    userId: string,
    headers: Record<string, string>,
    file = SAMPLE_FILES.pdf,
    name = 'service-book.pdf',
  ) => {
    const body = multipart({}, { field: 'document', filename: name, content: file });
    return app.inject({
      method: 'POST',
      url: `/admin/users/${userId}/documents`,
      payload: body.payload,
      headers: { ...headers, ...body.headers },
    });
  };

  it('an admin uploads a document the user and admins may open, others may not; removing it deletes the file', async () => {
    const { app, headers } = await signIn('admin');
    const user = await createUser(app, 'employee');
    const res = await upload(app, user.id, headers);
    expect(res.statusCode).toBe(201);
    const doc = res.json();
    expect(doc).toMatchObject({
      filename: 'service-book.pdf',
      url: expect.stringMatching(/^\/uploads\/user-documents\//),
    });
    expect((await app.inject({ method: 'GET', url: doc.url })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: doc.url, headers: authHeaders(app, user) })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: doc.url, headers })).statusCode).toBe(200);
    const other = await createUser(app, 'director');
    expect((await app.inject({ method: 'GET', url: doc.url, headers: authHeaders(app, other) })).statusCode).toBe(403);
    const profile = await app.inject({ method: 'GET', url: `/api/users/${user.id}`, headers: authHeaders(app, user) });
    expect(profile.json().documents).toEqual([doc]);

    const fileId = doc.url.split('/').pop();
    const removed = await app.inject({
      method: 'DELETE',
      url: `/admin/users/${user.id}/documents/${doc._id}`,
      headers,
    });
    expect(removed.statusCode).toBe(200);
    expect(existsSync(app.storage.storedPath('user-documents', fileId))).toBe(false);
    expect(await app.db.select().from(files).where(eq(files.id, fileId))).toHaveLength(0);
    expect(await app.db.select().from(userDocuments).where(eq(userDocuments.userId, user.id))).toHaveLength(0);
    expect(await actionsOn(app, user.id)).toEqual(
      expect.arrayContaining([
        `Added document service-book.pdf to ${user.email}`,
        `Removed document service-book.pdf from ${user.email}`,
      ]),
    );
    const again = await app.inject({ method: 'DELETE', url: `/admin/users/${user.id}/documents/${doc._id}`, headers });
    expect(again.statusCode).toBe(404);
  });

  it('needs a file of an allowed type, and leaves nothing behind when refused', async () => {
    const { app, headers } = await signIn('admin');
    const user = await createUser(app, 'employee');
    const body = multipart({ filename: 'x' });
    const none = await app.inject({
      method: 'POST',
      url: `/admin/users/${user.id}/documents`,
      payload: body.payload,
      headers: { ...headers, ...body.headers },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ message: 'Please select a file to upload.', field: 'document' });
    const exe = await upload(app, user.id, headers, SAMPLE_FILES.exe, 'tool.exe');
    expect(exe.statusCode).toBe(400);
    expect(exe.json().message).toMatch(/^This file type is not allowed/);
    const unknown = await upload(app, '00000000-0000-4000-8000-000000000000', headers);
    expect(unknown.statusCode).toBe(404);
    expect(await app.db.select().from(userDocuments).where(eq(userDocuments.userId, user.id))).toHaveLength(0);
  });

  it('are for admins only', async () => {
    const app = await buildTestApp();
    const user = await createUser(app, 'employee');
    const body = multipart({}, { field: 'document', filename: 'a.pdf', content: SAMPLE_FILES.pdf });
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/admin/users/${user.id}/documents`,
          payload: body.payload,
          headers: body.headers,
        })
      ).statusCode,
    ).toBe(401);
    const self = await app.inject({
      method: 'POST',
      url: `/admin/users/${user.id}/documents`,
      payload: body.payload,
      headers: { ...authHeaders(app, user), ...body.headers },
    });
    expect(self.statusCode).toBe(403);
    await expectAdminOnly(app, 'DELETE', `/admin/users/${user.id}/documents/00000000-0000-4000-8000-000000000000`);
  });
});
