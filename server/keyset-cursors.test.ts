import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';

import type { UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';

// The keyset cursors of the three paged lists share one reader (server/lib/cursor.ts): a cursor naming a time that
// cannot exist, or an id that is not a UUID, is a 400 on `cursor` with that list's words, never a 500.

let app: FastifyInstance;
let reader: UserRow;

beforeAll(async () => {
  app = await buildTestApp();
  reader = await createUser(app);
});

const ID = '00000000-0000-4000-8000-000000000001';
const encode = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString('base64url');
const IMPOSSIBLE = ['2026-13-45 25:99:00+00', '2026-13-45T25:99:00.000000Z', '2026-02-30 10:00:00+05:30'];

/** The three routes, each with its cursor's shape and its refusal. */
const routes = [
  {
    name: 'the letters register, GET /api/dac/page',
    url: (cursor: string) => `/api/dac/page?cursor=${cursor}`,
    cursor: (at: string, id = ID) => encode([at, id]),
    refusal: { message: 'This list has changed. Please search again.', code: 'letters.register_bad_cursor' },
  },
  {
    name: 'the inbox, GET /api/dac/inbox',
    url: (cursor: string) => `/api/dac/inbox?status=pending&cursor=${cursor}`,
    cursor: (at: string, id = ID) => encode([at, id]),
    refusal: { message: 'This list has changed. Please open it again.', code: 'letters.bad_cursor' },
  },
  {
    name: 'the portal search, GET /api/search',
    url: (cursor: string) => `/api/search?q=fire&cursor=${cursor}`,
    cursor: (at: string, id = ID) => encode([[at, 'letter', id], null]),
    refusal: { message: 'This list has changed. Please search again.', code: 'search.bad_cursor' },
  },
];

describe.each(routes)('a cursor of $name', ({ url, cursor, refusal }) => {
  const get = async (c: string): Promise<LightMyRequestResponse> =>
    app.inject({ method: 'GET', url: url(c), headers: await authHeaders(app, reader) });
  const refused = {
    error: refusal.message,
    message: refusal.message,
    field: 'cursor',
    code: refusal.code,
  };

  it.each(IMPOSSIBLE)('naming the impossible time %s is a 400 with its refusal', async (at) => {
    const res = await get(cursor(at));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(refused);
  });

  it('with an id that is not a UUID is a 400 with its refusal', async () => {
    const res = await get(cursor('2026-11-21 10:15:30.123456+05:30', 'not-a-uuid'));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual(refused);
  });

  it('naming a time that exists is read (200), in either way of writing it', async () => {
    for (const at of ['2026-11-21 10:15:30.123456+05:30', '2026-11-21T04:45:30.123456Z']) {
      const res = await get(cursor(at));
      expect(res.statusCode, res.body).toBe(200);
    }
  });
});

it('the search refuses an impossible time for a visitor too', async () => {
  const search = routes[2]!;
  const res = await app.inject({ method: 'GET', url: search.url(search.cursor('2026-13-45T25:99:00.000000Z')) });
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject({ message: search.refusal.message, code: search.refusal.code });
});
