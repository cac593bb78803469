import { existsSync } from 'node:fs';

import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { files, type UserRow } from '#server/db/schema/index.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';

import {
  actionsFor,
  type Cast,
  cast,
  closeGroupBody,
  createCloseGroup,
  fileIdOf,
  upload,
  uploaded,
} from './close-groups.test-helpers.ts';

// The members' routes: their close groups, and uploading, renaming and deleting documents (/api/close-groups).

describe('GET /api/close-groups/mine and /api/close-groups/{id}', () => {
  it("lists only the signed-in user's close groups, with documents; an admin sees all", async () => {
    const c = await cast();
    const group = await createCloseGroup(c);
    await uploaded(c, c.alice, group._id);
    expect((await c.app.inject({ method: 'GET', url: '/api/close-groups/mine' })).statusCode).toBe(401);

    const bobs = await c.app.inject({ method: 'GET', url: '/api/close-groups/mine', headers: await c.as(c.bob) });
    expect(bobs.statusCode).toBe(200);
    const paged = await c.app.inject({
      method: 'GET',
      url: '/api/close-groups/mine?limit=5',
      headers: await c.as(c.bob),
    });
    expect(paged.json()).toMatchObject({ total: 1, items: [{ _id: group._id }] });
    expect(bobs.json()).toHaveLength(1);
    expect(bobs.json()[0]).toMatchObject({
      _id: group._id,
      canUpload: true,
      documents: [{ filename: 'minutes.pdf', uploadedBy: { _id: c.alice.id, name: 'Alice Rao' }, canChange: false }],
    });
    const alices = await c.app.inject({ method: 'GET', url: '/api/close-groups/mine', headers: await c.as(c.alice) });
    expect(alices.json()[0].documents[0].canChange).toBe(true);

    const outsiders = await c.app.inject({
      method: 'GET',
      url: '/api/close-groups/mine',
      headers: await c.as(c.outsider),
    });
    expect(outsiders.json()).toEqual([]);
    const admins = await c.app.inject({
      method: 'GET',
      url: '/api/close-groups/mine',
      headers: await c.as(c.admin),
    });
    expect(admins.json().some((g: { _id: string }) => g._id === group._id)).toBe(true);
  });

  it('shows one close group to members and admins only', async () => {
    const c = await cast();
    const group = await createCloseGroup(c);
    const url = `/api/close-groups/${group._id}`;
    expect((await c.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await c.app.inject({ method: 'GET', url, headers: await c.as(c.bob) })).statusCode).toBe(200);
    expect((await c.app.inject({ method: 'GET', url, headers: await c.as(c.admin) })).statusCode).toBe(200);
    const outsider = await c.app.inject({ method: 'GET', url, headers: await c.as(c.outsider) });
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json().error).toBe('You are not a member of this close group.');
  });
});

