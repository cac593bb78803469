// `npm run bench:acknowledgements`: how fast the acknowledgement counts and lists answer (decision 074).
//
// Seeds STAFF approved people (default 2,000) in 20 groups, each group headed by an associate director, and CIRCULARS
// lab circulars (default 200) that must be acknowledged, published one a day over the last CIRCULARS days with two
// weeks to acknowledge: a quarter to the whole lab, half to three groups, a quarter to two roles. About 60 % of each
// audience has acknowledged, 10 % more have opened the document; the rest are pending (overdue once the two weeks are
// past). Everything goes into a temporary database (scripts/bench-database.ts: the embedded PostgreSQL in a temporary
// folder, or a new database on DATABASE_URL's server, dropped at the end) through the real migrations. Then calls the
// real routes with app.inject (guards, validation, queries, presenters, serialisation) and times each: the badge
// count and the "To acknowledge" lists of a member of staff; the per-group report, the pending list (whole and one
// group) and the requests list of an admin; the same report, pending list and requests list of a group head. Prints
// p50 and p95 of each and whether every p95 is under the goal (50 ms); the last line is JSON.
//
// Options: --staff N, --circulars N, --runs R (timed runs per query, default 40), --keep NAME (seed a database of that
// name once and reuse it on the next run with the same NAME, for trying changes to the queries).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { and, eq, sql } from 'drizzle-orm';

import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import type { Database } from '#server/db/client.ts';
import {
  acknowledgementRequests,
  directorEntries,
  files,
  groups,
  labItems,
  labs,
  type UserRow,
  users,
} from '#server/db/schema/index.ts';
import { hashPassword } from '#server/lib/passwords.ts';

import { openBenchDatabase } from './bench-database.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const staffCount = arg('staff', 2000);
const circularCount = arg('circulars', 200);
const runs = arg('runs', 40);
const keepAt = process.argv.indexOf('--keep');
const keep = keepAt > 0 ? process.argv[keepAt + 1] : undefined;
const GOAL_P95_MS = 50;
const GROUPS = 20;
if (!Number.isInteger(staffCount) || staffCount < 100) throw new Error('--staff must be a whole number ≥ 100');
if (!Number.isInteger(circularCount) || circularCount < 4) throw new Error('--circulars must be a whole number ≥ 4');

