import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { files } from '#server/db/schema/index.ts';
import { badRequest } from '#server/lib/errors.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';
import { receiveMultipart, saveFileRow, storedPath, type Area } from './storage.ts';
import { registerFileAccess } from './files.policy.ts';

let app: FastifyInstance;

/** A route that uses the storage module as every module does: receive, validate, insert in a transaction. */
async function uploadRoute(instance: FastifyInstance) {
  instance.post('/test/upload/:area', { onRequest: [instance.authenticate] }, async (req) => {
    const area = (req.params as { area: Area }).area;
    const kind = area === 'letters' ? 'letter' : area === 'trial-repos' ? 'trialRepo' : 'image';
    const upload = await receiveMultipart(req, {
      area,
      kind,
      fileField: 'file',
      maxBytes: instance.config.uploadMaxBytes,
    });
    try {
      if (!upload.fields.title) throw badRequest('Title is required.', 'title');
      return await instance.db.transaction(async (tx) => {
        const row = upload.file ? await saveFileRow(tx, upload.file, req.user.id) : null;
        if (upload.fields.fail === 'db') throw new Error('insert failed after the file row');
        return { fileId: row?.id ?? null };
      });
    } catch (err) {
      await upload.discard();
      throw err;
    }
  });
}

const areaFiles = (area: string) => {
  const dir = path.join(app.config.dataDir, 'uploads', area);
  return existsSync(dir) ? readdirSync(dir) : [];
};

beforeAll(async () => {
  app = await buildTestApp({ UPLOAD_MAX_BYTES: String(64 * 1024) }, uploadRoute);
  registerFileAccess('letters', async (_db, actor, file) => file.uploadedBy === actor.id || actor.role === 'director');
});

