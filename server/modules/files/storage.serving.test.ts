import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdirSync, writeFileSync } from 'node:fs';
import { utimes } from 'node:fs/promises';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { files } from '#server/db/schema/index.ts';
import { authHeaders, createUser, tokenFor } from '#server/test/factories.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';
import { startTestS3, type TestS3 } from '#server/test/s3-server.ts';

import { app, areaFiles, buildStorageApp, stagedFiles } from './storage.test-helpers.ts';
import type { Area } from './storage-areas.ts';
import { sweepStorage } from './sweep.ts';

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

  describe('GET /uploads/:area/:name', () => {
    async function upload(area: Area, user: Awaited<ReturnType<typeof createUser>>, filename: string, content: Buffer) {
      const body = multipart({ title: 't' }, { field: 'file', filename, content });
      const res = await app.inject({
        method: 'POST',
        url: `/test/upload/${area}`,
        payload: body.payload,
        headers: { ...body.headers, ...(await authHeaders(app, user)) },
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
      expect((await app.inject({ method: 'GET', url, headers: await authHeaders(app, outsider) })).statusCode).toBe(
        403,
      );
      for (const user of [owner, director, admin]) {
        const res = await app.inject({ method: 'GET', url, headers: await authHeaders(app, user) });
        expect(res.statusCode).toBe(200);
        expect(res.headers['cache-control']).toBe('private, no-store');
        expect(res.headers['content-disposition']).toContain(
          "filename*=UTF-8''%E0%A4%AA%E0%A4%A4%E0%A5%8D%E0%A4%B0%20reply.pdf",
        );
      }
      const byCookie = await app.inject({ method: 'GET', url, cookies: { lp_token: await tokenFor(app, owner) } });
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

  describe('ranges, deletes and the start-up sweep', () => {
    async function uploadLetter(user: Awaited<ReturnType<typeof createUser>>, content: Buffer) {
      const body = multipart({ title: 't' }, { field: 'file', filename: 'scan.pdf', content });
      const res = await app.inject({
        method: 'POST',
        url: '/test/upload/letters',
        payload: body.payload,
        headers: { ...body.headers, ...(await authHeaders(app, user)) },
      });
      expect(res.statusCode).toBe(200);
      return res.json().fileId as string;
    }

    it('answers one byte range with 206 and the bytes, a range past the end with 416, a malformed one with all', async () => {
      const owner = await createUser(app, 'employee');
      const content = Buffer.concat([SAMPLE_FILES.pdf, Buffer.from('x'.repeat(5000))]);
      const id = await uploadLetter(owner, content);
      const url = `/uploads/letters/${id}`;
      const headers = await authHeaders(app, owner);
      const part = await app.inject({ method: 'GET', url, headers: { ...headers, range: 'bytes=100-1099' } });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 100-1099/${content.length}`);
      expect(part.headers['content-length']).toBe('1000');
      expect(part.rawPayload.equals(content.subarray(100, 1100))).toBe(true);
      const tail = await app.inject({ method: 'GET', url, headers: { ...headers, range: 'bytes=-10' } });
      expect(tail.statusCode).toBe(206);
      expect(tail.rawPayload.equals(content.subarray(content.length - 10))).toBe(true);
      const past = await app.inject({ method: 'GET', url, headers: { ...headers, range: `bytes=${content.length}-` } });
      expect(past.statusCode).toBe(416);
      expect(past.headers['content-range']).toBe(`bytes */${content.length}`);
      expect(past.json().error).toBe('The requested part of the file is past its end.');
      const whole = await app.inject({ method: 'GET', url, headers: { ...headers, range: 'lines=1-2' } });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(whole.rawPayload.equals(content)).toBe(true);
      // The range comes after the same access check as the whole file.
      const outsider = await createUser(app, 'employee');
      const refused = await app.inject({
        method: 'GET',
        url,
        headers: { ...(await authHeaders(app, outsider)), range: 'bytes=0-9' },
      });
      expect(refused.statusCode).toBe(403);
    });

    it('sends validators for a resumable download: 304 for If-None-Match, If-Range decides range or whole (decision 022)', async () => {
      const owner = await createUser(app, 'employee');
      const content = Buffer.concat([SAMPLE_FILES.pdf, Buffer.from('y'.repeat(3000))]);
      const id = await uploadLetter(owner, content);
      const url = `/uploads/letters/${id}`;
      const headers = await authHeaders(app, owner);
      const full = await app.inject({ method: 'GET', url, headers });
      expect(full.statusCode).toBe(200);
      expect(full.headers['content-length']).toBe(String(content.length));
      expect(full.headers['accept-ranges']).toBe('bytes');
      expect(full.headers['content-type']).toBe('application/pdf');
      expect(full.headers['cache-control']).toBe('private, no-store');
      expect(full.headers['content-disposition']).toBe(`inline; filename="scan.pdf"; filename*=UTF-8''scan.pdf`);
      const etag = String(full.headers.etag);
      const modified = String(full.headers['last-modified']);
      expect(etag).toMatch(/^W\/".+"$/);
      expect(Date.parse(modified)).not.toBeNaN();
      expect(full.rawPayload.equals(content)).toBe(true);

      const cached = await app.inject({ method: 'GET', url, headers: { ...headers, 'if-none-match': etag } });
      expect(cached.statusCode).toBe(304);
      expect(cached.rawPayload.length).toBe(0);
      const other = await app.inject({ method: 'GET', url, headers: { ...headers, 'if-none-match': 'W/"other"' } });
      expect(other.statusCode).toBe(200);

      // Resuming with the Last-Modified it was given: the rest; with a date before the file was stored: all of it.
      const resumed = await app.inject({
        method: 'GET',
        url,
        headers: { ...headers, range: 'bytes=1000-', 'if-range': modified },
      });
      expect(resumed.statusCode).toBe(206);
      expect(resumed.headers['content-range']).toBe(`bytes 1000-${content.length - 1}/${content.length}`);
      expect(resumed.rawPayload.equals(content.subarray(1000))).toBe(true);
      const stale = await app.inject({
        method: 'GET',
        url,
        headers: {
          ...headers,
          range: 'bytes=1000-',
          'if-range': new Date(Date.parse(modified) - 86400000).toUTCString(),
        },
      });
      expect(stale.statusCode).toBe(200);
      expect(stale.rawPayload.equals(content)).toBe(true);

      // HEAD: the headers of the whole file, no body.
      const head = await app.inject({ method: 'HEAD', url, headers });
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe(String(content.length));
      expect(head.rawPayload.length).toBe(0);

      // The validators open nothing before the access check: no sign-in 401, an outsider 403, even with If-None-Match.
      expect((await app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } })).statusCode).toBe(401);
      const outsider = await createUser(app, 'employee');
      const refused = await app.inject({
        method: 'GET',
        url,
        headers: { ...(await authHeaders(app, outsider)), 'if-none-match': etag, range: 'bytes=0-9' },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.headers['content-disposition']).toBeUndefined();
      expect(refused.json().error).toBe('You are not allowed to open this file.');
    });

    it('answers 404 when a record points at bytes that are gone from storage', async () => {
      const owner = await createUser(app, 'employee');
      const id = await uploadLetter(owner, SAMPLE_FILES.pdf);
      await app.storage.driver.delete('letters', id);
      const res = await app.inject({
        method: 'GET',
        url: `/uploads/letters/${id}`,
        headers: await authHeaders(app, owner),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('File not found.');
    });

    it('sweeps objects no record references once older than the grace period, and reports missing bytes', async () => {
      const owner = await createUser(app, 'employee');
      const kept = await uploadLetter(owner, SAMPLE_FILES.pdf);
      const gone = await uploadLetter(owner, SAMPLE_FILES.pdf);
      await app.storage.driver.delete('letters', gone); // a record whose bytes are missing
      // An orphan: bytes stored, row never committed (a crash between the two).
      const orphan = randomUUID();
      const source = path.join(app.config.dataDir, `orphan-${orphan}`);
      writeFileSync(source, SAMPLE_FILES.pdf);
      await app.storage.driver.put('letters', orphan, source, 'application/pdf');
      // With a grace period the young orphan stays (another node may be about to commit its row)...
      const young = await sweepStorage(app, { graceMs: 60 * 60 * 1000 });
      expect(young.kept).toBeGreaterThanOrEqual(1);
      expect(await areaFiles('letters')).toContain(orphan);
      // ... and a leftover staging copy of a request that never ended goes once it is old.
      const staged = path.join(app.storage.stagingDir, 'letters', randomUUID());
      mkdirSync(path.dirname(staged), { recursive: true });
      writeFileSync(staged, 'partial');
      const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
      await utimes(staged, old, old);
      const swept = await sweepStorage(app, { graceMs: 0 });
      expect(swept.removed).toBeGreaterThanOrEqual(1);
      expect(swept.missing).toContainEqual({ area: 'letters', id: gone });
      const left = await areaFiles('letters');
      expect(left).not.toContain(orphan);
      expect(left).toContain(kept);
      expect(existsSync(staged)).toBe(false);
    });

    if (driver === 's3') {
      it('answers 503 and keeps nothing when the object store is down', async () => {
        const owner = await createUser(app, 'employee');
        await s3!.close();
        const body = multipart({ title: 't' }, { field: 'file', filename: 'scan.pdf', content: SAMPLE_FILES.pdf });
        const res = await app.inject({
          method: 'POST',
          url: '/test/upload/letters',
          payload: body.payload,
          headers: { ...body.headers, ...(await authHeaders(app, owner)) },
        });
        expect(res.statusCode).toBe(503);
        expect(res.json().error).toBe('The file store is not available right now. Please try again in a moment.');
        expect(await app.db.select().from(files).where(eq(files.uploadedBy, owner.id))).toHaveLength(0);
        expect(stagedFiles()).toHaveLength(0);
        s3 = undefined;
      });
    }
  });
});