describe('POST /api/close-groups/{id}/upload', () => {
  it("stores a member's document, logs it, and lets members and admins (only) download it", async () => {
    const c = await cast();
    const group = await createCloseGroup(c);
    const res = await upload(c, c.alice, group._id);
    expect(res.statusCode).toBe(201);
    const { message, document } = res.json();
    expect(message).toBe('Document uploaded successfully!');
    expect(document).toMatchObject({ filename: 'minutes.pdf', uploadedBy: { _id: c.alice.id }, canChange: true });
    expect(document.url).toMatch(/^\/uploads\/close-groups\/[0-9a-f-]{36}$/);
    expect(await actionsFor(c.app, document._id)).toEqual(['Uploaded minutes.pdf to close group Blast wall review']);

    for (const [who, status] of [
      [c.alice, 200],
      [c.bob, 200],
      [c.admin, 200],
      [c.outsider, 403],
    ] as const) {
      const download = await c.app.inject({ method: 'GET', url: document.url, headers: await c.as(who) });
      expect(download.statusCode).toBe(status);
      if (status === 200) expect(download.rawPayload.equals(SAMPLE_FILES.pdf)).toBe(true);
    }
    expect((await c.app.inject({ method: 'GET', url: document.url })).statusCode).toBe(401);
  });

  it('refuses a visitor, a non-member and an unknown group, leaving no file behind', async () => {
    const c = await cast();
    const group = await createCloseGroup(c);
    expect((await upload(c, null, group._id)).statusCode).toBe(401);
    const outsider = await upload(c, c.outsider, group._id);
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json().error).toBe('You are not a member of this close group.');
    expect((await upload(c, c.alice, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    const stored = await c.app.db.select().from(files).where(eq(files.area, 'close-groups'));
    expect(stored.filter((f) => f.uploadedBy === c.outsider.id)).toEqual([]);
  });

  it('says "Please select a file to upload." without a file, and refuses a disallowed or disguised file', async () => {
    const c = await cast();
    const group = await createCloseGroup(c);
    const empty = multipart({ note: 'no file' });
    const none = await c.app.inject({
      method: 'POST',
      url: `/api/close-groups/${group._id}/upload`,
      payload: empty.payload,
      headers: { ...empty.headers, ...(await c.as(c.alice)) },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error: 'Please select a file to upload.', field: 'document' });
    const exe = await upload(c, c.alice, group._id, { filename: 'tool.exe', content: SAMPLE_FILES.exe });
    expect(exe.statusCode).toBe(400);
    expect(exe.json().error).toContain('This file type is not allowed.');
    const disguised = await upload(c, c.alice, group._id, { filename: 'report.pdf', content: SAMPLE_FILES.exe });
    expect(disguised.statusCode).toBe(400);
    const mine = await c.app.inject({
      method: 'GET',
      url: `/api/close-groups/${group._id}`,
      headers: await c.as(c.alice),
    });
    expect(mine.json().documents).toEqual([]);
  });
  it('shuts a member out as soon as the admin removes them, also from the files they uploaded', async () => {
    const c = await cast();
    const group = await createCloseGroup(c);
    const doc = await uploaded(c, c.alice, group._id);
    const res = await c.app.inject({
      method: 'PUT',
      url: `/admin/close-group/${group._id}`,
      headers: await c.as(c.admin),
      payload: closeGroupBody([c.bob.id]),
    });
    expect(res.statusCode).toBe(200);
    expect((await c.app.inject({ method: 'GET', url: doc.url, headers: await c.as(c.alice) })).statusCode).toBe(403);
    expect((await upload(c, c.alice, group._id)).statusCode).toBe(403);
    const del = await c.app.inject({
      method: 'DELETE',
      url: `/api/close-groups/${group._id}/documents/${doc._id}`,
      headers: await c.as(c.alice),
    });
    expect(del.statusCode).toBe(403);
    expect((await c.app.inject({ method: 'GET', url: doc.url, headers: await c.as(c.bob) })).statusCode).toBe(200);
  });
});

describe('PUT /api/close-groups/{id}/documents/{docId}', () => {
  const rename = async (
    c: Cast,
    user: UserRow | null,
    groupId: string,
    docId: string,
    newFilename: unknown,
  ): Promise<LightMyRequestResponse> =>
    c.app.inject({
      method: 'PUT',
      url: `/api/close-groups/${groupId}/documents/${docId}`,
      headers: user ? await c.as(user) : {},
      payload: { newFilename },
    });

  it('lets the uploader rename, keeping the extension, and the download carries the new name', async () => {
    const c = await cast();
    const group = await createCloseGroup(c);
    const doc = await uploaded(c, c.alice, group._id);
    const res = await rename(c, c.alice, group._id, doc._id, '  Final minutes  ');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Document renamed successfully!',
      document: { filename: 'Final minutes.pdf' },
    });
    const download = await c.app.inject({ method: 'GET', url: doc.url, headers: await c.as(c.bob) });
    expect(download.headers['content-disposition']).toContain('Final minutes.pdf');
    expect(await actionsFor(c.app, doc._id)).toContain(
      'Renamed minutes.pdf to Final minutes.pdf in close group Blast wall review',
    );
    const admin = await rename(c, c.admin, group._id, doc._id, 'Approved minutes.pdf');
    expect(admin.json().document.filename).toBe('Approved minutes.pdf');
  });

  it.each([
    ['', 'Please enter a new filename.'],
    ['   ', 'Please enter a new filename.'],
    [undefined, 'Please enter a new filename.'],
    ['minutes.pdf', 'New filename is the same as the current filename.'],
    ['minutes', 'New filename is the same as the current filename.'],
    ['../../etc/passwd', 'A file name cannot contain / or \\ or control characters.'],
  ])('refuses %j with "%s"', async (newFilename, message) => {
    const c = await cast();
    const group = await createCloseGroup(c);
    const doc = await uploaded(c, c.alice, group._id);
    const res = await rename(c, c.alice, group._id, doc._id, newFilename);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: message, field: 'newFilename' });
  });

  it('refuses a visitor, another member, a non-member, and a document of another group', async () => {
    const c = await cast();
    const group = await createCloseGroup(c);
    const other = await createCloseGroup(c, { groupName: 'Other' });
    const doc = await uploaded(c, c.alice, group._id);
    expect((await rename(c, null, group._id, doc._id, 'x')).statusCode).toBe(401);
    const bob = await rename(c, c.bob, group._id, doc._id, 'x');
    expect(bob.statusCode).toBe(403);
    expect(bob.json().error).toBe('Only the person who uploaded this document or an administrator can rename it.');
    expect((await rename(c, c.outsider, group._id, doc._id, 'x')).statusCode).toBe(403);
    const elsewhere = await rename(c, c.alice, other._id, doc._id, 'x');
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().error).toBe('Document not found.');
  });
});

