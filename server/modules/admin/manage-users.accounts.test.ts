import { existsSync } from 'node:fs';

import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';

import { files, userDocuments } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createUser, signIn } from '#server/test/factories.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';

import { actionsOn, expectAdminOnly, login, tick } from './manage-users.test-helpers.ts';

buildTestAppBeforeAll();

// Deactivating and reactivating an account, resetting its password, and its documents.

describe('deactivate and reactivate', () => {
  it('deactivation stops sign-in and every token at once; reactivation lets the user sign in again', async () => {
    const { app, headers } = await signIn('admin');
    const user = await createUser(app, 'employee');
    const token = await authHeaders(app, user);
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
    const token = await authHeaders(app, user);
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
    expect((await app.inject({ method: 'GET', url: doc.url, headers: await authHeaders(app, user) })).statusCode).toBe(
      200,
    );
    expect((await app.inject({ method: 'GET', url: doc.url, headers })).statusCode).toBe(200);
    const other = await createUser(app, 'director');
    expect((await app.inject({ method: 'GET', url: doc.url, headers: await authHeaders(app, other) })).statusCode).toBe(
      403,
    );
    const profile = await app.inject({
      method: 'GET',
      url: `/api/users/${user.id}`,
      headers: await authHeaders(app, user),
    });
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
      headers: { ...(await authHeaders(app, user)), ...body.headers },
    });
    expect(self.statusCode).toBe(403);
    await expectAdminOnly(app, 'DELETE', `/admin/users/${user.id}/documents/00000000-0000-4000-8000-000000000000`);
  });
});