describe('storage module: uploads', () => {
  it('streams the file to DATA_DIR/uploads/<area>/<uuid> and keeps the original name in the database', async () => {
    const user = await createUser(app, 'employee');
    const body = multipart({ title: 'Dak' }, { field: 'file', filename: 'Reply to HQ.pdf', content: SAMPLE_FILES.pdf });
    const res = await app.inject({
      method: 'POST',
      url: '/test/upload/letters',
      payload: body.payload,
      headers: { ...body.headers, ...authHeaders(app, user) },
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
    expect(existsSync(storedPath('letters', fileId))).toBe(true);
  });

  it('refuses a renamed .exe by its content, and a wrong extension, leaving no file behind', async () => {
    const user = await createUser(app, 'employee');
    const before = areaFiles('letters').length;
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
        headers: { ...body.headers, ...authHeaders(app, user) },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: message, field: 'file' });
    }
    expect(areaFiles('letters').length).toBe(before);
  });

  it('accepts plain text as .txt but not a binary named .txt', async () => {
    const user = await createUser(app, 'admin');
    const ok = multipart({ title: 'notes' }, { field: 'file', filename: 'notes.txt', content: SAMPLE_FILES.txt });
    const res = await app.inject({
      method: 'POST',
      url: '/test/upload/trial-repos',
      payload: ok.payload,
      headers: { ...ok.headers, ...authHeaders(app, user) },
    });
    expect(res.statusCode).toBe(200);
    const bad = multipart({ title: 'notes' }, { field: 'file', filename: 'notes.txt', content: SAMPLE_FILES.exe });
    const refused = await app.inject({
      method: 'POST',
      url: '/test/upload/trial-repos',
      payload: bad.payload,
      headers: { ...bad.headers, ...authHeaders(app, user) },
    });
    expect(refused.statusCode).toBe(400);
  });

  it('answers 413 with the limit for a file over the size limit, leaving nothing behind', async () => {
    const user = await createUser(app, 'employee');
    const before = areaFiles('photos').length;
    const big = Buffer.concat([SAMPLE_FILES.png, Buffer.alloc(200 * 1024)]);
    const body = multipart({ title: 'big' }, { field: 'file', filename: 'big.png', content: big });
    const res = await app.inject({
      method: 'POST',
      url: '/test/upload/photos',
      payload: body.payload,
      headers: { ...body.headers, ...authHeaders(app, user) },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('The file is too large. The limit is 64 KB.');
    expect(areaFiles('photos').length).toBe(before);
  });

  it('removes the file when validation or the database insert fails afterwards', async () => {
    const user = await createUser(app, 'employee');
    const before = areaFiles('photos').length;
    const noTitle = multipart({}, { field: 'file', filename: 'a.png', content: SAMPLE_FILES.png });
    const r1 = await app.inject({
      method: 'POST',
      url: '/test/upload/photos',
      payload: noTitle.payload,
      headers: { ...noTitle.headers, ...authHeaders(app, user) },
    });
    expect(r1.statusCode).toBe(400);
    expect(r1.json().error).toBe('Title is required.');
    const dbFails = multipart(
      { title: 't', fail: 'db' },
      { field: 'file', filename: 'a.png', content: SAMPLE_FILES.png },
    );
    const r2 = await app.inject({
      method: 'POST',
      url: '/test/upload/photos',
      payload: dbFails.payload,
      headers: { ...dbFails.headers, ...authHeaders(app, user) },
    });
    expect(r2.statusCode).toBe(500);
    expect(areaFiles('photos').length).toBe(before);
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
      headers: { ...two.headers, ...authHeaders(app, user) },
    });
    expect(res.statusCode).toBe(400);
    const json = await app.inject({
      method: 'POST',
      url: '/test/upload/photos',
      payload: { title: 't' },
      headers: authHeaders(app, user),
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toBe('Expected a multipart/form-data request.');
  });
});

describe('GET /uploads/:area/:name', () => {
  async function upload(area: Area, user: Awaited<ReturnType<typeof createUser>>, filename: string, content: Buffer) {
    const body = multipart({ title: 't' }, { field: 'file', filename, content });
    const res = await app.inject({
      method: 'POST',
      url: `/test/upload/${area}`,
      payload: body.payload,
      headers: { ...body.headers, ...authHeaders(app, user) },
    });
    return res.json().fileId as string;
  }

  it('serves public areas without sign-in, inline, with the original name', async () => {
    const admin = await createUser(app, 'admin');
    const id = await upload('photos', admin, 'Open day 2026.png', SAMPLE_FILES.png);
    const res = await app.inject({ method: 'GET', url: `/uploads/photos/${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toContain('filename="Open day 2026.png"');
    expect(res.rawPayload.equals(SAMPLE_FILES.png)).toBe(true);
  });

  it('serves private areas only to those allowed: anonymous 401, outsider 403, owner, director by rule, admin', async () => {
    const owner = await createUser(app, 'employee');
    const outsider = await createUser(app, 'employee');
    const director = await createUser(app, 'director');
    const admin = await createUser(app, 'admin');
    const id = await upload('letters', owner, 'पत्र reply.pdf', SAMPLE_FILES.pdf);
    const url = `/uploads/letters/${id}`;
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url, headers: authHeaders(app, outsider) })).statusCode).toBe(403);
    for (const user of [owner, director, admin]) {
      const res = await app.inject({ method: 'GET', url, headers: authHeaders(app, user) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      expect(res.headers['content-disposition']).toContain(
        "filename*=UTF-8''%E0%A4%AA%E0%A4%A4%E0%A5%8D%E0%A4%B0%20reply.pdf",
      );
    }
    const byCookie = await app.inject({ method: 'GET', url, cookies: { lp_token: app.issueToken(owner) } });
    expect(byCookie.statusCode).toBe(200);
  });

  it('never lets a client path reach the filesystem', async () => {
    for (const url of [
      '/uploads/photos/..%2F..%2Fjwt-secret',
      '/uploads/../jwt-secret',
      '/uploads/photos/not-a-uuid',
      '/uploads/secrets/00000000-0000-4000-8000-000000000000',
      '/uploads/photos/00000000-0000-4000-8000-000000000000',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect([400, 404]).toContain(res.statusCode);
      expect(res.body).not.toContain('test-secret');
    }
  });
});
