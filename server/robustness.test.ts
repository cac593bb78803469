import type { FastifyInstance, InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';

import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';
import { listRoutes } from '#server/test/routes.ts';

/**
 * Every route, called with bad input by every kind of caller, answers a 4xx with a message — never a 500 (the
 * developers' guide: "Bad input gets a clear 4xx with a message: never a 500").
 */
const routes: { method: string; url: string }[] = [];
let app: FastifyInstance;
let callers: Record<string, Record<string, string>>;

beforeAll(async () => {
  app = await buildTestApp();
  routes.push(...listRoutes(app));
  const admin = await createUser(app, 'admin');
  const employee = await createUser(app, 'employee');
  callers = { anonymous: {}, employee: await authHeaders(app, employee), admin: await authHeaders(app, admin) };
});

/**
 * Routes that end the caller's session (sign-out, and a refresh, which replaces it) and read no input: walked as a
 * visitor only, so the callers stay signed in.
 */
const SIGN_OUT = new Set(['POST /api/auth/logout', 'POST /api/auth/logout-all', 'POST /api/auth/refresh']);
/** The routes to walk as `who`. */
const routesFor = (who: string) => routes.filter((r) => who === 'anonymous' || !SIGN_OUT.has(`${r.method} ${r.url}`));

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
      for (const route of routesFor(who)) {
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

/**
 * Deny by default (decision 048): every route needs a signed-in caller unless it declares `config: { public: true }`.
 * NOTE: a new public route must be added here, so making a route public is always a reviewed test change.
 */
const PUBLIC_ROUTES = [
  'GET /api/health',
  'POST /api/auth/register',
  'POST /api/auth/second-factor/totp/confirm',
  'POST /api/auth/second-factor/totp/enrol',
  'POST /api/auth/second-factor/verify',
  // Passkeys (decision 065): a sign-in ticket or a session, as the second-factor step's routes.
  'POST /api/auth/second-factor/passkey/registration-options',
  'POST /api/auth/second-factor/passkey/register',
  'POST /api/auth/second-factor/passkey/authentication-options',
  'POST /api/auth/second-factor/passkey/verify',
  'POST /api/auth/login',
  'POST /api/auth/logout',
  'GET /api/auth/options', // whether the login page offers single sign-on (decision 063)
  'GET /api/auth/sso/start', // single sign-on: to the provider, back, and the one-time code (decision 063)
  'GET /api/auth/sso/callback',
  'POST /api/auth/sso/exchange',
  'POST /api/auth/forgot-password', // forgot password: the request and the mailed link's use (decision 077)
  'POST /api/auth/reset-password',
  'POST /api/auth/expired-password', // an expired password changed with the sign-in's ticket (decision 117)
  'GET /api/labs',
  'GET /api/labs/only',
  'GET /api/labs/:id',
  'GET /api/labs/:id/documents',
  'GET /api/labs/:id/photos',
  'GET /api/group-files',
  'GET /uploads/:area/:name',
  // The viewer's PDF, the thumbnail and the preview's state: public areas' to visitors, the rest under the
  // download's own rules inside (decision 084), as GET /uploads/:area/:name
  'GET /uploads/:area/:name/pdf',
  'GET /uploads/:area/:name/thumbnail',
  'GET /api/previews/:area/:name',
  'GET /api/search', // a visitor finds public lab content only
  'GET /api/site/pages/:key', // Terms of use and Privacy policy
  'POST /api/feedback', // visitors may send feedback, rate-limited (decision 019)
  'GET /api/notices/archive', // the lab's expired notices
].sort();

describe('deny by default', () => {
  it('the declared-public routes are exactly the reviewed list', () => {
    expect([...app.publicRoutes].filter((r) => !r.startsWith('HEAD ')).sort()).toEqual(PUBLIC_ROUTES);
  });

  it('every other route answers 401 to a visitor, before reading any input', async () => {
    const failures: string[] = [];
    for (const route of routes) {
      if (PUBLIC_ROUTES.includes(`${route.method} ${route.url}`)) continue;
      const res = await app.inject({
        method: route.method as 'GET',
        url: fill(route.url, '00000000-0000-4000-8000-000000000000'),
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
      });
      if (res.statusCode !== 401) failures.push(`${route.method} ${route.url} → ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });
});

/** A JSON value nested `depth` levels deep (arrays and objects by turns). */
const deepJson = (depth: number) => '{"a":['.repeat(depth) + ']}'.repeat(depth);
const YEAR_ZERO = '0000-01-01';
/** Every date input of the portal, in year 0000 (the fields each route does not know are ignored). */
const YEAR_ZERO_BODY = {
  dob: YEAR_ZERO,
  from: YEAR_ZERO,
  to: YEAR_ZERO,
  joiningDate: YEAR_ZERO,
  validUntil: YEAR_ZERO,
  docketDate: YEAR_ZERO,
  letterDate: YEAR_ZERO,
  personalDetails: { name: 'Asha', dob: YEAR_ZERO },
  professionalDetails: { joiningDate: YEAR_ZERO },
  employmentPeriod: { from: YEAR_ZERO, to: YEAR_ZERO },
  groupDuration: { from: YEAR_ZERO, to: '0000-12-31' },
};
/** A letters cursor of the right shape whose date cannot exist. */
const impossibleCursor = Buffer.from(
  JSON.stringify(['2024-13-45 25:61:00+00', '00000000-0000-4000-8000-000000000000']),
).toString('base64url');

/** The inputs of decision 049's "bad input never gets a 500", for one route and caller. */
function hostileRequests(route: { method: string; url: string }, headers: Record<string, string>) {
  const url = fill(route.url, '0000000A-0000-4000-8000-00000000000F');
  const requests: InjectOptions[] = [
    {
      method: route.method as 'GET',
      url: `${url}?from=${YEAR_ZERO}&to=0000-12-31&cursor=${impossibleCursor}`,
      headers,
    },
  ];
  if (route.method === 'GET' || route.method === 'DELETE') return requests;
  const json = { ...headers, 'content-type': 'application/json' };
  const boundary = '----lpTruncated';
  const nulName = multipart({ name: 'x' }, { field: 'file', filename: 'a\u0000b.pdf', content: SAMPLE_FILES.pdf });
  const longName = multipart(
    { name: 'x' },
    { field: 'file', filename: `${'n'.repeat(300)}.pdf`, content: SAMPLE_FILES.pdf },
  );
  requests.push(
    { method: route.method as 'POST', url, headers: json, payload: deepJson(9000) },
    { method: route.method as 'POST', url, headers: json, payload: JSON.stringify(YEAR_ZERO_BODY) },
    {
      method: route.method as 'POST',
      url,
      headers: { ...headers, 'content-type': 'multipart/form-data' },
      payload: '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--x--\r\n',
    },
    {
      method: route.method as 'POST',
      url,
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 trunc`,
    },
    { method: route.method as 'POST', url, headers: { ...headers, ...nulName.headers }, payload: nulName.payload },
    { method: route.method as 'POST', url, headers: { ...headers, ...longName.headers }, payload: longName.payload },
  );
  return requests;
}

describe('the inputs of the security review never give a 5xx (issue 13)', () => {
  it.each(['anonymous', 'employee', 'admin'])(
    'as %s: deep JSON, year-0000 dates, impossible cursors, broken multipart, NUL names, upper-case ids',
    async (who) => {
      const failures: string[] = [];
      for (const route of routesFor(who)) {
        const requests = hostileRequests(route, callers[who]!);
        for (const [i, res] of (await Promise.all(requests.map((r) => app.inject(r)))).entries()) {
          const what = `${route.method} ${route.url} #${i}`;
          if (res.statusCode >= 500) failures.push(`${what} → ${res.statusCode} ${res.body.slice(0, 120)}`);
          else if (res.statusCode >= 400 && !res.json().error)
            failures.push(`${what} → ${res.statusCode} without a message`);
        }
      }
      expect(failures).toEqual([]);
    },
    300000,
  );

  it('refuses deep JSON with a 400 that says so', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: deepJson(9000),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('The data is nested too deeply.');
    const fine = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":"a@b.c","password":"wrong-pass","x":${deepJson(30)}}`,
    });
    expect(fine.statusCode).toBe(401);
  });

  it('refuses multipart without a boundary and a truncated body with a 400 and a message', async () => {
    const admin = callers.admin!;
    const noBoundary = await app.inject({
      method: 'POST',
      url: '/api/dac',
      headers: { ...admin, 'content-type': 'multipart/form-data' },
      payload: 'hello',
    });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json().error).toBeTruthy();
    const truncated = await app.inject({
      method: 'POST',
      url: '/api/dac',
      headers: { ...admin, 'content-type': 'multipart/form-data; boundary=cut' },
      payload: '--cut\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4 cut short',
    });
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json().error).toBe('The upload was incomplete or malformed. Please try again.');
  });
});
