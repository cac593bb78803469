import { randomBytes, randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { LINGER_BYTES, LINGER_MS } from '#server/lib/lingering-close.ts';
import { buildTestApp, databaseOwnerUrl, TEST_JWT_SECRET } from '#server/test/app.ts';
import { killServer, startServer, waitHealthy } from '#server/test/server-process.ts';

/**
 * Decision 059: an anonymous upload is refused (401) before its body is read. Node's own fetch is still writing
 * when the answer comes; the answer must reach it (lingering close), and a huge upload must not hold the connection.
 */
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({}, async () => {});
  await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

const UPLOADS = [
  ['POST', '/api/dac'],
  ['POST', '/api/trialRepo'],
  ['PUT', `/api/labs/${randomUUID()}/notices/${randomUUID()}`],
  ['POST', '/api/close-groups/not-an-id/upload'],
] as const;

describe('an upload refused before its body is read (lingering close)', () => {
  it('gives Node fetch its 401 for 100 anonymous multipart posts of 200 B to 1 MB (a real server process)', async () => {
    // In another process, as the review ran it: in this one, fetch writes its whole body before the server runs.
    const server = startServer({
      DATABASE_URL: (app.pgPool as unknown as { options: { connectionString: string } }).options.connectionString,
      DATABASE_OWNER_URL: databaseOwnerUrl(app),
      JWT_SECRET: TEST_JWT_SECRET,
    });
    let base: string;
    try {
      base = await waitHealthy(server);
    } catch (err) {
      await killServer(server);
      throw err;
    }
    const sizes = Array.from({ length: 100 }, (_, i) => Math.round(200 * Math.pow((1024 * 1024) / 200, i / 99)));
    const outcomes: string[] = [];
    for (let i = 0; i < sizes.length; i += 10) {
      const batch = sizes.slice(i, i + 10).map(async (size, j) => {
        const [method, url] = UPLOADS[(i + j) % UPLOADS.length]!;
        const form = new FormData();
        form.append('subject', 'A letter');
        form.append('file', new Blob([randomBytes(size)], { type: 'application/pdf' }), 'letter.pdf');
        try {
          const res = await fetch(base + url, { method, body: form });
          const body = (await res.json()) as { message?: string };
          return `${res.status} ${res.headers.get('connection')} ${body.message ? 'message' : 'none'}`;
        } catch (err) {
          return `failed: ${String((err as { cause?: unknown }).cause ?? err)}`;
        }
      });
      outcomes.push(...(await Promise.all(batch)));
    }
    await killServer(server);
    expect(outcomes.filter((o) => o !== '401 close message')).toEqual([]);
  });

  it('cuts a 200 MB upload off within the bound, answered first, and the server still closes promptly', async () => {
    // A plain socket that keeps writing whatever it is told, as a naive uploader does.
    const { port } = app.server.address() as AddressInfo;
    const total = 200 * 1024 * 1024;
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    socket.on('error', () => {}); // the server cuts the connection while this side is still writing
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(
      `POST /api/trialRepo HTTP/1.1\r\nhost: 127.0.0.1\r\n` +
        `content-type: multipart/form-data; boundary=xyz\r\ncontent-length: ${total}\r\n\r\n`,
    );
    // Streamed, never held: 64 KB chunks as fast as the connection takes them, until it is cut.
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < total && !socket.destroyed) {
        sent += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    pump();
    await closed;
    expect(Date.now() - started).toBeLessThan(LINGER_MS + 1000);
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(sent).toBeLessThan(total); // cut off, not read to the end
    expect(sent).toBeLessThan(LINGER_BYTES + 16 * 1024 * 1024); // what was read, plus the sockets' buffers
    const closing = Date.now();
    await app.close();
    expect(Date.now() - closing).toBeLessThan(2000);
  });
});
