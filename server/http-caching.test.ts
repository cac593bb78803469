import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';

import { files, labItems } from '#server/db/schema/index.ts';
import { KEPT_FILE_MAX_BYTES } from '#server/modules/files/files.serve.ts';
import { saveFileRow } from '#server/modules/files/storage.ts';
import type { Area } from '#server/modules/files/storage-areas.ts';
import { PERMISSIONS_POLICY } from '#server/plugins/security-headers.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createLab, createUser } from '#server/test/factories.ts';

// Decision 053: compression, ETag and 304, Cache-Control, and the fixed security headers, over the real app.
let app: FastifyInstance;
let labId: string;

async function storeFile(area: Area, content: Buffer, mimeType: string) {
  const id = crypto.randomUUID();
  const absolutePath = app.storage.storedPath(area, id);
  mkdirSync(path.dirname(absolutePath), { recursive: true });
  writeFileSync(absolutePath, content);
  return saveFileRow(
    app.db,
    { id, area, originalName: `${id}.txt`, mimeType, size: content.length, absolutePath },
    null,
  );
}

beforeAll(async () => {
  app = await buildTestApp();
  // A lab record well over 1 KB: 40 notices.
  labId = (await createLab(app, { about: 'Research in fire safety. '.repeat(40) })).id;
  await app.db.insert(labItems).values(
    Array.from({ length: 40 }, (_, i) => ({
      labId,
      kind: 'notice' as const,
      name: `Notice ${i}`,
      description: `About notice ${i}. `.repeat(5),
    })),
  );
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('lab home reads (prepared once per cache entry)', () => {
  it('sends brotli or gzip as the browser accepts, and plain JSON otherwise, all the same answer', async () => {
    const plain = await get(`/api/labs/${labId}`);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await get(`/api/labs/${labId}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    const gz = await get(`/api/labs/${labId}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
  });

  it('answers 304 Not Modified to a browser that has the answer, and 200 again after the lab changed', async () => {
    const first = await get(`/api/labs/${labId}/documents?current=true`);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await get(`/api/labs/${labId}/documents?current=true`, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    const admin = await authHeaders(app, await createUser(app, 'admin'));
    const put = await app.inject({
      method: 'PUT',
      url: `/api/labs/${labId}`,
      headers: admin,
      payload: {
        name: 'Centre for Fire, Explosive and Environment Safety (renamed)',
        domain: 'Fire safety',
        vision: 'Safe',
        mission: 'Research',
        about: 'About',
        LabHistoryDetails: 'History',
      },
    });
    expect(put.statusCode).toBe(200);
    const record = await get(`/api/labs/${labId}`, { 'if-none-match': etag });
    expect(record.statusCode).toBe(200);
    expect(record.headers.etag).not.toBe(etag);
  });
});

describe('every other answer', () => {
  it('compresses JSON over 1 KB with brotli, leaves small answers alone, and gives ETag with 304', async () => {
    const user = await createUser(app, 'employee', { about: 'Works on fire safety. '.repeat(80) });
    const headers = await authHeaders(app, user);
    const big = await get('/api/auth/me', { ...headers, 'accept-encoding': 'br' });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(big.rawPayload).toString()).about).toContain('fire safety');
    const etag = String(big.headers.etag);
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await get('/api/auth/me', { ...headers, 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    const small = await get('/api/health', { 'accept-encoding': 'br, gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('serves a public file with its ETag, 304 and public caching; a private file private, no-store', async () => {
    // A small public file (a photo, a notice) is read once and kept in memory: its stored name is its ETag.
    const notice = await storeFile('notices', Buffer.from('%PDF-1.4 a notice\n'), 'application/pdf');
    const url = `/uploads/notices/${notice.storedName}`;
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=3600');
    expect(first.headers['content-type']).toBe('application/pdf');
    expect(first.headers['content-length']).toBe(String(notice.size));
    expect(first.headers.etag).toBe(`W/"${notice.storedName}"`);
    expect(first.headers['last-modified']).toBeTruthy();
    const again = await get(url, { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    // The second reading comes from memory (the disk is not read again) ...
    rmSync(app.storage.storedPath('notices', notice.storedName));
    expect((await get(url)).body).toBe('%PDF-1.4 a notice\n');
    // ... a byte range still from the store, as @fastify/static serves it ...
    const photo = await storeFile('photos', Buffer.from('0123456789'), 'image/png');
    const part = await get(`/uploads/photos/${photo.storedName}`, { range: 'bytes=2-4' });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('234');
    // ... and a file deleted from the portal is gone at once, kept copy or not.
    await app.db.delete(files).where(eq(files.id, notice.id));
    expect((await get(url)).statusCode).toBe(404);

    // A larger public file is served from the store each time, with @fastify/static's validators (decision 022): a
    // weak ETag of size and time, and Last-Modified.
    const large = await storeFile('notices', Buffer.alloc(KEPT_FILE_MAX_BYTES + 1, 'x'), 'application/pdf');
    const big = await get(`/uploads/notices/${large.storedName}`);
    expect(big.statusCode).toBe(200);
    const etag = String(big.headers.etag);
    expect(etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    expect((await get(`/uploads/notices/${large.storedName}`, { 'if-none-match': etag })).statusCode).toBe(304);

    // A private file is never stored by a browser or proxy; its validators serve a resumed download (If-Range) and a
    // caller allowed to see it that kept its own copy (decision 022).
    const admin = await authHeaders(app, await createUser(app, 'admin'));
    const letter = await storeFile('letters', Buffer.from('%PDF-1.4 a letter\n'), 'application/pdf');
    const privateRes = await get(`/uploads/letters/${letter.storedName}`, admin);
    expect(privateRes.statusCode).toBe(200);
    expect(privateRes.headers['cache-control']).toBe('private, no-store');
    expect(privateRes.headers.etag).toMatch(/^W\/"/);
    const privateAgain = await get(`/uploads/letters/${letter.storedName}`, {
      ...admin,
      'if-none-match': String(privateRes.headers.etag),
    });
    expect(privateAgain.statusCode).toBe(304);
    expect(privateAgain.headers['cache-control']).toBe('private, no-store');
  });
});

describe('security headers (computed once at start)', () => {
  const EXPECTED = {
    // What @fastify/helmet sent before, with no framing by any page (decision 116) and the Permissions-Policy.
    'content-security-policy':
      "default-src 'self';base-uri 'self';font-src 'self' data:;form-action 'self';frame-ancestors 'none';" +
      "img-src 'self' data: blob:;object-src 'none';script-src 'self';script-src-attr 'none';" +
      "style-src 'self' 'unsafe-inline';connect-src 'self';media-src 'self' blob:;frame-src 'self'",
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    'permissions-policy': PERMISSIONS_POLICY,
    'x-xss-protection': '0',
  };

  it('sends the same set on a read, a 404, a refusal in a hook and a validation error', async () => {
    for (const url of ['/api/health', '/api/nothing-here', '/api/labs/%00', '/api/labs/not-a-uuid']) {
      const res = await get(url);
      expect(res.headers, url).toMatchObject(EXPECTED);
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
      expect(res.headers['cross-origin-embedder-policy'], url).toBeUndefined();
    }
  });
});
