import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { files } from '#server/db/schema/index.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';
import { startTestS3, type TestS3 } from '#server/test/s3-server.ts';

import { app, areaFiles, buildStorageApp, stagedFiles } from './storage.test-helpers.ts';

// The same tests for both drivers: the local disk and an S3-protocol server (s3rver) through the AWS SDK v3.
describe.each(['local', 's3'] as const)('%s storage', (driver) => {
  let s3: TestS3 | undefined;
  beforeAll(async () => {
    s3 = driver === 's3' ? await startTestS3() : undefined;
    await buildStorageApp(s3);
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('uses the driver STORAGE names', () => {
    expect(app.storage.driver.kind).toBe(driver);
  });

  describe('storage module: uploads', () => {
    it('streams the file to <area>/<uuid> in storage and keeps the original name in the database', async () => {
      const user = await createUser(app, 'employee');
      const body = multipart(
        { title: 'Dak' },
        { field: 'file', filename: 'Reply to HQ.pdf', content: SAMPLE_FILES.pdf },
      );
      const res = await app.inject({
        method: 'POST',
        url: '/test/upload/letters',
        payload: body.payload,
        headers: { ...body.headers, ...(await authHeaders(app, user)) },
      });
      expect(res.statusCode).toBe(200);
      const { fileId } = res.json();
      const [row] = await app.db.select().from(files).where(eq(files.id, fileId));
      expect(row).toMatchObject({
        area: 'letters',
        storedName: fileId,
        originalName: 'Reply to HQ.pdf',
        mimeType: 'application/pdf',
      });
      expect(row!.size).toBe(SAMPLE_FILES.pdf.length);
      expect(await areaFiles('letters')).toContain(fileId);
      expect(stagedFiles()).toHaveLength(0);
    });

    it('refuses a renamed .exe by its content, and a wrong extension, leaving no file behind', async () => {
      const user = await createUser(app, 'employee');
      const before = (await areaFiles('letters')).length;
      for (const [filename, content, message] of [
        ['invoice.pdf', SAMPLE_FILES.exe, "The file's content does not match its .pdf extension."],
        ['photo.png', SAMPLE_FILES.pdf, "The file's content does not match its .png extension."],
        ['tool.exe', SAMPLE_FILES.exe, 'This file type is not allowed. Allowed types: pdf, doc, docx, jpg, png.'],
        ['noextension', SAMPLE_FILES.pdf, 'This file type is not allowed. Allowed types: pdf, doc, docx, jpg, png.'],
      ] as const) {
        const body = multipart({ title: 'x' }, { field: 'file', filename, content });
        const res = await app.inject({
          method: 'POST',
          url: '/test/upload/letters',
          payload: body.payload,
          headers: { ...body.headers, ...(await authHeaders(app, user)) },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ error: message, field: 'file' });
      }
      expect((await areaFiles('letters')).length).toBe(before);
      expect(stagedFiles()).toHaveLength(0);
    });

    it('accepts plain text as .txt but not a binary named .txt', async () => {
      const user = await createUser(app, 'admin');
      const ok = multipart({ title: 'notes' }, { field: 'file', filename: 'notes.txt', content: SAMPLE_FILES.txt });
      const res = await app.inject({
        method: 'POST',
        url: '/test/upload/trial-repos',
        payload: ok.payload,
        headers: { ...ok.headers, ...(await authHeaders(app, user)) },
      });
      expect(res.statusCode).toBe(200);
      const bad = multipart({ title: 'notes' }, { field: 'file', filename: 'notes.txt', content: SAMPLE_FILES.exe });
      const refused = await app.inject({
        method: 'POST',
        url: '/test/upload/trial-repos',
        payload: bad.payload,
        headers: { ...bad.headers, ...(await authHeaders(app, user)) },
      });
      expect(refused.statusCode).toBe(400);
    });

    it('answers 413 with the limit for a file over the size limit, leaving nothing behind', async () => {
      const user = await createUser(app, 'employee');
      const before = (await areaFiles('photos')).length;
      const big = Buffer.concat([SAMPLE_FILES.png, Buffer.alloc(200 * 1024)]);
      const body = multipart({ title: 'big' }, { field: 'file', filename: 'big.png', content: big });
      const res = await app.inject({
        method: 'POST',
        url: '/test/upload/photos',
        payload: body.payload,
        headers: { ...body.headers, ...(await authHeaders(app, user)) },
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().error).toBe('The file is too large. The limit is 64 KB.');
      expect((await areaFiles('photos')).length).toBe(before);
      expect(stagedFiles()).toHaveLength(0);
    });

    it('removes the file when validation or the database insert fails afterwards', async () => {
      const user = await createUser(app, 'employee');
      const before = (await areaFiles('photos')).length;
      const noTitle = multipart({}, { field: 'file', filename: 'a.png', content: SAMPLE_FILES.png });
      const r1 = await app.inject({
        method: 'POST',
        url: '/test/upload/photos',
        payload: noTitle.payload,
        headers: { ...noTitle.headers, ...(await authHeaders(app, user)) },
      });
      expect(r1.statusCode).toBe(400);
      expect(r1.json().error).toBe('Invalid input.');
      const dbFails = multipart(
        { title: 't', fail: 'db' },
        { field: 'file', filename: 'a.png', content: SAMPLE_FILES.png },
      );
      const r2 = await app.inject({
        method: 'POST',
        url: '/test/upload/photos',
        payload: dbFails.payload,
        headers: { ...dbFails.headers, ...(await authHeaders(app, user)) },
      });
      expect(r2.statusCode).toBe(500);
      expect((await areaFiles('photos')).length).toBe(before);
      expect(stagedFiles()).toHaveLength(0);
      const rows = await app.db.select().from(files).where(eq(files.uploadedBy, user.id));
      expect(rows).toHaveLength(0);
    });

    it('refuses a second file and a non-multipart request', async () => {
      const user = await createUser(app, 'employee');
      const two = multipart(
        { title: 't' },
        { field: 'file', filename: 'a.png', content: SAMPLE_FILES.png },
        { field: 'file', filename: 'b.png', content: SAMPLE_FILES.png },
      );
      const res = await app.inject({
        method: 'POST',
        url: '/test/upload/photos',
        payload: two.payload,
        headers: { ...two.headers, ...(await authHeaders(app, user)) },
      });
      expect(res.statusCode).toBe(400);
      const json = await app.inject({
        method: 'POST',
        url: '/test/upload/photos',
        payload: { title: 't' },
        headers: await authHeaders(app, user),
      });
      expect(json.statusCode).toBe(400);
      expect(json.json().error).toBe('Expected a multipart/form-data request.');
    });
  });
});
