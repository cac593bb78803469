import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { directorEntries } from '#server/db/schema/index.ts';
import { checkJwtSecret, JwtSecretMismatchError } from '#server/modules/auth/jwt-secret.ts';
import { READ_CACHE_MS } from '#server/modules/labs/labs.cache.ts';
import {
  authHeaders,
  createGroup,
  createUser,
  letterFields,
  letterPdf,
  TEST_PASSWORD,
} from '#server/test/factories.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';
import { startTestS3, type TestS3 } from '#server/test/s3-server.ts';
import { killServer, login, type ServerProcess, startServer, waitHealthy } from '#server/test/server-process.ts';

import { openDatabase } from './client.ts';

/**
 * Several portal nodes on one PostgreSQL (decisions 052 and 017): two app instances in this process on one database
 * and one DATA_DIR (the local driver on a shared folder), and real server processes for the S3 driver and the JWT
 * secret check.
 */
const { adminUrl, template } = inject('testDatabase');
const JWT_SECRET = 'two-nodes-secret-two-nodes-secret-2026';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const fn of cleanups.reverse()) await fn().catch(() => {});
});

/** A database copied from the migrated template, dropped at the end. */
async function newDatabase(): Promise<string> {
  const name = `lp_nodes_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`create database ${name} template ${template}`);
  await c.end();
  cleanups.push(async () => {
    const d = new pg.Client({ connectionString: adminUrl });
    await d.connect();
    await d.query(`drop database if exists ${name} with (force)`);
    await d.end();
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const tmp = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lp-nodes-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** One node: its own pool and change feed on the shared database, the shared DATA_DIR. */
async function node(databaseUrl: string, dataDir: string): Promise<FastifyInstance> {
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl, JWT_SECRET, SERVE_WEB: 'false' });
  const database = await openDatabase({ databaseUrl, migrate: false });
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  cleanups.push(() => app.close());
  return app;
}

const until = async (check: () => Promise<boolean>, timeoutMs: number) => {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await check()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`not within ${timeoutMs} ms`);
};

const labUpdate = (name: string) => ({
  name,
  domain: 'Electronics',
  vision: 'Vision',
  mission: 'Mission',
  about: 'About',
  LabHistoryDetails: 'History',
});

describe('two app instances on one database and one DATA_DIR', () => {
  let a: FastifyInstance;
  let b: FastifyInstance;
  let labId: string;
  let url: string;
  beforeAll(async () => {
    url = await newDatabase();
    const dataDir = tmp();
    [a, b] = [await node(url, dataDir), await node(url, dataDir)];
    await until(async () => a.changeFeed.connected && b.changeFeed.connected, 5000);
    const admin = await createUser(a, 'admin');
    const res = await a.inject({
      method: 'POST',
      url: '/api/labs',
      payload: { name: 'Lab before' },
      headers: await authHeaders(a, admin),
    });
    expect(res.statusCode).toBe(201);
    labId = res.json()._id;
  });

  const nameOn = async (app: FastifyInstance) =>
    (await app.inject({ method: 'GET', url: `/api/labs/${labId}` })).json().name as string;

  it('a lab write on A is on B at its next read, well within a second and without waiting for the expiry', async () => {
    const admin = await createUser(a, 'admin');
    expect(await nameOn(b)).toBe('Lab before'); // B has it cached now
    const res = await a.inject({
      method: 'PUT',
      url: `/api/labs/${labId}`,
      payload: labUpdate('Lab after'),
      headers: await authHeaders(a, admin),
    });
    expect(res.statusCode).toBe(200);
    const waited = await until(async () => (await nameOn(b)) === 'Lab after', 1000);
    expect(waited).toBeLessThan(1000);
    expect(waited).toBeLessThan(READ_CACHE_MS);
    expect(await nameOn(a)).toBe('Lab after'); // the writer forgot its own entries at commit
  });

  it('when B loses its LISTEN connection it reconnects, and then forgets what it cached meanwhile', async () => {
    const admin = await createUser(a, 'admin');
    await nameOn(b); // B caches the lab
    // Cut B's feed (and A's: both are "lab-portal change feed"); a changed lab is then missed by the notice...
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'lab-portal change feed' and datname = $1`,
      [new URL(url).pathname.slice(1)],
    );
    await c.end();
    await until(async () => !b.changeFeed.connected, 2000);
    await a.inject({
      method: 'PUT',
      url: `/api/labs/${labId}`,
      payload: labUpdate('Lab while the feed was down'),
      headers: await authHeaders(a, admin),
    });
    // ... but B reconnects within seconds and clears its cache then, before READ_CACHE_MS has passed.
    const waited = await until(async () => (await nameOn(b)) === 'Lab while the feed was down', READ_CACHE_MS);
    expect(b.changeFeed.connected).toBe(true);
    expect(waited).toBeLessThan(READ_CACHE_MS);
  });

  it('20 failed sign-ins spread over the two nodes throttle the account on both (counters in PostgreSQL)', async () => {
    const victim = await createUser(a, 'employee');
    const login = (app: FastifyInstance, i: number) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: `198.19.0.${i}`,
        payload: { email: victim.email, password: 'wrong-guess' },
      });
    const codes: number[] = [];
    for (let i = 0; i < 20; i++) codes.push((await login(i % 2 ? b : a, i)).statusCode);
    expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(codes.slice(5)).toEqual(new Array(15).fill(429));
    const right = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: '/api/auth/login',
        remoteAddress: '198.19.1.1',
        payload: { email: victim.email, password: TEST_PASSWORD },
      });
    expect((await right(a)).statusCode).toBe(429);
    expect((await right(b)).statusCode).toBe(429);
  });

  it('an associate director demoted on A manages nothing on B at their next request (issue 28 item 3)', async () => {
    const admin = await createUser(a, 'admin');
    const group = await createGroup(a);
    const lead = await createUser(a, 'associate_director', { groupId: group.id });
    await a.db
      .insert(directorEntries)
      .values({ groupId: group.id, userId: lead.id, designation: 'Assistant Director', from: '2024-01-01' });
    const notice = async () => {
      const body = multipart(
        { name: 'Safety drill', description: 'Drill on Monday' },
        { field: 'file', filename: 'drill.pdf', content: SAMPLE_FILES.pdf },
      );
      return b.inject({
        method: 'POST',
        url: `/api/groups/${group.id}/notices`,
        payload: body.payload,
        headers: { ...body.headers, ...(await authHeaders(b, lead)) },
      });
    };
    const onB = async (url: string): Promise<LightMyRequestResponse> =>
      b.inject({ url, headers: await authHeaders(b, lead) });
    // B has served them as the manager (its kept page and prepared statements are warm).
    expect((await notice()).statusCode).toBe(201);
    expect((await onB(`/api/groups/${group.id}`)).statusCode).toBe(200);
    expect((await onB(`/api/groups/id/${group.id}`)).json().canManage).toBe(true);
    const demoted = await a.inject({
      method: 'PUT',
      url: `/admin/users/${lead.id}/access`,
      payload: { role: 'employee', groupId: null },
      headers: await authHeaders(a, admin),
    });
    expect(demoted.statusCode).toBe(200);
    expect((await notice()).statusCode).toBe(403);
    expect((await onB(`/api/groups/${group.id}`)).statusCode).toBe(403);
    expect((await onB(`/api/groups/id/${group.id}`)).statusCode).toBe(403);
  });

  it('a file uploaded through A downloads through B with the same bytes (local driver, shared DATA_DIR)', async () => {
    const owner = await createUser(a, 'employee');
    const bytes = Buffer.concat([SAMPLE_FILES.pdf, randomBytes(300_000)]);
    const fileUrl = await uploadLetter((opts) => a.inject(opts), await authHeaders(a, owner), bytes);
    const res = await b.inject({ method: 'GET', url: fileUrl, headers: await authHeaders(b, owner) });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(bytes)).toBe(true);
  });
});