const FIRST = ['Asha', 'Ravi', 'Sunita', 'Vikram', 'Meera', 'Arjun', 'Kavita', 'Rahul', 'Priya', 'Anil'];
const LAST = ['Verma', 'Rao', 'Iyer', 'Singh', 'Nair', 'Gupta', 'Menon', 'Reddy', 'Das', 'Joshi'];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** The staff, groups, heads, circulars and audiences (see the top of this file). */
async function seed(db: Database['db']) {
  const [lab] = await db.insert(labs).values({ name: 'Bench Lab' }).returning();
  const groupRows = await db
    .insert(groups)
    .values(
      Array.from({ length: GROUPS }, (_, i) => ({ labId: lab!.id, name: `Group ${String(i + 1).padStart(2, '0')}` })),
    )
    .returning();
  const hash = await hashPassword('bench-password');
  const roles = ['employee', 'employee', 'employee', 'employee', 'employee', 'director'] as const;
  // The first GROUPS people head the groups; the rest are staff of every role.
  for (let from = 0; from < staffCount; from += 1000) {
    const batch = Array.from({ length: Math.min(1000, staffCount - from) }, (_, k) => {
      const i = from + k;
      return {
        email: `staff${i}@lab.bench`,
        passwordHash: hash,
        role: i < GROUPS ? ('associate_director' as const) : roles[i % roles.length]!,
        status: 'approved' as const,
        name: `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]} ${i}`,
        groupId: groupRows[i % GROUPS]!.id,
        designation: "Scientist 'B'",
      };
    });
    await db.insert(users).values(batch);
  }
  const heads = await db.select().from(users).where(eq(users.role, 'associate_director')).orderBy(users.email);
  await db.insert(directorEntries).values(
    heads.map((h) => ({
      groupId: h.groupId!,
      userId: h.id,
      designation: 'Assistant Director',
      from: '2024-01-01',
    })),
  );
  const [admin] = await db
    .insert(users)
    .values({ email: 'bench-admin@lab.bench', passwordHash: hash, role: 'admin', status: 'approved', name: 'Admin' })
    .returning();

  // The circulars and their requests: one a day, the newest today; two weeks to acknowledge.
  const fileRows = await db
    .insert(files)
    .values(
      Array.from({ length: circularCount }, (_, i) => ({
        area: 'circulars',
        storedName: randomUUID(),
        originalName: `Circular ${i + 1}.pdf`,
        mimeType: 'application/pdf',
        size: 120_000,
        uploadedBy: admin!.id,
      })),
    )
    .returning({ id: files.id });
  const items = await db
    .insert(labItems)
    .values(
      Array.from({ length: circularCount }, (_, i) => ({
        labId: lab!.id,
        kind: 'circular' as const,
        name: `Circular ${i + 1}`,
        description: 'Standing orders',
        fileId: fileRows[i]!.id,
        createdAt: new Date(Date.now() - (circularCount - 1 - i) * 86_400_000),
      })),
    )
    .returning({ id: labItems.id, createdAt: labItems.createdAt });
  await db.insert(acknowledgementRequests).values(
    items.map((item, i) => {
      const scope = i % 4 === 0 ? 'lab' : i % 4 === 3 ? 'roles' : 'groups';
      return {
        labItemId: item.id,
        deadline: new Date(item.createdAt.getTime() + 14 * 86_400_000).toISOString().slice(0, 10),
        spanDays: 14,
        scope: scope as 'lab' | 'groups' | 'roles',
        audienceGroups: scope === 'groups' ? [0, 1, 2].map((k) => groupRows[(i + k * 7) % GROUPS]!.id) : [],
        audienceRoles: scope === 'roles' ? [...(['employee', 'director'] as const)].slice(i % 8 === 3 ? 1 : 0) : [],
        publishedBy: admin!.id,
        publishedAt: item.createdAt,
      };
    }),
  );
  // Each audience as publishing fixes it (the same rule as the service), with who has opened and acknowledged.
  await db.execute(sql`
    insert into acknowledgements (request_id, user_id, group_id, due_on, added_at, opened_at, acknowledged_at)
    select r.id, u.id, u.group_id, r.deadline, r.published_at,
           case when x.h < 70 then r.published_at + (x.h % 48) * interval '1 hour' end,
           case when x.h < 60 then r.published_at + (x.h % 48 + 1) * interval '1 hour' end
    from acknowledgement_requests r
    join users u on u.status = 'approved' and u.id <> r.published_by and (
      r.scope = 'lab'
      or (r.scope = 'groups' and u.group_id = any (r.audience_groups))
      or (r.scope = 'roles' and u.role = any (r.audience_roles)))
    cross join lateral (select abs(hashtext(r.id::text || u.id::text)) % 100 as h) x`);
  await db.execute(sql`vacuum analyze acknowledgements`);
  await db.execute(sql`analyze`);
}