describe('DELETE /api/close-groups/{id}/documents/{docId}', () => {
  const remove = async (
    c: Cast,
    user: UserRow | null,
    groupId: string,
    docId: string,
  ): Promise<LightMyRequestResponse> =>
    c.app.inject({
      method: 'DELETE',
      url: `/api/close-groups/${groupId}/documents/${docId}`,
      headers: user ? await c.as(user) : {},
    });

  it('lets the uploader delete a document, removing its file', async () => {
    const c = await cast();
    const group = await createCloseGroup(c);
    const doc = await uploaded(c, c.alice, group._id);
    const res = await remove(c, c.alice, group._id, doc._id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Document deleted successfully!' });
    expect(existsSync(c.app.storage.storedPath('close-groups', fileIdOf(doc.url)))).toBe(false);
    expect(
      await c.app.db
        .select()
        .from(files)
        .where(eq(files.id, fileIdOf(doc.url))),
    ).toEqual([]);
    expect(await actionsFor(c.app, doc._id)).toContain('Deleted minutes.pdf from close group Blast wall review');
    expect((await remove(c, c.alice, group._id, doc._id)).statusCode).toBe(404);
  });

  it('refuses a visitor, another member and a non-member; an admin may delete', async () => {
    const c = await cast();
    const group = await createCloseGroup(c);
    const doc = await uploaded(c, c.alice, group._id);
    expect((await remove(c, null, group._id, doc._id)).statusCode).toBe(401);
    const bob = await remove(c, c.bob, group._id, doc._id);
    expect(bob.statusCode).toBe(403);
    expect(bob.json().error).toBe('Only the person who uploaded this document or an administrator can delete it.');
    expect((await remove(c, c.outsider, group._id, doc._id)).statusCode).toBe(403);
    expect(existsSync(c.app.storage.storedPath('close-groups', fileIdOf(doc.url)))).toBe(true);
    expect((await remove(c, c.admin, group._id, doc._id)).statusCode).toBe(200);
  });
});
