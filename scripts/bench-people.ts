// `npm run bench:people`: how fast the employee directory and the activity logs answer with many people (decision 005).
//
// Seeds USERS approved staff (default 5,000) in 12 groups and LOGS activity rows (default 100,000) into a temporary
// database (scripts/bench-database.ts) — the embedded PostgreSQL in a temporary folder, or, when DATABASE_URL is set, a new database on that PostgreSQL
// server, dropped at the end — through the real migrations. Then calls the real routes with app.inject (guards,
// validation, queries, presenters, serialisation) and times the first page of each: the directory with no filter, by
// a name search, by a search plus a role, by group; Manage Users by a search; the logs with no filter, by a name or
// email search, by an action search, by a user, by a date range. Prints p50 and p95 of each; the last line is JSON.
//
// Options: --users N, --logs N, --runs R (timed runs per query, default 40).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { sql } from 'drizzle-orm';

import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { groups, labs, users } from '#server/db/schema/index.ts';
import { hashPassword } from '#server/lib/passwords.ts';

import { openBenchDatabase } from './bench-database.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const userCount = arg('users', 5000);
const logCount = arg('logs', 100000);
const runs = arg('runs', 40);
if (!Number.isInteger(userCount) || userCount < 100) throw new Error('--users must be a whole number ≥ 100');
if (!Number.isInteger(logCount) || logCount < 1000) throw new Error('--logs must be a whole number ≥ 1000');

const FIRST = [
  'Asha',
  'Ravi',
  'Sunita',
  'Vikram',
  'Meera',
  'Arjun',
  'Kavita',
  'Rahul',
  'Priya',
  'Anil',
  'Deepa',
  'Manoj',
];
const LAST = ['Verma', 'Rao', 'Iyer', 'Singh', 'Nair', 'Gupta', 'Menon', 'Reddy', 'Das', 'Joshi', 'Kulkarni', 'Bose'];
const ACTIONS = [
  'Signed in',
  'Updated own profile',
  'Uploaded letter',
  'Changed own profile photo',
  'Added a group notice',
];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main() {
  const { database, cleanup } = await openBenchDatabase('people');
  // The app's own DATA_DIR (uploads); the database lives where openBenchDatabase put it.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-bench-people-data-'));
  const started = performance.now();
  try {
    const db = database.db;
    const [lab] = await db.insert(labs).values({ name: 'Bench Lab' }).returning();
    const groupRows = await db
      .insert(groups)
      .values(
        Array.from({ length: 12 }, (_, i) => ({ labId: lab!.id, name: `Group ${String(i + 1).padStart(2, '0')}` })),
      )
      .returning();
    const hash = await hashPassword('bench-password');
    const roles = ['employee', 'employee', 'employee', 'employee', 'director', 'associate_director'] as const;
    for (let from = 0; from < userCount; from += 1000) {
      const batch = Array.from({ length: Math.min(1000, userCount - from) }, (_, k) => {
        const i = from + k;
        return {
          email: `staff${i}@lab.bench`,
          passwordHash: hash,
          role: roles[i % roles.length]!,
          status: 'approved' as const,
          name: `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]} ${i}`,
          groupId: groupRows[i % groupRows.length]!.id,
          designation: "Scientist 'B'",
          cadre: 'DRDS',
        };
      });
      await db.insert(users).values(batch);
    }
    const [adminUser] = await db
      .insert(users)
      .values({
        email: 'bench-admin@lab.bench',
        passwordHash: hash,
        role: 'admin',
        status: 'approved',
        name: 'Bench Admin',
      })
      .returning();
    // Logs: spread over the last 365 days, each by one of the staff, in one statement.
    await db.execute(sql`
      insert into activity_logs (user_id, action, target_type, target_id, timestamp)
      select u.id,
             (array[${sql.join(
               ACTIONS.map((a) => sql`${a}`),
               sql`, `,
             )}])[1 + (g % ${ACTIONS.length})] || ' #' || g,
             'user', u.id,
             now() - (g * (365 * 24 * 3600.0 / ${logCount})) * interval '1 second'
      from generate_series(1, ${logCount}) g
      join (select id, row_number() over (order by email) as n from users) u on u.n = 1 + (g % ${userCount})
    `);
    await db.execute(sql`analyze`);
    const seededMs = performance.now() - started;

    const config = loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
      SERVE_WEB: 'false',
    });
    const app = await buildApp({ config, database: { ...database, close: async () => {} }, logger: false });
    await app.ready();
    const headers = {
      authorization: `Bearer ${await app.startSession(db, adminUser!, { ip: '127.0.0.1', headers: {} } as never, { method: 'password' })}`,
    };
    const someone = (
      await db
        .select({ id: users.id })
        .from(users)
        .limit(1)
        .offset(Math.floor(userCount / 2))
    )[0]!;
    const group = groupRows[3]!;
    const today = new Date();
    const day = (ago: number) => new Date(today.getTime() - ago * 86400000).toISOString().slice(0, 10);

    const queries: [string, string][] = [
      ['directory: first page', '/api/users?limit=20'],
      ['directory: search "meera"', '/api/users?q=meera&limit=20'],
      ['directory: search "nair 4" + role', '/api/users?q=nair%204&role=employee&limit=20'],
      ['directory: group', `/api/users?groupId=${group.id}&limit=20`],
      ['directory: search, no match', '/api/users?q=zzqx&limit=20'],
      ['manage users: search "rao"', '/admin/users?q=rao&limit=20'],
      ['logs: first page', '/admin/logs?limit=20'],
      ['logs: search name "kavita"', '/admin/logs?q=kavita&limit=20'],
      ['logs: search email "staff42@"', '/admin/logs?q=staff42%40&limit=20'],
      ['logs: search action "photo"', '/admin/logs?q=photo&limit=20'],
      ['logs: search, no match', '/admin/logs?q=zzqx&limit=20'],
      ['logs: one user', `/admin/logs?userId=${someone.id}&limit=20`],
      ['logs: 30 days', `/admin/logs?from=${day(30)}&to=${day(0)}&limit=20`],
      ['logs: array (no paging)', '/admin/logs'],
    ];
    const results: Record<string, { p50: number; p95: number; total: number | null }> = {};
    console.log(
      `Seeded ${userCount} users and ${logCount} log rows on ${database.kind} in ${(seededMs / 1000).toFixed(1)} s`,
    );
    console.log(`${'query'.padEnd(36)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}  matches`);
    for (const [name, url] of queries) {
      const times: number[] = [];
      let total: number | null = null;
      for (let i = 0; i < runs + 3; i++) {
        const t0 = performance.now();
        const res = await app.inject({ method: 'GET', url, headers });
        const ms = performance.now() - t0;
        if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
        if (i >= 3) times.push(ms); // the first runs warm caches and the query planner
        const body = res.json();
        total = Array.isArray(body) ? body.length : body.total;
      }
      times.sort((a, b) => a - b);
      results[name] = { p50: +percentile(times, 50).toFixed(1), p95: +percentile(times, 95).toFixed(1), total };
      console.log(
        `${name.padEnd(36)} ${results[name]!.p50.toFixed(1).padStart(8)} ${results[name]!.p95.toFixed(1).padStart(8)}  ${total}`,
      );
    }
    await app.close();
    console.log(JSON.stringify({ kind: database.kind, users: userCount, logs: logCount, runs, results }));
  } finally {
    await cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
