import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

import { clusterHome } from '#server/db/embedded-location.ts';
import { FILE_PREVIEW_QUEUE } from '#server/modules/files/previews.jobs.ts';
import { FILE_TEXT_QUEUE } from '#server/modules/search/search.jobs.ts';
import {
  killServer,
  postmasterPid,
  type ServerProcess,
  startServer,
  waitHealthy,
} from '#server/test/server-process.ts';

/**
 * Decision 092: the embedded postmaster killed (kill -9) while preview and text jobs run. pg-boss 10 wrote a job's
 * outcome without awaiting it, so the lost connection ended Node; now the same process answers 503
 * `database.unavailable` meanwhile, serves again, and every job of the backlog ends.
 */
const ADMIN = { ADMIN_EMAIL: 'jobs.outage@lab.test', ADMIN_PASSWORD: 'Jobs-Outage-2026' };
const QUEUES = [FILE_TEXT_QUEUE, FILE_PREVIEW_QUEUE];
const servers: ServerProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const s of servers) await killServer(s);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function query<T extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** The file jobs not yet ended, by state. */
const unfinished = (url: string) =>
  query<{ name: string; state: string; n: number }>(
    url,
    `select name, state::text, count(*)::int as n from pgboss.job
      where name = any($1) and state in ('created', 'retry', 'active') group by name, state order by name, state`,
    [QUEUES],
  );

/** Polls `fn` until `ok`, failing at once with the server's last output if the server process ended. */
async function until<T>(
  s: ServerProcess,
  what: string,
  fn: () => Promise<T>,
  ok: (v: T) => boolean,
  ms: number,
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: T | undefined;
  while (Date.now() < deadline) {
    if (s.child.exitCode !== null)
      throw new Error(`${what}: the portal exited (${s.child.exitCode}):\n${s.output().slice(-3000)}`);
    try {
      last = await fn();
      if (ok(last)) return last;
    } catch {
      // the database is restarting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what}: not so within ${ms} ms (last: ${JSON.stringify(last)?.slice(-600)})`);
}

interface Seen {
  at: number;
  status: number | 'network error';
  code?: string;
}

/** GET /api/health in a loop, every answer kept, until stopped. */
function healthPolled(base: string) {
  const seen: Seen[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        const res = await fetch(`${base}/api/health`);
        const body = (await res.json().catch(() => ({}))) as { code?: string };
        seen.push({ at: Date.now(), status: res.status, code: body.code });
      } catch {
        seen.push({ at: Date.now(), status: 'network error' });
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  return {
    seen,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

describe('the embedded PostgreSQL killed while background jobs run', () => {
  it('answers 503 database.unavailable, serves again in the same process, and the jobs end', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-jobs-outage-'));
    dirs.push(dataDir);
    // The finding's own steps: `npm run demo` (148 documents, letters and photos, each waiting for its text and its
    // preview), then the portal, whose start queues them all.
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'server/demo/demo.ts'], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    });
    const s = startServer({ ...ADMIN, DATA_DIR: dataDir });
    servers.push(s);
    const home = clusterHome(dataDir);
    if (home !== dataDir) dirs.push(home);
    const base = await waitHealthy(s);
    const url = readFileSync(path.join(dataDir, 'pg-url'), 'utf8').trim();

    // At least 20 file jobs queued or running, of both queues, one of them running.
    const before = await until(
      s,
      'file jobs queued and running',
      () => unfinished(url),
      (rows) =>
        rows.reduce((n, r) => n + r.n, 0) >= 20 &&
        QUEUES.every((q) => rows.some((r) => r.name === q)) &&
        rows.some((r) => r.state === 'active'),
      60_000,
    );
    const active = await query<{ id: string }>(
      url,
      `select id from pgboss.job where name = any($1) and state = 'active'`,
      [QUEUES],
    );
    const flow = healthPolled(base);
    const pid = postmasterPid(dataDir)!;
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    console.log(`postmaster killed with these file jobs unfinished: ${JSON.stringify(before)}`);

    // 503 with the code meanwhile, then 200 again, from the same process.
    await until(
      s,
      'a 503 database.unavailable',
      async () => flow.seen.filter((x) => x.at > killedAt && x.status === 503),
      (r) => r.length > 0,
      30_000,
    );
    const refusedAt = Date.now();
    await until(
      s,
      'healthy again',
      async () => flow.seen.filter((x) => x.at > refusedAt),
      (r) => r.filter((x) => x.status === 200).length >= 4 && r.at(-1)?.status === 200,
      60_000,
    );
    await flow.stop();
    const during = flow.seen.filter((x) => x.at > killedAt);
    expect(during.filter((x) => x.status === 'network error' || x.status === 500)).toEqual([]);
    for (const x of during.filter((y) => y.status === 503)) expect(x.code).toBe('database.unavailable');
    expect(postmasterPid(dataDir)).not.toBe(pid);

    // The jobs resume: every file read and previewed, nothing left queued or running, and the jobs that were running
    // when the database went ended (their outcome written once the database was back, or run again).
    await until(
      s,
      'every file read and previewed',
      () =>
        query<{ texts: number; previews: number }>(
          url,
          `select (select count(*)::int from file_texts where status = 'pending') as texts,
                  (select count(*)::int from file_previews where status = 'pending') as previews`,
        ),
      ([r]) => r!.texts === 0 && r!.previews === 0,
      240_000,
    );
    await until(
      s,
      'no file job unfinished',
      () => unfinished(url),
      (rows) => rows.length === 0,
      120_000,
    );
    const ended = await query<{ state: string }>(
      url,
      `select state::text from pgboss.job where id = any($1::uuid[])
        union all select state::text from pgboss.archive where id = any($1::uuid[])`,
      [active.map((a) => a.id)],
    );
    expect(ended.length).toBe(active.length);
    expect(ended.filter((e) => e.state !== 'completed')).toEqual([]);

    expect(s.child.exitCode, s.output().slice(-3000)).toBeNull(); // the same Node process throughout
    // The guard caught pg-boss's unawaited outcomes: nothing reached the process-wide handler.
    expect(s.output()).not.toMatch(/rejected with nothing to handle it/);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  }, 480_000);
});
