import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

import { type EmbeddedPostgres, startEmbeddedPostgres } from '#server/db/embedded.ts';
import {
  killServer,
  login,
  postmasterPid,
  type ServerProcess,
  startServer,
  waitHealthy,
} from '#server/test/server-process.ts';

/**
 * Decision 025: the database goes away under a running portal (kill -9 of the embedded postmaster while requests
 * flow, or an external server stopped). The portal answers 503 with a code meanwhile, never dies, and serves again
 * on its own (restarting its embedded postmaster), LISTEN connections included.
 */
const ADMIN = { ADMIN_EMAIL: 'outage.admin@lab.test', ADMIN_PASSWORD: 'Outage-Admin-2026' };
const UNAVAILABLE = 'The database is not available right now. Please try again in a moment.';
const servers: ServerProcess[] = [];
const dirs: string[] = [];
let external: EmbeddedPostgres | undefined;
afterAll(async () => {
  for (const s of servers) await killServer(s);
  await external?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

interface Seen {
  at: number;
  status: number | 'network error';
  code?: string;
  message?: string;
}

/** Two clients (health, and a signed-in read) asking in a loop until `stop` says so. */
function requestsFlowing(base: string, token: string) {
  const seen: Seen[] = [];
  let running = true;
  const loop = async (url: string, headers: Record<string, string>) => {
    while (running) {
      try {
        const res = await fetch(`${base}${url}`, { headers });
        const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
        seen.push({ at: Date.now(), status: res.status, code: body.code, message: body.message });
      } catch {
        seen.push({ at: Date.now(), status: 'network error' });
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const loops = [loop('/api/health', {}), loop('/api/auth/me', { authorization: `Bearer ${token}` })];
  return {
    seen,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Waits until both the health check and a signed-in read answer 200 again; returns when. */
async function servingAgain(flow: ReturnType<typeof requestsFlowing>, after: number, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const ok = flow.seen.filter((s) => s.at > after && s.status === 200);
    if (ok.length >= 4 && flow.seen.at(-1)?.status === 200) return ok[0]!.at;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not serving again after ${timeoutMs} ms: ${JSON.stringify(flow.seen.slice(-6))}`);
}

/**
 * Waits until the flow has `n` answers of `status` (any status when omitted) after `after`: the two loops' own answers
 * are the signal that requests are flowing, or that the portal was asked a while in an outage (decision 128).
 */
async function answered(
  flow: ReturnType<typeof requestsFlowing>,
  after: number,
  n: number,
  status?: number,
  timeoutMs = 30_000,
) {
  const until = Date.now() + timeoutMs;
  const count = () => flow.seen.filter((s) => s.at > after && (status === undefined || s.status === status)).length;
  while (count() < n) {
    if (Date.now() > until)
      throw new Error(`not ${n} answers within ${timeoutMs} ms: ${JSON.stringify(flow.seen.slice(-6))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The portal's sessions LISTENing on the database (the change feed, and the search's file queue). */
async function listeners(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ query: string }>(
      `select query from pg_stat_activity where datname = current_database() and query ilike 'listen %'`,
    );
    return rows.map((r) => r.query.toLowerCase()).sort();
  } finally {
    await client.end();
  }
}

async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  let last = await fn();
  while (!ok(last) && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 200));
    last = await fn();
  }
  return last;
}

// The portal's LISTENs, sorted: OCR's wake-up (decision 113), the preview job's (084), text extraction's, the change feed's.
const LISTENS = [
  'listen file_ocr_pending',
  'listen file_preview_pending',
  'listen file_text_pending',
  'listen lab_portal_changes',
];

async function checkOutage(flow: ReturnType<typeof requestsFlowing>, lostAt: number) {
  const during = flow.seen.filter((s) => s.at > lostAt);
  expect(during.filter((s) => s.status === 'network error')).toEqual([]); // the process kept answering
  expect(during.filter((s) => s.status === 500)).toEqual([]);
  const refused = during.filter((s) => s.status === 503);
  expect(refused.length).toBeGreaterThan(0);
  for (const r of refused) {
    expect(r.code).toBe('database.unavailable');
    expect(r.message).toBe(UNAVAILABLE);
  }
}

describe('the embedded PostgreSQL killed under a running portal', () => {
  it('answers 503 with a code, restarts its postmaster and serves again within 30 s, in the same process', async () => {
    const s = startServer(ADMIN);
    servers.push(s);
    dirs.push(s.dataDir);
    const base = await waitHealthy(s);
    const token = ((await (await login(base, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD)).json()) as { token: string })
      .token;
    const url = readFileSync(path.join(s.dataDir, 'pg-url'), 'utf8').trim();
    expect(
      await eventually(
        () => listeners(url),
        (l) => l.length === LISTENS.length,
      ),
    ).toEqual(LISTENS);

    const flow = requestsFlowing(base, token);
    await answered(flow, 0, 4, 200); // both clients answered before the kill
    const pid = postmasterPid(s.dataDir)!;
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    const backAt = await servingAgain(flow, killedAt + 300, 30_000);
    await flow.stop();
    expect(s.child.exitCode, s.output().slice(-3000)).toBeNull(); // no restart of the portal
    await checkOutage(flow, killedAt);
    expect(postmasterPid(s.dataDir)).not.toBe(pid);
    // Both LISTEN sessions are back (notices missed meanwhile made the caches start afresh).
    expect(
      await eventually(
        () => listeners(url),
        (l) => l.length === LISTENS.length,
      ),
    ).toEqual(LISTENS);
    expect((await login(base, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD)).status).toBe(200);
    const supervisor = s
      .output()
      .split('\n')
      .filter((l) => /embedded PostgreSQL.*(runs again|exited unexpectedly|did not start)/.test(l));
    expect(supervisor.some((l) => l.includes('runs again'))).toBe(true);
    console.log(
      `postmaster killed: serving again after ${((backAt - killedAt) / 1000).toFixed(1)} s\n${supervisor.map((l) => l.slice(0, 200)).join('\n')}`,
    );
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  }, 120_000);
});

describe('an external PostgreSQL (DATABASE_URL) stopped under a running portal', () => {
  it('answers 503 with a code until the server is back, then serves again, in the same process', async () => {
    const dbDir = mkdtempSync(path.join(os.tmpdir(), 'lp-external-'));
    dirs.push(dbDir);
    external = await startEmbeddedPostgres(dbDir);
    const s = startServer({ ...ADMIN, DATABASE_URL: external.url });
    servers.push(s);
    dirs.push(s.dataDir);
    const base = await waitHealthy(s);
    const token = ((await (await login(base, ADMIN.ADMIN_EMAIL, ADMIN.ADMIN_PASSWORD)).json()) as { token: string })
      .token;

    const flow = requestsFlowing(base, token);
    await answered(flow, 0, 4, 200); // both clients answered before the stop
    const stoppedAt = Date.now();
    await external.stop();
    // Down for a while (twenty answers after the first half second): every answer meanwhile is a 503 (the portal
    // cannot start someone else's server).
    await answered(flow, stoppedAt + 500, 20);
    const down = flow.seen.filter((x) => x.at > stoppedAt + 500);
    expect(down.length).toBeGreaterThan(0);
    expect(down.filter((x) => x.status !== 503)).toEqual([]);
    external = await startEmbeddedPostgres(dbDir);
    const restartedAt = Date.now();
    await servingAgain(flow, restartedAt, 30_000);
    await flow.stop();
    expect(s.child.exitCode, s.output().slice(-3000)).toBeNull();
    await checkOutage(flow, stoppedAt);
    expect(
      await eventually(
        () => listeners(external!.url),
        (l) => l.length === LISTENS.length,
      ),
    ).toEqual(LISTENS);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  }, 120_000);
});
