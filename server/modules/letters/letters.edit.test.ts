import { existsSync } from 'node:fs';

import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { activityLogs, type UserRow } from '#server/db/schema/index.ts';
import { authHeaders, createUser, letterFields } from '#server/test/factories.ts';
import { multipart, type MultipartFile, SAMPLE_FILES } from '#server/test/multipart.ts';

import { app, del, get, lettersOnDisk, pdf, put, upload, word } from './letters.test-helpers.ts';

// Editing, replacing the file, the recycle bin, the history, the file route and the CSV export.

describe('PUT /api/dac/{id}', () => {
  it('lets the uploader edit the nine fields, keeping history and activity', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner);
    const res = await put(owner, letter._id, {
      ...letterFields({ letterSub: 'Revised subject', letterDate: '2026-03-02T00:00:00.000Z' }),
      classification: 'Confidential',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      letterSub: 'Revised subject',
      letterDate: '2026-03-02',
      classification: 'Confidential',
      letterId: letter.letterId,
    });
    const history = (await get(owner, `/api/dac/${letter._id}/history`)).json();
    expect(history).toHaveLength(2);
    expect(history[1]).toMatchObject({
      action: 'updated',
      actor: { _id: owner.id },
      changes: {
        letterSub: { from: 'Fire drill schedule for the winter', to: 'Revised subject' },
        letterDate: { from: '2026-03-01', to: '2026-03-02' },
        classification: { from: 'Normal', to: 'Confidential' },
      },
    });
    const logs = await app.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, letter._id), eq(activityLogs.userId, owner.id)));
    expect(logs.map((l) => l.action)).toContain(
      `Updated letter ${letter.letterId} (letterDate, letterSub, classification)`,
    );
  });

  it('keeps the classification when it is not sent, and writes nothing when nothing changed', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner, { classification: 'Secret' });
    const res = await put(owner, letter._id, letterFields());
    expect(res.json()).toMatchObject({ classification: 'Secret' });
    expect((await get(owner, `/api/dac/${letter._id}/history`)).json()).toHaveLength(1);
  });

  it('lets only the uploader or an admin edit', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner);
    expect((await put(null, letter._id, letterFields())).statusCode).toBe(401);
    expect((await put(await createUser(app, 'employee'), letter._id, letterFields())).statusCode).toBe(404);
    const byDirector = await put(await createUser(app, 'director'), letter._id, letterFields({ letterSub: 'x' }));
    expect(byDirector.statusCode).toBe(403);
    expect(byDirector.json().message).toBe(
      'Only the person who uploaded this letter or an administrator may change it.',
    );
    const byAdmin = await put(
      await createUser(app, 'admin'),
      letter._id,
      letterFields({ letterSub: 'Fixed by admin' }),
    );
    expect(byAdmin.statusCode).toBe(200);
    expect((await put(owner, '00000000-0000-4000-8000-000000000000', letterFields())).statusCode).toBe(404);
  });

  it('says why a field is refused', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner);
    const res = await put(owner, letter._id, letterFields({ establishment: ' ' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Establishment is required.', field: 'establishment' });
    const noBody = await put(owner, letter._id, undefined);
    expect(noBody.statusCode).toBe(400);
  });
});