/** POST /api/dac with a letter's nine fields and `bytes` as its PDF; returns the file's URL. */
async function uploadLetter(
  send: (opts: { method: 'POST'; url: string; payload: Buffer; headers: Record<string, string> }) => Promise<{
    statusCode: number;
    json: () => { fileUrl: string };
  }>,
  headers: Record<string, string>,
  bytes: Buffer,
): Promise<string> {
  const body = multipart(
    letterFields({ letterNo: `HQ/${randomUUID().slice(0, 8)}`, letterSub: 'Two nodes' }),
    letterPdf('scan.pdf', bytes),
  );
  const res = await send({
    method: 'POST',
    url: '/api/dac',
    payload: body.payload,
    headers: { ...body.headers, ...headers },
  });
  expect(res.statusCode).toBe(201);
  return res.json().fileUrl;
}

describe('real nodes (server/main.ts) on one database', () => {
  const ADMIN = { ADMIN_EMAIL: 'nodes.admin@lab.test', ADMIN_PASSWORD: 'Nodes-Admin-2026' };
  const servers: ServerProcess[] = [];
  let s3: TestS3;
  let databaseUrl: string;
  beforeAll(async () => {
    s3 = await startTestS3();
    cleanups.push(() => s3.close());
    cleanups.push(async () => {
      for (const s of servers) await killServer(s);
    });
    databaseUrl = await newDatabase();
  });

  const start = (env: Record<string, string>) => {
    const s = startServer({ ...ADMIN, DATABASE_URL: databaseUrl, DATA_DIR: tmp(), ...env });
    servers.push(s);
    return s;
  };

  it('with STORAGE=s3 and a DATA_DIR each, a file uploaded through A downloads through B with the same bytes', async () => {
    const [sa, sb] = [start({ ...s3.env, JWT_SECRET }), start({ ...s3.env, JWT_SECRET })];
    const [baseA, baseB] = [await waitHealthy(sa, 60_000), await waitHealthy(sb, 60_000)];
    const { token } = (await (await login(baseA, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD)).json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    const bytes = Buffer.concat([SAMPLE_FILES.pdf, randomBytes(9 * 1024 * 1024)]); // two parts of a multipart upload
    const fileUrl = await uploadLetter(
      async (opts) => {
        const res = await fetch(`${baseA}${opts.url}`, {
          method: 'POST',
          body: new Uint8Array(opts.payload),
          headers: opts.headers,
        });
        const json = await res.json();
        return { statusCode: res.status, json: () => json };
      },
      auth,
      bytes,
    );
    const res = await fetch(`${baseB}${fileUrl}`, { headers: auth }); // the token from A is good on B
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await fetch(`${baseB}${fileUrl}`, { headers: { ...auth, range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);
  }, 90_000); // two real nodes started, and a 9 MB upload in two parts: 20 s on a quiet machine

  it('a node whose JWT_SECRET differs from the recorded fingerprint refuses to start, with the reason', async () => {
    const wrong = start({ ...s3.env, JWT_SECRET: 'another-secret-another-secret-2026' });
    expect(await wrong.exited).toBe(1);
    expect(wrong.output()).toContain(
      'Lab Portal cannot start: JWT_SECRET is not the secret the other nodes of this portal use',
    );
    expect(wrong.output()).not.toContain('another-secret-another-secret-2026');
  });
});

describe('checkJwtSecret', () => {
  it('records the first fingerprint, matches it, refuses another secret, and records a rotation', async () => {
    const database = await openDatabase({ databaseUrl: await newDatabase(), migrate: false });
    cleanups.push(() => database.close());
    expect(await checkJwtSecret(database.db, 'first-secret')).toBe('recorded');
    expect(await checkJwtSecret(database.db, 'first-secret')).toBe('matched');
    await expect(checkJwtSecret(database.db, 'second-secret')).rejects.toBeInstanceOf(JwtSecretMismatchError);
    const stored = await database.pool.query<{ value: string }>('select value from portal_settings');
    expect(stored.rows[0]!.value).toMatch(/^[0-9a-f]{64}$/);
    expect(stored.rows[0]!.value).not.toContain('first-secret');
    expect(await checkJwtSecret(database.db, 'second-secret', { rotate: true })).toBe('rotated');
    expect(await checkJwtSecret(database.db, 'second-secret')).toBe('matched');
    await expect(checkJwtSecret(database.db, 'first-secret')).rejects.toBeInstanceOf(JwtSecretMismatchError);
  });
});
