import { existsSync } from 'node:fs';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';

import { todayInIndia } from '#shared/format.ts';

import { activityLogs, files } from '#server/db/schema/index.ts';
import { authHeaders, createLab, createUser } from '#server/test/factories.ts';
import { SAMPLE_FILES } from '#server/test/multipart.ts';

import { admin, app, areaFiles, fileRows, send } from './labs.test-helpers.ts';

// The lab's notices, circulars, products and advertisements (/api/labs/{id}/{kind}), and its documents list.

// The lab these tests work on, made before them (labs.record.test.ts creates one through the API).
let labId: string;
beforeAll(async () => {
  labId = (await createLab(app)).id;
});

describe('lab notices, circulars, products and advertisements', () => {
  const notice = { name: 'Holiday list 2027', description: 'Gazetted holidays', validUntil: '' };
  const pdf = { filename: 'Holidays 2027.pdf', content: SAMPLE_FILES.pdf };

  it('refuses a visitor (401) and every role but admin (403), for create, edit and delete, reading no upload', async () => {
    const before = areaFiles('notices');
    const itemId = '00000000-0000-4000-8000-000000000000';
    const employee = await authHeaders(app, await createUser(app, 'employee'));
    const director = await authHeaders(app, await createUser(app, 'director'));
    for (const [headers, status] of [
      [{}, 401],
      [employee, 403],
      [director, 403],
    ] as const) {
      expect((await send('POST', `/api/labs/${labId}/notices`, headers, notice, pdf)).statusCode).toBe(status);
      expect((await send('PUT', `/api/labs/${labId}/notices/${itemId}`, headers, notice, pdf)).statusCode).toBe(status);
      const del = await app.inject({ method: 'DELETE', url: `/api/labs/${labId}/notices/${itemId}`, headers });
      expect(del.statusCode).toBe(status);
    }
    expect(areaFiles('notices')).toBe(before);
  });

  it('creates a notice with its PDF, served to anyone inline; the file is kept under its id', async () => {
    const res = await send('POST', `/api/labs/${labId}/notices`, admin, notice, pdf);
    expect(res.statusCode).toBe(201);
    const item = res.json();
    expect(item).toMatchObject({
      name: 'Holiday list 2027',
      description: 'Gazetted holidays',
      validUntil: null,
      expired: false,
    });
    expect(item.fileName).toBe('Holidays 2027.pdf');
    expect(item.fileUrl).toMatch(/^\/uploads\/notices\/[0-9a-f-]{36}$/);
    const file = await app.inject({ method: 'GET', url: item.fileUrl });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(String(file.headers['content-disposition'])).toContain('inline');
    const lab = (await app.inject({ method: 'GET', url: `/api/labs/${labId}` })).json();
    expect(lab.notices.map((n: { _id: string }) => n._id)).toContain(item._id);
  });

  it.each([
    [{ ...notice, name: ' ' }, pdf, 'name'],
    [{ ...notice, description: '' }, pdf, 'description'],
    [notice, undefined, 'file'],
  ])("says 'All fields are required' for a notice without %# (%s)", async (fields, file, field) => {
    const before = areaFiles('notices');
    const res = await send('POST', `/api/labs/${labId}/notices`, admin, fields, file);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'All fields are required', field });
    expect(areaFiles('notices')).toBe(before);
  });

  it('refuses a wrong type, a renamed executable and a file over the limit, leaving no file behind', async () => {
    const before = [areaFiles('circulars'), await fileRows('circulars')];
    const wrong = await send('POST', `/api/labs/${labId}/circulars`, admin, notice, {
      filename: 'tool.exe',
      content: SAMPLE_FILES.exe,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      error: 'This file type is not allowed. Allowed types: pdf, doc, docx, png, jpg, jpeg.',
      field: 'file',
    });
    const renamed = await send('POST', `/api/labs/${labId}/circulars`, admin, notice, {
      filename: 'c.pdf',
      content: SAMPLE_FILES.exe,
    });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().error).toBe("The file's content does not match its .pdf extension.");
    const big = Buffer.concat([SAMPLE_FILES.pdf, Buffer.alloc(app.config.uploadMaxBytes + 1, 32)]);
    const tooBig = await send('POST', `/api/labs/${labId}/circulars`, admin, notice, {
      filename: 'big.pdf',
      content: big,
    });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error).toBe('The file is too large. The limit is 2 MB.');
    expect([areaFiles('circulars'), await fileRows('circulars')]).toEqual(before);
  });

  it('edits a notice without a file, then replaces its file and deletes the old one', async () => {
    const created = (await send('POST', `/api/labs/${labId}/circulars`, admin, notice, pdf)).json();
    const oldFileId = created.fileUrl.split('/').pop();
    const edited = await send('PUT', `/api/labs/${labId}/circulars/${created._id}`, admin, {
      name: 'Holiday list (revised)',
      description: 'Revised',
      validUntil: '2099-12-31',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      name: 'Holiday list (revised)',
      validUntil: '2099-12-31',
      fileUrl: created.fileUrl,
    });
    const blank = await send('PUT', `/api/labs/${labId}/circulars/${created._id}`, admin, {
      name: '',
      description: 'x',
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toBe('All fields are required');

    const replaced = await send(
      'PUT',
      `/api/labs/${labId}/circulars/${created._id}`,
      admin,
      { name: 'Holiday list', description: 'With a scan' },
      { filename: 'scan.png', content: SAMPLE_FILES.png },
    );
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().fileName).toBe('scan.png');
    expect(replaced.json().fileUrl).not.toBe(created.fileUrl);
    expect(existsSync(path.join(app.config.dataDir, 'uploads', 'circulars', oldFileId))).toBe(false);
    expect(await app.db.select().from(files).where(eq(files.id, oldFileId))).toHaveLength(0);
    expect((await app.inject({ method: 'GET', url: created.fileUrl })).statusCode).toBe(404);
  });

  it('deletes a notice with its file, and answers 404 for it afterwards or under another kind', async () => {
    const created = (await send('POST', `/api/labs/${labId}/notices`, admin, notice, pdf)).json();
    const fileId = created.fileUrl.split('/').pop();
    const wrongKind = await app.inject({
      method: 'DELETE',
      url: `/api/labs/${labId}/circulars/${created._id}`,
      headers: admin,
    });
    expect(wrongKind.statusCode).toBe(404);
    // One code per kind, so Hindi words each noun.
    expect(wrongKind.json()).toMatchObject({ message: 'This circular no longer exists.', code: 'labs.circular_gone' });
    const res = await app.inject({
      method: 'DELETE',
      url: `/api/labs/${labId}/notices/${created._id}`,
      headers: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Notice deleted successfully.');
    expect(existsSync(path.join(app.config.dataDir, 'uploads', 'notices', fileId))).toBe(false);
    expect(await app.db.select().from(files).where(eq(files.id, fileId))).toHaveLength(0);
    const again = await app.inject({
      method: 'DELETE',
      url: `/api/labs/${labId}/notices/${created._id}`,
      headers: admin,
    });
    expect(again.statusCode).toBe(404);
    const logs = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, created._id));
    expect(logs.map((l) => l.action)).toEqual(
      expect.arrayContaining(['Added notice "Holiday list 2027"', 'Deleted notice "Holiday list 2027"']),
    );
  });

  it('adds products and advertisements with an optional pdf or image; name and description are required', async () => {
    const noFile = await send('POST', `/api/labs/${labId}/products`, admin, {
      name: 'Fire suit',
      description: 'Proximity suit',
    });
    expect(noFile.statusCode).toBe(201);
    expect(noFile.json()).toMatchObject({ name: 'Fire suit', fileUrl: null, fileName: null });
    const withImage = await send(
      'POST',
      `/api/labs/${labId}/advertisements`,
      admin,
      { name: 'Open day', description: 'Visit us' },
      { filename: 'poster.png', content: SAMPLE_FILES.png },
    );
    expect(withImage.statusCode).toBe(201);
    expect(withImage.json().fileUrl).toMatch(/^\/uploads\/advertisements\//);
    const docx = await send(
      'POST',
      `/api/labs/${labId}/products`,
      admin,
      { name: 'A', description: 'B' },
      { filename: 'brochure.docx', content: SAMPLE_FILES.zip },
    );
    expect(docx.statusCode).toBe(400);
    expect(docx.json().error).toBe('This file type is not allowed. Allowed types: pdf, png, jpg, jpeg, gif, webp.');
    const blank = await send('POST', `/api/labs/${labId}/products`, admin, { name: 'A', description: ' ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ error: 'Name and description are required', field: 'description' });
    const lab = (await app.inject({ method: 'GET', url: `/api/labs/${labId}` })).json();
    expect(lab.products.map((p: { name: string }) => p.name)).toContain('Fire suit');
    expect(lab.advertisements.map((p: { name: string }) => p.name)).toContain('Open day');
  });

  it('refuses an unknown kind and an unknown lab', async () => {
    const kind = await send('POST', `/api/labs/${labId}/memos`, admin, notice, pdf);
    expect(kind.statusCode).toBe(400);
    expect(kind.json().error).toBe('No such list of the lab.');
    const lab = await send('POST', '/api/labs/00000000-0000-4000-8000-000000000000/notices', admin, notice, pdf);
    expect(lab.statusCode).toBe(404);
  });
});

describe('GET /api/labs/:id/documents', () => {
  it('lists notices and circulars newest first for anyone; ?current=true leaves out expired ones', async () => {
    const yesterday = new Date(Date.now() - 36 * 3600 * 1000);
    const expiredDate = todayInIndia(yesterday);
    const pdf = { filename: 'n.pdf', content: SAMPLE_FILES.pdf };
    const expired = (
      await send(
        'POST',
        `/api/labs/${labId}/notices`,
        admin,
        { name: 'Old drill', description: 'Done', validUntil: expiredDate },
        pdf,
      )
    ).json();
    const today = (
      await send(
        'POST',
        `/api/labs/${labId}/notices`,
        admin,
        { name: 'Drill today', description: 'Now', validUntil: todayInIndia() },
        pdf,
      )
    ).json();
    const all = (await app.inject({ method: 'GET', url: `/api/labs/${labId}/documents` })).json();
    const ids = all.notices.map((n: { _id: string }) => n._id);
    expect(ids.slice(0, 2)).toEqual([today._id, expired._id]);
    expect(all.notices.find((n: { _id: string }) => n._id === expired._id)).toMatchObject({ expired: true });
    expect(all.notices.find((n: { _id: string }) => n._id === today._id)).toMatchObject({ expired: false });

    const current = (await app.inject({ method: 'GET', url: `/api/labs/${labId}/documents?current=true` })).json();
    const currentIds = current.notices.map((n: { _id: string }) => n._id);
    expect(currentIds).toContain(today._id);
    expect(currentIds).not.toContain(expired._id);
    const limited = (
      await app.inject({ method: 'GET', url: `/api/labs/${labId}/documents?current=true&limit=1` })
    ).json();
    expect(limited.notices).toHaveLength(1);
    expect(limited.circulars.length).toBeLessThanOrEqual(1);
    const lab = (await app.inject({ method: 'GET', url: `/api/labs/${labId}` })).json();
    expect(lab.notices.find((n: { _id: string }) => n._id === expired._id)).toMatchObject({ expired: true });
  });

  it('refuses a bad validUntil date', async () => {
    const res = await send(
      'POST',
      `/api/labs/${labId}/notices`,
      admin,
      { name: 'N', description: 'D', validUntil: '31-12-2027' },
      { filename: 'n.pdf', content: SAMPLE_FILES.pdf },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Please enter a valid date.', field: 'validUntil' });
  });
});
