import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';

import { allMessages } from '#shared/messages/index.ts';

import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';

let app: FastifyInstance;
let headers: Record<string, string>;
beforeAll(async () => {
  app = await buildTestApp();
  headers = await authHeaders(app, await createUser(app, 'employee'));
});

/** Every route of the app (method, OpenAPI-style path), read from Fastify's printed route tree. */
function routeTable(): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?/.exec(line);
    if (!m) continue;
    stack.length = m[1]!.length / 4;
    stack.push(m[2]!);
    const url = stack.join('');
    if (url.includes('*') || url.startsWith('/api/docs')) continue;
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD' && method !== 'OPTIONS') out.push(`${method} ${url.replace(/:(\w+)/g, '{$1}')}`);
    }
  }
  return out;
}

describe('API documentation (OpenAPI 3.1 at /api/docs)', () => {
  it('is for signed-in staff', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(401);
  });

  it('lists every route of the app, with its sign-in requirement and error answers', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json', headers });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      openapi: string;
      paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)),
    );
    const routes = routeTable();
    expect(routes.length).toBeGreaterThan(60);
    expect(routes.filter((r) => !documented.has(r))).toEqual([]);

    const op = (method: string, p: string) => doc.paths[p]![method]!;
    expect(op('post', '/api/auth/login').security).toEqual([]);
    expect(op('get', '/api/dac').security).toEqual([{ bearer: [] }, { cookie: [] }]);
    expect(Object.keys(op('get', '/api/dac').responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403']));
  });

  it('lists every refusal code with its English sentence, and each error answer names them', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json', headers })).json() as {
      info: { description: string };
      paths: Record<string, Record<string, { responses: Record<string, { content: Record<string, unknown> }> }>>;
    };
    for (const [code, english] of allMessages()) {
      expect(doc.info.description).toContain(`| \`${code}\` | ${english.replace(/\|/g, '\\|')} |`);
    }
    const body = doc.paths['/api/dac']!.get!.responses['403']!.content['application/json'] as {
      schema: { properties: { code: { enum: string[] } }; required: string[] };
    };
    expect(body.schema.required).toEqual(['error', 'message', 'code']);
    expect(body.schema.properties.code.enum).toContain('letters.bad_cursor');
  });

  it('serves a browsable page', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/', headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('swagger');
  });
});