async function main() {
  const { database, cleanup, reused } = await openBenchDatabase('acknowledgements', keep);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-bench-ack-data-'));
  const started = performance.now();
  try {
    const db = database.db;
    if (!reused) await seed(db);
    const groupRows = await db.select().from(groups).orderBy(groups.name);
    const heads = await db.select().from(users).where(eq(users.role, 'associate_director')).orderBy(users.email);
    const [admin] = await db.select().from(users).where(eq(users.email, 'bench-admin@lab.bench'));
    const [{ rows } = { rows: 0 }] = (
      await db.execute<{ rows: number }>(sql`select count(*)::int as rows from acknowledgements`)
    ).rows;
    const seededMs = performance.now() - started;
    const config = loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret',
      SERVE_WEB: 'false',
    });
    const app = await buildApp({ config, database: { ...database, close: async () => {} }, logger: false });
    await app.ready();
    const headersOf = async (user: UserRow) => ({
      authorization: `Bearer ${await app.startSession(db, user, { ip: '127.0.0.1', headers: {} } as never, { method: 'password' })}`,
    });
    // A member of staff of group 4, its head, and a lab-wide request from two weeks ago (its deadline today).
    const [member] = await db
      .select()
      .from(users)
      .where(and(eq(users.groupId, groupRows[3]!.id), eq(users.role, 'employee')))
      .limit(1);
    const head = heads.find((h) => h.groupId === groupRows[3]!.id)!;
    const [labWide] = await db
      .execute<{ id: string }>(
        sql`
      select id from acknowledgement_requests where scope = 'lab' order by abs(extract(epoch from published_at - (now() - interval '14 days'))) limit 1`,
      )
      .then((r) => r.rows);
    const as = { member: await headersOf(member!), admin: await headersOf(admin!), head: await headersOf(head) };
    const report = `/api/acknowledgement-requests/${labWide!.id}`;

    const queries: [string, keyof typeof as, string][] = [
      ['baseline: /api/auth/me', 'member', '/api/auth/me'],
      ['badge: /acknowledgements/count', 'member', '/api/acknowledgements/count'],
      ['own list: pending', 'member', '/api/acknowledgements?limit=20'],
      ['own list: acknowledged', 'member', '/api/acknowledgements?status=acknowledged&limit=20'],
      ['report: per-group counts (admin)', 'admin', report],
      ['report: per-group counts (head)', 'head', report],
      ['pending: whole lab (admin)', 'admin', `${report}/pending?limit=20`],
      ['pending: one group (admin)', 'admin', `${report}/pending?limit=20&group=${groupRows[5]!.id}`],
      ['pending: own group (head)', 'head', `${report}/pending?limit=20`],
      ['requests list (admin)', 'admin', '/api/acknowledgement-requests?limit=20'],
      ['requests list (head)', 'head', '/api/acknowledgement-requests?limit=20'],
    ];
    const results: Record<string, { p50: number; p95: number; cpuMs: number; items: number; total: string | null }> =
      {};
    console.log(
      `Seeded ${staffCount} staff, ${circularCount} circulars and ${rows} audience rows on ${database.kind} in ${(seededMs / 1000).toFixed(1)} s`,
    );
    console.log(
      `${'query'.padEnd(36)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'cpu ms'.padStart(8)}  items  total`,
    );
    for (const [name, who, url] of queries) {
      const times: number[] = [];
      let items = 0;
      let total: string | null = null;
      let cpuMicros = 0;
      for (let i = 0; i < runs + 3; i++) {
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        const res = await app.inject({ method: 'GET', url, headers: as[who] });
        const ms = performance.now() - t0;
        const cpu = process.cpuUsage(cpu0);
        if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
        // The first runs warm caches and the query planner. CPU: the portal process's own, whatever the machine's load.
        if (i >= 3) {
          times.push(ms);
          cpuMicros += cpu.user + cpu.system;
        }
        const body = res.json();
        items = Array.isArray(body) ? body.length : (body.groups?.length ?? 1);
        total = (res.headers['x-total-count'] as string | undefined) ?? null;
      }
      times.sort((a, b) => a - b);
      results[name] = {
        p50: +percentile(times, 50).toFixed(1),
        p95: +percentile(times, 95).toFixed(1),
        cpuMs: +(cpuMicros / 1000 / runs).toFixed(2),
        items,
        total,
      };
      const r = results[name]!;
      console.log(
        `${name.padEnd(36)} ${r.p50.toFixed(1).padStart(8)} ${r.p95.toFixed(1).padStart(8)} ${r.cpuMs.toFixed(2).padStart(8)}  ${String(items).padStart(5)}  ${total ?? ''}`,
      );
    }
    await app.close();
    const os1 = os.loadavg()[0]!;
    const worst = Math.max(
      ...Object.entries(results)
        .filter(([name]) => !name.startsWith('baseline'))
        .map(([, r]) => r.p95),
    );
    const met = worst < GOAL_P95_MS;
    console.log(
      `Slowest p95 ${worst.toFixed(1)} ms: ${met ? 'under' : 'OVER'} the goal of ${GOAL_P95_MS} ms (load average ${os1.toFixed(1)} on ${os.cpus().length} cores)`,
    );
    console.log(
      JSON.stringify({
        kind: database.kind,
        staff: staffCount,
        circulars: circularCount,
        rows,
        runs,
        goalP95Ms: GOAL_P95_MS,
        met,
        loadAverage: +os1.toFixed(1),
        results,
      }),
    );
    if (!met) process.exitCode = 1;
  } finally {
    await cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
