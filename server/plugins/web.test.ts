import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { saveFileRow } from '#server/modules/files/storage.ts';
import { buildTestApp } from '#server/test/app.ts';

// The built web app as the server sends it: precompressed copies, Cache-Control per kind of file, 304.
const webRoot = mkdtempSync(path.join(os.tmpdir(), 'lp-web-'));
const script = `console.log(${JSON.stringify('the portal '.repeat(300))});\n`;
const html = `<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body>${'<p>x</p>'.repeat(200)}</body></html>`;
let app: FastifyInstance;

beforeAll(async () => {
  mkdirSync(path.join(webRoot, 'assets'));
  const write = (name: string, content: string) => {
    writeFileSync(path.join(webRoot, name), content);
    // What the build's precompress plugin (vite.config.ts) writes beside each file.
    writeFileSync(path.join(webRoot, `${name}.br`), brotliCompressSync(content));
    writeFileSync(path.join(webRoot, `${name}.gz`), gzipSync(content));
  };
  write('index.html', html);
  write('assets/index-AbC123.js', script);
  writeFileSync(path.join(webRoot, 'robots.txt'), 'User-agent: *\nDisallow: /\n');
  app = await buildTestApp({ SERVE_WEB: 'true', WEB_ROOT: webRoot });
});
afterAll(() => rmSync(webRoot, { recursive: true, force: true }));

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('the built web app', () => {
  it('sends a hashed asset immutable, as its brotli or gzip copy when accepted, plain otherwise', async () => {
    const br = await get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gz = await get('/assets/index-AbC123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await get('/assets/index-AbC123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.payload).toBe(script);
  });

  it('answers 304 for an asset the browser has (ETag)', async () => {
    const first = await get('/assets/index-AbC123.js', { 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    expect(etag).toBeTruthy();
    const again = await get('/assets/index-AbC123.js', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
  });

  it('answers 404 for a file the build does not have, and for a name that leaves the assets folder', async () => {
    expect((await get('/assets/missing-123.js')).statusCode).toBe(404);
    expect((await get('/assets/..%2findex.html')).statusCode).toBe(404);
    expect((await get('/assets/..%2f..%2fpackage.json')).statusCode).toBe(404);
    expect((await get('/robots.txt')).payload).toBe('User-agent: *\nDisallow: /\n');
  });

  it('sends index.html for a page load with no-cache (always revalidated), compressed when accepted', async () => {
    const page = await get('/employees', { accept: 'text/html', 'accept-encoding': 'br, gzip' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(html);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('sends the page to a client that takes anything (curl) where no API route answers, and API calls stay JSON', async () => {
    for (const accept of ['*/*', undefined]) {
      const headers: Record<string, string> = accept ? { accept } : {};
      const home = await get('/', headers);
      expect(home.statusCode).toBe(200);
      expect(home.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(home.payload).toBe(html);
      expect((await get('/employees', headers)).payload).toBe(html);
      // /admin/users is the spec's API call (§7): a visitor gets its JSON refusal, not the page.
      const api = await get('/admin/users', headers);
      expect(api.statusCode).toBe(401);
      expect(api.json()).toMatchObject({ error: 'Please sign in to continue.' });
      expect((await get('/api/no-such-thing', headers)).statusCode).toBe(404);
    }
    expect((await get('/', { accept: 'application/json' })).statusCode).toBe(404);
  });
});

describe('downloads beside the web app', () => {
  it("serve stored files through @fastify/static's reply.sendFile with the file's own headers (decision 022)", async () => {
    const id = crypto.randomUUID();
    const content = Buffer.from('%PDF-1.4 a notice\n' + 'z'.repeat(2000));
    const absolutePath = app.storage.storedPath('notices', id);
    mkdirSync(path.dirname(absolutePath), { recursive: true });
    writeFileSync(absolutePath, content);
    await saveFileRow(
      app.db,
      {
        id,
        area: 'notices',
        originalName: 'Notice.pdf',
        mimeType: 'application/pdf',
        size: content.length,
        absolutePath,
      },
      null,
    );
    const whole = await get(`/uploads/notices/${id}`, { 'accept-encoding': 'br, gzip' });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('application/pdf');
    expect(whole.headers['cache-control']).toBe('public, max-age=3600');
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.rawPayload.equals(content)).toBe(true);
    const part = await get(`/uploads/notices/${id}`, { range: 'bytes=0-7' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-7/${content.length}`);
    expect(part.payload).toBe('%PDF-1.4');
    // A page load of a download address is still the file, not the app.
    const asPage = await get(`/uploads/notices/${id}`, { accept: 'text/html' });
    expect(asPage.headers['content-type']).toBe('application/pdf');
  });
});
