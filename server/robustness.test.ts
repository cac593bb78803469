import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';

/**
 * Every route, called with bad input by every kind of caller, answers a 4xx with a message — never a 500 (the
 * developers' guide: "Bad input gets a clear 4xx with a message: never a 500").
 */
const routes: { method: string; url: string }[] = [];
let app: FastifyInstance;
let callers: Record<string, Record<string, string>>;

/** Every route of the app, read from Fastify's printed route tree (each level indents 4 characters). */
function listRoutes(instance: FastifyInstance) {
  const stack: string[] = [];
  for (const line of instance.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    const url = stack.join('');
    if (url.includes('*')) continue;
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url });
    }
  }
}

beforeAll(async () => {
  app = await buildTestApp();
  listRoutes(app);
  const admin = await createUser(app, 'admin');
  const employee = await createUser(app, 'employee');
  callers = { anonymous: {}, employee: authHeaders(app, employee), admin: authHeaders(app, admin) };
});

/** Fills path parameters with something that is not a valid id. */
const fill = (url: string, value: string) => url.replace(/:[A-Za-z]+/g, value);

const BAD_BODIES: { name: string; headers: Record<string, string>; payload: string | Buffer }[] = [
  { name: 'malformed JSON', headers: { 'content-type': 'application/json' }, payload: '{"name": ' },
  { name: 'a JSON array', headers: { 'content-type': 'application/json' }, payload: '[1,2,3]' },
  {
    name: 'wrong types',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 42, groupId: 'x', email: [], from: 'yesterday', employees: 'all', limit: -1 }),
  },
  { name: 'plain text', headers: { 'content-type': 'text/plain' }, payload: 'hello' },
  {
    name: 'a NUL character in text',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'a\u0000b', description: 'x', groupName: 'a\u0000', newFilename: '\u0000' }),
  },
];

describe('every route refuses bad input with a 4xx', () => {
  it('found the routes', () => {
    expect(routes.length).toBeGreaterThan(60);
  });

  it.each(['anonymous', 'employee', 'admin'])(
    'as %s: bad ids, bad queries and bad bodies never give a 5xx',
    async (who) => {
      const failures: string[] = [];
      for (const route of routes) {
        for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
          const url = fill(route.url, id);
          const attempts = [
            app.inject({ method: route.method as 'GET', url: `${url}?q=%00`, headers: callers[who] }),
            app.inject({
              method: route.method as 'GET',
              url: `${url}?q=${'x'.repeat(5000)}&cursor=%E2%9C`,
              headers: callers[who],
            }),
            app.inject({
              method: route.method as 'GET',
              url: `${url}?limit=abc&offset=-5&skip=x`,
              headers: callers[who],
            }),
            ...(route.method === 'GET' || route.method === 'DELETE'
              ? []
              : [
                  ...BAD_BODIES.map((b) =>
                    app.inject({
                      method: route.method as 'POST',
                      url,
                      headers: { ...callers[who], ...b.headers },
                      payload: b.payload,
                    }),
                  ),
                  (() => {
                    const body = multipart(
                      { name: 'x\u0000', group: 'not-a-uuid', metadata: '{bad', from: 'soon' },
                      { field: 'file', filename: 'evil.pdf', content: SAMPLE_FILES.exe },
                    );
                    return app.inject({
                      method: route.method as 'POST',
                      url,
                      headers: { ...callers[who], ...body.headers },
                      payload: body.payload,
                    });
                  })(),
                ]),
          ];
          for (const res of await Promise.all(attempts)) {
            if (res.statusCode >= 500)
              failures.push(`${route.method} ${url} → ${res.statusCode} ${res.body.slice(0, 120)}`);
            else if (res.statusCode >= 400 && !res.json().error)
              failures.push(`${route.method} ${url} → ${res.statusCode} without a message`);
          }
        }
      }
      expect(failures).toEqual([]);
    },
    300000,
  );
});
