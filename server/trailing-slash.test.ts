import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';

import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createGroup, createUser } from '#server/test/factories.ts';
import { listRoutes } from '#server/test/routes.ts';

/**
 * Spec §7 writes some routes with a trailing slash ("GET /api/groups/ (also written /api/groups)"): every route answers
 * the same with and without it (app.ts, the router's ignoreTrailingSlash).
 */
let app: FastifyInstance;
let admin: Record<string, string>;

beforeAll(async () => {
  app = await buildTestApp();
  admin = await authHeaders(app, await createUser(app, 'admin'));
  await createGroup(app, { name: 'Fire Safety' });
});

describe('a trailing slash', () => {
  it('GET /api/groups/ answers the groups, as GET /api/groups does (it was 404 groups.not_found)', async () => {
    const plain = await app.inject({ url: '/api/groups', headers: admin });
    const slashed = await app.inject({ url: '/api/groups/', headers: admin });
    expect(plain.statusCode).toBe(200);
    expect(slashed.statusCode).toBe(200);
    expect(slashed.json()).toEqual(plain.json());
    expect(slashed.json<{ name: string }[]>().map((g) => g.name)).toContain('Fire Safety');
  });

  it('every GET route without parameters answers the same status with and without it', async () => {
    const routes = listRoutes(app).filter((r) => r.method === 'GET' && !r.url.includes(':') && r.url !== '/');
    expect(routes.length).toBeGreaterThan(30);
    const differ: string[] = [];
    for (const { url } of routes) {
      const [plain, slashed] = [
        await app.inject({ url, headers: admin }),
        await app.inject({ url: url.endsWith('/') ? url.slice(0, -1) : `${url}/`, headers: admin }),
      ];
      if (plain.statusCode !== slashed.statusCode) differ.push(`${url}: ${plain.statusCode} / ${slashed.statusCode}`);
    }
    expect(differ).toEqual([]);
  });

  it('a write takes it too: POST /api/groups/ creates the group as POST /api/groups does', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/groups/',
      headers: admin,
      payload: { name: 'Explosives Research' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 'Explosives Research' });
  });
});