describe('PUT /api/dac/{id}/file', () => {
  const replace = async (user: UserRow | null, id: string, ...files: MultipartFile[]) => {
    const body = multipart({}, ...files);
    return app.inject({
      method: 'PUT',
      url: `/api/dac/${id}/file`,
      payload: body.payload,
      headers: { ...body.headers, ...(user ? await authHeaders(app, user) : {}) },
    });
  };

  it('replaces the file, removes the old one and notes it in the history', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner);
    const res = await replace(owner, letter._id, {
      field: 'file',
      filename: 'signed copy.png',
      content: SAMPLE_FILES.png,
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json();
    expect(updated).toMatchObject({ originalName: 'signed copy.png' });
    expect(updated.fileName).not.toBe(letter.fileName);
    expect(existsSync(app.storage.storedPath('letters', letter.fileName))).toBe(false);
    expect((await get(owner, letter.fileUrl)).statusCode).toBe(404);
    expect((await get(owner, updated.fileUrl)).statusCode).toBe(200);
    const history = (await get(owner, `/api/dac/${letter._id}/history`)).json();
    expect(history.at(-1)).toMatchObject({
      action: 'file_replaced',
      changes: { file: { from: 'Reply to HQ.pdf', to: 'signed copy.png' } },
    });
  });

  it('refuses strangers before reading the upload, a missing file and a wrong type', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner);
    const before = lettersOnDisk();
    expect((await replace(null, letter._id, pdf)).statusCode).toBe(401);
    expect((await replace(await createUser(app, 'employee'), letter._id, pdf)).statusCode).toBe(404);
    expect((await replace(await createUser(app, 'director'), letter._id, pdf)).statusCode).toBe(403);
    const none = await replace(owner, letter._id);
    expect(none.json()).toMatchObject({ message: '⚠️ Please select a file', field: 'file' });
    const exe = await replace(owner, letter._id, { ...pdf, content: SAMPLE_FILES.exe });
    expect(exe.statusCode).toBe(400);
    expect(lettersOnDisk()).toBe(before);
  });
});

