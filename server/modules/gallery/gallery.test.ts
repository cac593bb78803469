import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';

import { activityLogs, files, labPhotos } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createLab, createUser } from '#server/test/factories.ts';
import { multipart, pngClaiming, SAMPLE_FILES } from '#server/test/multipart.ts';

import { WEB_PHOTO_MAX_PX } from './gallery.service.ts';

let app: FastifyInstance;
let admin: Record<string, string>;
let labId: string;
/** A camera-sized photo (3000 x 2000, noisy so it does not compress away). */
let bigPhoto: Buffer;

beforeAll(async () => {
  app = await buildTestApp();
  admin = await authHeaders(app, await createUser(app, 'admin'));
  labId = (await createLab(app)).id;
  bigPhoto = await sharp({
    create: {
      width: 3000,
      height: 2000,
      channels: 3,
      background: '#5a8cc8',
      noise: { type: 'gaussian', mean: 128, sigma: 12 },
    },
  })
    .blur(1.2)
    .jpeg({ quality: 90 })
    .toBuffer();
});

const photoFiles = () => {
  const dir = path.join(app.config.dataDir, 'uploads', 'photos');
  return existsSync(dir) ? readdirSync(dir).length : 0;
};
const photoRows = async () => (await app.db.select().from(files).where(eq(files.area, 'photos'))).length;

function upload(
  headers: Record<string, string>,
  fields: Record<string, string>,
  file?: { filename: string; content: Buffer },
) {
  const body = file ? multipart(fields, { field: 'photo', ...file }) : multipart(fields);
  return app.inject({
    method: 'POST',
    url: `/api/labs/${labId}/upload-photo`,
    payload: body.payload,
    headers: { ...body.headers, ...headers },
  });
}

