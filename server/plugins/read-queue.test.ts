import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { readQueuePlugin } from './read-queue.ts';

/** A read that waits until the test lets it answer, so the test decides how many are being worked on. */
function heldReads() {
  const started: string[] = [];
  const held = new Map<string, () => void>();
  return {
    started,
    release: (name: string) => held.get(name)!(),
    releaseAll: () => held.forEach((release) => release()),
    handler: async (name: string) => {
      started.push(name);
      await new Promise<void>((resolve) => held.set(name, resolve));
      return { name };
    },
  };
}

let app: FastifyInstance;
afterEach(async () => app?.close());

async function queueOf(readsAtOnce: number) {
  const reads = heldReads();
  app = Fastify();
  await app.register(readQueuePlugin, { readsAtOnce });
  app.get<{ Params: { name: string } }>('/read/:name', (req) => reads.handler(req.params.name));
  app.get('/quick', async () => ({ ok: true }));
  app.get('/fails', async () => {
    throw Object.assign(new Error('No such thing.'), { statusCode: 404 });
  });
  app.post('/write', async () => ({ saved: true }));
  app.get('/api/health', async () => ({ ok: true }));
  return reads;
}

describe('reads wait their turn (READS_AT_ONCE, issue 12)', () => {
  it('works on that many reads at once; the others start first come first served as places free', async () => {
    const reads = await queueOf(2);
    const answers = ['a', 'b', 'c', 'd', 'e'].map((name) => app.inject(`/read/${name}`));
    await vi.waitFor(() => expect(reads.started).toEqual(['a', 'b']));
    expect(app.readQueue.stats()).toMatchObject({ readsAtOnce: 2, working: 2, waiting: 3, mostWaiting: 3 });

    reads.release('b');
    await vi.waitFor(() => expect(reads.started).toEqual(['a', 'b', 'c']));
    reads.release('a');
    await vi.waitFor(() => expect(reads.started).toEqual(['a', 'b', 'c', 'd']));
    expect(reads.started).not.toContain('e');

    reads.releaseAll();
    await vi.waitFor(() => expect(reads.started).toHaveLength(5));
    reads.releaseAll();
    const done = await Promise.all(answers);
    expect(done.map((r) => [r.statusCode, r.json().name])).toEqual([
      [200, 'a'],
      [200, 'b'],
      [200, 'c'],
      [200, 'd'],
      [200, 'e'],
    ]);
    expect(app.readQueue.stats(true)).toMatchObject({ working: 0, waiting: 0, mostWaiting: 3 });
    expect(app.readQueue.stats()).toMatchObject({ mostWaiting: 0 });
  });

  it('never queues a write or a health check', async () => {
    const reads = await queueOf(1);
    const held = app.inject('/read/a');
    const waiting = app.inject('/quick');
    await vi.waitFor(() => expect(reads.started).toEqual(['a']));

    expect((await app.inject({ method: 'POST', url: '/write' })).json()).toEqual({ saved: true });
    expect((await app.inject('/api/health')).statusCode).toBe(200);
    expect(app.readQueue.stats()).toMatchObject({ working: 1, waiting: 1 });

    reads.release('a');
    expect((await held).statusCode).toBe(200);
    expect((await waiting).json()).toEqual({ ok: true });
  });

  it('gives the place back when a read is refused', async () => {
    await queueOf(1);
    expect((await app.inject('/fails')).statusCode).toBe(404);
    expect((await app.inject('/fails')).statusCode).toBe(404);
    expect((await app.inject('/quick')).json()).toEqual({ ok: true });
    expect(app.readQueue.stats()).toMatchObject({ working: 0, waiting: 0 });
  });

  it('lets a download stream at its client’s pace without holding a place', async () => {
    await queueOf(1);
    const body = new Readable({ read() {} });
    app.get('/download', async (_req, reply) => reply.type('application/octet-stream').send(body));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    body.push('first part ');
    const download = await fetch(`${base}/download`);
    const reader = download.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('first part ');
    // Still streaming, and another read is answered meanwhile.
    expect(await (await fetch(`${base}/quick`)).json()).toEqual({ ok: true });

    body.push('last part');
    body.push(null);
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read())
      rest += new TextDecoder().decode(part.value);
    expect(rest).toBe('last part');
  });

  it('gives the place back when the client goes away before its answer', async () => {
    const reads = await queueOf(1);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const leaving = http.get({ host: '127.0.0.1', port, path: '/read/a' });
    leaving.on('error', () => {}); // the test ends it
    await vi.waitFor(() => expect(reads.started).toEqual(['a']));
    leaving.destroy();

    expect(await (await fetch(`http://127.0.0.1:${port}/quick`)).json()).toEqual({ ok: true });
    reads.release('a');
  });

  it('works on every read at once with READS_AT_ONCE=0', async () => {
    const reads = await queueOf(0);
    const answers = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].map((name) => app.inject(`/read/${name}`));
    await vi.waitFor(() => expect(reads.started).toHaveLength(10));
    expect(app.readQueue.stats()).toEqual({ readsAtOnce: 0, working: 0, waiting: 0, mostWaiting: 0 });
    reads.releaseAll();
    expect((await Promise.all(answers)).every((r) => r.statusCode === 200)).toBe(true);
  });
});