describe('DELETE /api/dac/{id}, the recycle bin, restore and purge', () => {
  it('lets only the uploader or an admin move a letter to the recycle bin', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner);
    expect((await del(null, `/api/dac/${letter._id}`)).statusCode).toBe(401);
    expect((await del(await createUser(app, 'employee'), `/api/dac/${letter._id}`)).statusCode).toBe(404);
    expect((await del(await createUser(app, 'director'), `/api/dac/${letter._id}`)).statusCode).toBe(403);
    const res = await del(owner, `/api/dac/${letter._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Letter moved to the recycle bin.' });
    expect((await get(owner, `/api/dac/${letter._id}`)).statusCode).toBe(404);
    expect((await del(owner, `/api/dac/${letter._id}`)).statusCode).toBe(404);
    expect((await get(owner, '/api/dac?limit=100')).json()).toEqual([]);
    const admin = await createUser(app, 'admin');
    await upload(admin); // an admin may delete anyone's letter
    const adminsOwn = await upload(owner);
    expect((await del(admin, `/api/dac/${adminsOwn._id}`)).statusCode).toBe(200);
  });

  it('shows the bin to admins only, and restores from it', async () => {
    const owner = await createUser(app, 'employee');
    const admin = await createUser(app, 'admin');
    const letter = await upload(owner);
    await del(owner, `/api/dac/${letter._id}`);
    expect((await get(owner, '/api/dac/recycle-bin')).statusCode).toBe(403);
    expect((await get(await createUser(app, 'director'), '/api/dac/recycle-bin')).statusCode).toBe(403);
    const bin = (await get(admin, '/api/dac/recycle-bin?limit=100')).json();
    expect(bin.find((l: { _id: string }) => l._id === letter._id)).toMatchObject({
      deletedBy: { _id: owner.id },
      canEdit: false,
    });
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `/api/dac/${letter._id}/restore`,
          headers: await authHeaders(app, owner),
        })
      ).statusCode,
    ).toBe(403);
    const restored = await app.inject({
      method: 'POST',
      url: `/api/dac/${letter._id}/restore`,
      headers: await authHeaders(app, admin),
    });
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ _id: letter._id, deletedAt: null });
    expect((await get(owner, `/api/dac/${letter._id}`)).statusCode).toBe(200);
    const again = await app.inject({
      method: 'POST',
      url: `/api/dac/${letter._id}/restore`,
      headers: await authHeaders(app, admin),
    });
    expect(again.statusCode).toBe(409);
    const history = (await get(owner, `/api/dac/${letter._id}/history`)).json();
    expect(history.map((h: { action: string }) => h.action)).toEqual(['uploaded', 'deleted', 'restored']);
  });

  it('purges a binned letter with its file, for admins only', async () => {
    const owner = await createUser(app, 'employee');
    const admin = await createUser(app, 'admin');
    const letter = await upload(owner);
    expect((await del(admin, `/api/dac/${letter._id}/purge`)).statusCode).toBe(409); // not in the bin yet
    await del(owner, `/api/dac/${letter._id}`);
    expect((await del(owner, `/api/dac/${letter._id}/purge`)).statusCode).toBe(403);
    const res = await del(admin, `/api/dac/${letter._id}/purge`);
    expect(res.statusCode).toBe(200);
    expect(existsSync(app.storage.storedPath('letters', letter.fileName))).toBe(false);
    expect((await get(admin, `/api/dac/${letter._id}`)).statusCode).toBe(404);
    expect((await get(admin, letter.fileUrl)).statusCode).toBe(404);
    const [log] = await app.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, letter._id), eq(activityLogs.userId, admin.id)));
    expect(log!.action).toBe(`Purged letter ${letter.letterId} (${letter.letterSub})`);
  });
});

describe('GET /api/dac/{id}/history', () => {
  it('is shown to those who may see the letter', async () => {
    const owner = await createUser(app, 'employee', { name: 'Meera Iyer' });
    const letter = await upload(owner);
    expect((await get(null, `/api/dac/${letter._id}/history`)).statusCode).toBe(401);
    expect((await get(await createUser(app, 'employee'), `/api/dac/${letter._id}/history`)).statusCode).toBe(404);
    const res = await get(await createUser(app, 'director'), `/api/dac/${letter._id}/history`);
    expect(res.json()).toMatchObject([{ action: 'uploaded', actor: { name: 'Meera Iyer' }, changes: null }]);
  });
});

describe('GET /uploads/letters/{fileName}', () => {
  it('serves a letter file only to those who may see the letter', async () => {
    const owner = await createUser(app, 'employee');
    // Normal: the file as it was uploaded (a Confidential letter's PDF is sent watermarked: watermarked-downloads.test.ts).
    const letter = await upload(owner);
    expect((await get(null, letter.fileUrl)).statusCode).toBe(401);
    const ok = await get(owner, letter.fileUrl);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('application/pdf');
    expect(ok.rawPayload.equals(SAMPLE_FILES.pdf)).toBe(true);
    const outsider = await get(await createUser(app, 'employee'), letter.fileUrl);
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json().message).toBe('You are not allowed to open this file.');
    expect((await get(await createUser(app, 'associate_director'), letter.fileUrl)).statusCode).toBe(403);
    expect((await get(await createUser(app, 'director'), letter.fileUrl)).statusCode).toBe(200);
    expect((await get(await createUser(app, 'admin'), letter.fileUrl)).statusCode).toBe(200);
  });

  it('keeps the file of a binned letter for admins only', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner);
    await del(owner, `/api/dac/${letter._id}`);
    expect((await get(owner, letter.fileUrl)).statusCode).toBe(403);
    expect((await get(await createUser(app, 'director'), letter.fileUrl)).statusCode).toBe(403);
    expect((await get(await createUser(app, 'admin'), letter.fileUrl)).statusCode).toBe(200);
  });
});

describe('GET /api/dac/export', () => {
  it('exports the letters of the search that the person may see, as CSV', async () => {
    const tag = word();
    const owner = await createUser(app, 'employee', { name: 'Ravi Kumar' });
    await upload(owner, { letterSub: `${tag} "quoted", subject`, letterNo: '=HYPERLINK("x")' });
    await upload(await createUser(app, 'employee'), { letterSub: `${tag} not mine` });
    expect((await get(null, `/api/dac/export?q=${tag}`)).statusCode).toBe(401);
    const res = await get(owner, `/api/dac/export?q=${tag}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="letters-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Letter ID,Subject,Docket No,Letter No,Letter Date,Docket Date,Category,Establishment,Language,Communicated By,Classification,Uploaded By,Uploaded On,File,Movements',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"${tag} ""quoted"", subject",D-42,"'=HYPERLINK(""x"")",01 Mar 2026,03 Mar 2026`);
    expect(lines[1]).toContain('Ravi Kumar');
  });
});