describe('POST /api/labs/:labId/upload-photo', () => {
  it('refuses a visitor (401) and every role but admin (403) before reading the upload', async () => {
    const before = photoFiles();
    const photo = { filename: 'a.png', content: SAMPLE_FILES.png };
    expect((await upload({}, { name: 'A', description: 'B' }, photo)).statusCode).toBe(401);
    for (const role of ['employee', 'director', 'associate_director'] as const) {
      const res = await upload(
        await authHeaders(app, await createUser(app, role)),
        { name: 'A', description: 'B' },
        photo,
      );
      expect(res.statusCode).toBe(403);
    }
    expect(photoFiles()).toBe(before);
  });

  it('stores the original and a resized web copy, both public', async () => {
    const res = await upload(
      admin,
      { name: 'Main gate', description: 'The main gate at dawn' },
      { filename: 'gate.jpg', content: bigPhoto },
    );
    expect(res.statusCode).toBe(201);
    const photo = res.json();
    expect(photo).toMatchObject({ name: 'Main gate', description: 'The main gate at dawn' });
    expect(photo.fileUrl).toMatch(/^\/uploads\/photos\//);
    expect(photo.webUrl).toMatch(/^\/uploads\/photos\//);
    expect(photo.webUrl).not.toBe(photo.fileUrl);

    const original = await app.inject({ method: 'GET', url: photo.fileUrl });
    const web = await app.inject({ method: 'GET', url: photo.webUrl });
    expect(original.statusCode).toBe(200);
    expect(original.rawPayload.length).toBe(bigPhoto.length);
    expect(web.headers['content-type']).toBe('image/webp');
    const meta = await sharp(web.rawPayload).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(WEB_PHOTO_MAX_PX);
    expect(web.rawPayload.length).toBeLessThan(bigPhoto.length / 5);

    const [row] = await app.db.select().from(labPhotos).where(eq(labPhotos.id, photo._id));
    expect(row!.webFileId).toBeTruthy();
    const logs = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, photo._id));
    expect(logs.map((l) => l.action)).toContain('Uploaded lab photo "Main gate"');
  });

  it('never enlarges a small photo', async () => {
    const small = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const res = await upload(
      admin,
      { name: 'Small', description: 'Small one' },
      { filename: 'small.png', content: small },
    );
    const web = await app.inject({ method: 'GET', url: res.json().webUrl });
    const meta = await sharp(web.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([320, 200]);
  });

  it.each([
    [{ name: ' ', description: 'D' }, true, 'name'],
    [{ name: 'N', description: '' }, true, 'description'],
    [{ name: 'N', description: 'D' }, false, 'photo'],
  ])("says 'Please fill all fields and select a file.' for %j (file: %s)", async (fields, withFile, field) => {
    const before = [photoFiles(), await photoRows()];
    const res = await upload(admin, fields, withFile ? { filename: 'a.png', content: SAMPLE_FILES.png } : undefined);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Please fill all fields and select a file.', field });
    expect([photoFiles(), await photoRows()]).toEqual(before);
  });

  it('refuses a non-image, a renamed executable, an unreadable image and an oversized file, leaving nothing behind', async () => {
    const before = [photoFiles(), await photoRows()];
    const fields = { name: 'N', description: 'D' };
    const pdf = await upload(admin, fields, { filename: 'doc.pdf', content: SAMPLE_FILES.pdf });
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json()).toMatchObject({
      error: 'This file type is not allowed. Allowed types: png, jpg, jpeg, gif, webp.',
      field: 'photo',
    });
    const exe = await upload(admin, fields, { filename: 'photo.jpg', content: SAMPLE_FILES.exe });
    expect(exe.statusCode).toBe(400);
    expect(exe.json().error).toBe("The file's content does not match its .jpg extension.");
    // A JPEG signature with nothing decodable behind it.
    const broken = await upload(admin, fields, { filename: 'broken.jpg', content: SAMPLE_FILES.brokenJpg });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({
      error: 'The image could not be read. Please choose another photo.',
      field: 'photo',
    });
    const big = Buffer.concat([SAMPLE_FILES.png, Buffer.alloc(app.config.uploadMaxBytes, 1)]);
    const tooBig = await upload(admin, fields, { filename: 'big.png', content: big });
    expect(tooBig.statusCode).toBe(413);
    expect([photoFiles(), await photoRows()]).toEqual(before);
  });

  it('refuses a photo of more than 40 megapixels (a 10000 x 10000 PNG) with 400, leaving nothing behind', async () => {
    const before = [photoFiles(), await photoRows()];
    const res = await upload(
      admin,
      { name: 'N', description: 'D' },
      { filename: 'huge.png', content: pngClaiming(10_000, 10_000) },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'The image is too large: at most 40 megapixels.', field: 'photo' });
    expect([photoFiles(), await photoRows()]).toEqual(before);
  });

  it('answers 404 for a lab that does not exist', async () => {
    const body = multipart(
      { name: 'N', description: 'D' },
      { field: 'photo', filename: 'a.png', content: SAMPLE_FILES.png },
    );
    const res = await app.inject({
      method: 'POST',
      url: '/api/labs/00000000-0000-4000-8000-000000000000/upload-photo',
      payload: body.payload,
      headers: { ...body.headers, ...admin },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('GET /api/labs/:id/photos', () => {
  it('pages for anyone, 3 by default, newest first, with the total in X-Total-Count', async () => {
    for (const n of [1, 2, 3, 4]) {
      await upload(
        admin,
        { name: `Paging ${n}`, description: 'p' },
        { filename: `p${n}.png`, content: SAMPLE_FILES.png },
      );
    }
    const first = await app.inject({ method: 'GET', url: `/api/labs/${labId}/photos` });
    expect(first.statusCode).toBe(200);
    expect(first.json().map((p: { name: string }) => p.name)).toEqual(['Paging 4', 'Paging 3', 'Paging 2']);
    const total = Number(first.headers['x-total-count']);
    expect(total).toBeGreaterThanOrEqual(6);
    const second = await app.inject({ method: 'GET', url: `/api/labs/${labId}/photos?skip=3&limit=3` });
    expect(second.json()[0].name).toBe('Paging 1');
    const end = await app.inject({ method: 'GET', url: `/api/labs/${labId}/photos?skip=${total}&limit=3` });
    expect(end.json()).toEqual([]);
    const bad = await app.inject({ method: 'GET', url: `/api/labs/${labId}/photos?limit=0` });
    expect(bad.statusCode).toBe(400);
    const unknown = await app.inject({ method: 'GET', url: '/api/labs/00000000-0000-4000-8000-000000000000/photos' });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('PUT and DELETE /api/labs/:labId/photos/:photoId', () => {
  async function aPhoto() {
    return (
      await upload(
        admin,
        { name: 'Lawn', description: 'Front lawn' },
        { filename: 'lawn.png', content: SAMPLE_FILES.png },
      )
    ).json();
  }

  it('refuses a visitor and every role but admin', async () => {
    const photo = await aPhoto();
    const url = `/api/labs/${labId}/photos/${photo._id}`;
    const employee = await authHeaders(app, await createUser(app, 'employee'));
    const director = await authHeaders(app, await createUser(app, 'director'));
    for (const [headers, status] of [
      [{}, 401],
      [employee, 403],
      [director, 403],
    ] as const) {
      const put = await app.inject({ method: 'PUT', url, headers, payload: { name: 'X', description: 'Y' } });
      expect(put.statusCode).toBe(status);
      expect((await app.inject({ method: 'DELETE', url, headers })).statusCode).toBe(status);
    }
  });

  it("edits name and description; 'Photo name and description cannot be empty.' otherwise", async () => {
    const photo = await aPhoto();
    const url = `/api/labs/${labId}/photos/${photo._id}`;
    const res = await app.inject({
      method: 'PUT',
      url,
      headers: admin,
      payload: { name: ' Lawn in spring ', description: 'Green' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      _id: photo._id,
      name: 'Lawn in spring',
      description: 'Green',
      fileUrl: photo.fileUrl,
    });
    for (const payload of [{ name: '', description: 'x' }, { name: 'x', description: '  ' }, {}]) {
      const bad = await app.inject({ method: 'PUT', url, headers: admin, payload });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toBe('Photo name and description cannot be empty.');
    }
  });

  it('the photo list (a cached read of the lab home) shows an upload, an edit and a delete at once', async () => {
    const names = async () =>
      ((await app.inject({ url: `/api/labs/${labId}/photos?limit=50` })).json() as { name: string }[]).map(
        (p) => p.name,
      );
    const before = await names(); // now kept in memory
    const photo = await aPhoto();
    expect(await names()).toEqual(['Lawn', ...before]);
    const url = `/api/labs/${labId}/photos/${photo._id}`;
    await app.inject({ method: 'PUT', url, headers: admin, payload: { name: 'Renamed lawn', description: 'x' } });
    expect(await names()).toEqual(['Renamed lawn', ...before]);
    await app.inject({ method: 'DELETE', url, headers: admin });
    expect(await names()).toEqual(before);
  });

  it('deletes a photo with its original and web copy; a second delete is a 404', async () => {
    const photo = await aPhoto();
    const ids = [photo.fileUrl, photo.webUrl].map((u: string) => u.split('/').pop()!);
    const before = photoFiles();
    const url = `/api/labs/${labId}/photos/${photo._id}`;
    const res = await app.inject({ method: 'DELETE', url, headers: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Photo deleted successfully!');
    expect(photoFiles()).toBe(before - 2);
    for (const id of ids) expect(await app.db.select().from(files).where(eq(files.id, id))).toHaveLength(0);
    expect((await app.inject({ method: 'GET', url: photo.webUrl })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url, headers: admin })).statusCode).toBe(404);
    expect(
      (await app.inject({ method: 'PUT', url, headers: admin, payload: { name: 'a', description: 'b' } })).statusCode,
    ).toBe(404);
  });
});
