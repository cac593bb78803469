import { describe, expect, it } from 'vitest';

import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';

buildTestAppBeforeAll();

describe('GET /api/health', () => {
  it('answers 200 once the database is ready', async () => {
    const app = await buildTestApp();
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('ok');
  });

  it('sends security headers with a strict Content-Security-Policy', async () => {
    const app = await buildTestApp();
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers unknown addresses with a 404 JSON message', async () => {
    const app = await buildTestApp();
    const res = await app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toContain('No such address');
  });

  it('has no runtime figures unless RUNTIME_METRICS=true; with it, event-loop delay, the read queue and memory', async () => {
    const plain = await buildTestApp();
    expect((await plain.inject({ method: 'GET', url: '/api/health/runtime' })).statusCode).toBe(404);
    const app = await buildTestApp({ RUNTIME_METRICS: 'true' });
    const res = await app.inject({ method: 'GET', url: '/api/health/runtime?reset=true' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      eventLoopDelayMs: { mean: expect.any(Number), p50: expect.any(Number), p99: expect.any(Number) },
      readQueue: { readsAtOnce: 8, working: 0, waiting: 0, mostWaiting: 0 },
      memory: { rss: expect.any(Number), heapUsed: expect.any(Number) },
      pid: process.pid,
    });
  });
});
