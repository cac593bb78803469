// `npm run bench:letters -- --letters N`: how fast the letters register answers a search (issue 6).
//
// Seeds N letters (default 50,000) from 200 uploaders into a temporary database — embedded PGlite in a temporary
// folder, or, when DATABASE_URL is set, a new database on that PostgreSQL server, dropped at the end — through the
// real migrations and triggers. Then times the first result page (20 letters, as GET /api/dac/page answers it, with
// the uploader names and file names) of several searches as a director, who sees every letter: a common word, a
// middling word, a rare word, a letter ID, an uploader's name, no match, and no search at all. Prints p50 and p95
// of each, EXPLAIN ANALYZE of both search plans, and peak memory. The last line is one JSON object.
//
// Options: --letters N, --runs R (timed runs per search, default 40), --no-analyze (skip ANALYZE after seeding, as a
// PGlite database without maintenance would be), --keep NAME (seed database NAME — PostgreSQL — or folder
// $TMPDIR/lp-bench-letters-NAME — PGlite — once and keep it, or reuse it when it exists: for trying changes to the
// search without seeding again).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '#server/db/client.ts';
import { users } from '#server/db/schema/index.ts';
import type { Actor } from '#server/plugins/auth.ts';
import { searchLetters } from '#server/modules/letters/letters.service.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const letterCount = arg('letters', 50000);
const runs = arg('runs', 40);
const analyze = !process.argv.includes('--no-analyze');
const keep = process.argv.includes('--keep') ? process.argv[process.argv.indexOf('--keep') + 1] : undefined;
if (keep !== undefined && !/^[a-z_][a-z0-9_]*$/.test(keep)) throw new Error('--keep takes a database name');
if (!Number.isInteger(letterCount) || letterCount < 1000) throw new Error('--letters must be a whole number ≥ 1000');

const FIRST = ['Asha', 'Ravi', 'Sunita', 'Vikram', 'Meera', 'Arjun', 'Kavita', 'Rahul', 'Priya', 'Anil'];
const LAST = [
  'Verma',
  'Rao',
  'Iyer',
  'Singh',
  'Nair',
  'Gupta',
  'Menon',
  'Reddy',
  'Das',
  'Joshi',
  'Kulkarni',
  'Bose',
  'Chatterjee',
  'Pillai',
  'Sharma',
  'Mishra',
  'Patil',
  'Saxena',
  'Bhat',
  'Raghavan',
];

async function open(): Promise<{ database: Database; reused?: boolean; cleanup: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url && keep) {
    const dir = path.join(os.tmpdir(), `lp-bench-letters-${keep}`);
    const reused = existsSync(dir);
    const database = await openDatabase({ dataDir: dir });
    return { database, reused, cleanup: () => database.close() };
  }
  if (!url) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'lp-bench-letters-'));
    const database = await openDatabase({ dataDir: dir });
    return { database, cleanup: async () => (await database.close(), rmSync(dir, { recursive: true, force: true })) };
  }
  const { default: pg } = await import('pg');
  const name = keep ?? `lp_bench_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (!exists) await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: target.toString() });
  return {
    database,
    reused: exists,
    cleanup: async () => {
      if (keep) return database.close();
      await database.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Letters are made in SQL so that a million take a minute, not an hour. Each subject has a common opening, a topic
 * (one of 40, 'procurement' in 1 of 8), a place and a reference number; 'calibration' is in 1 letter of 100, and
 * 'zirconium' in 1 of 25,000. Uploads are one minute apart, the newest last.
 */
async function seed(database: Database, reused = false) {
  const { db } = database;
  const names = FIRST.flatMap((f) => LAST.map((l) => `${f} ${l}`));
  if (reused) {
    const [director] = await db
      .select()
      .from(users)
      .where(sql`${users.email} = 'director@bench.local'`);
    return { director: director!, uploaderName: names[37]! };
  }
  const uploaders = await db
    .insert(users)
    .values(
      names.map((name, i) => ({
        email: `u${i}@bench.local`,
        passwordHash: 'x',
        status: 'approved' as const,
        role: 'employee' as const,
        name,
      })),
    )
    .returning({ id: users.id });
  const [director] = await db
    .insert(users)
    .values({
      email: 'director@bench.local',
      passwordHash: 'x',
      status: 'approved',
      role: 'director',
      name: 'Bench Director',
    })
    .returning();
  const ids = `array[${uploaders.map((u) => `'${u.id}'::uuid`).join(',')}]`;
  const batch = database.kind === 'pglite' ? 10000 : 50000; // PGlite's memory grows with a statement's size and stays grown
  const started = performance.now();
  for (let from = 1; from <= letterCount; from += batch) {
    const to = Math.min(letterCount, from + batch - 1);
    await db.execute(
      sql.raw(`
      insert into letters (letter_id, letter_sub, letter_no, letter_date, docket_no, docket_date, category,
        establishment, letter_language, letter_commun_by, letter_upload_date, classification, uploaded_by)
      select
        'L-' || (2020 + i / 200000) || '-' || lpad((i % 200000 + 1)::text, 6, '0'),
        (array['Regarding','Request for','Report on','Reminder about','Approval of','Minutes of','Circular on'])[i % 7 + 1]
          || ' ' || case when i % 8 = 0 then 'procurement of stores'
                         when i % 100 = 1 then 'calibration of instruments'
                         when i % 25000 = 17 then 'zirconium sample testing'
                         else (array['fire safety audit','leave sanction','training course','vehicle maintenance',
                           'annual budget','explosive storage licence','hazard survey','environment clearance',
                           'medical claim','pay fixation','tender opening','security clearance','library books',
                           'canteen services','electrical works','civil works','software licence','visitor passes',
                           'seminar attendance','project review'])[i % 20 + 1] end
          || ' at ' || (array['Delhi','Pune','Chandigarh','Hyderabad','Bengaluru','Jodhpur','Kanpur','Agra'])[(i / 3) % 8 + 1]
          || ' ref ' || (i::bigint * 7919 % 1000003),
        'HQ/' || (i % 997) || '/' || (i % 31 + 1990),
        date '2019-01-01' + (i % 2500),
        'D-' || i,
        date '2019-01-03' + (i % 2500),
        (array['Circular','Order','Letter','Notice','Memo','Report'])[i % 6 + 1],
        (array['CFEES Delhi','DRDO HQ','ARDE Pune','TBRL Chandigarh','HEMRL Pune','DRDL Hyderabad'])[i % 6 + 1],
        (array['English','Hindi'])[i % 2 + 1],
        (array['Speed Post','Courier','By Hand','Email','Fax'])[i % 5 + 1],
        now() - ((${letterCount} - i) * interval '1 minute'),
        (array['Normal','Normal','Normal','Confidential','Secret'])[i % 5 + 1]::letter_classification,
        (${ids})[i % ${uploaders.length} + 1]
      from generate_series(${from}, ${to}) as i`),
    );
    process.stdout.write(
      `\rseeded ${to.toLocaleString('en-IN')} letters in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  }
  process.stdout.write('\n');
  if (analyze) await db.execute(sql`analyze letters`);
  return { director: director!, uploaderName: names[37]! };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main() {
  const { database, reused, cleanup } = await open();
  try {
    const { db } = database;
    const { director, uploaderName } = await seed(database, reused);
    const actor: Actor = {
      id: director.id,
      email: director.email,
      name: director.name,
      role: 'director',
      groupId: null,
      labId: null,
    };
    const [{ letter_id: someId } = { letter_id: '' }] = rows<{ letter_id: string }>(
      await db.execute(
        sql`select letter_id from letters order by letter_upload_date limit 1 offset ${Math.floor(letterCount / 3)}`,
      ),
    );
    const searches = [
      { label: 'no search (newest first)', query: '' },
      { label: 'common word (1 in 8)', query: 'Procurement' },
      { label: 'middling word (1 in 100)', query: 'calibration' },
      { label: 'rare word (1 in 25,000)', query: 'ZIRCONIUM' },
      { label: 'letter ID', query: someId.toLowerCase() },
      { label: 'uploader name (1 in 200)', query: uploaderName.toUpperCase() },
      { label: 'no match', query: 'xylophone quartet' },
    ];
    const results = [];
    // Warm up every path first (JIT, caches, the database's buffers), so the first search timed is not penalised.
    for (let i = 0; i < 10; i++)
      for (const { query } of searches) await searchLetters(db, actor, { q: query.trim(), limit: 20 });
    for (const { label, query } of searches) {
      const q = query.trim();
      let found = 0;
      for (let i = 0; i < 3; i++) found = (await searchLetters(db, actor, { q, limit: 20 })).views.length; // warm
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await searchLetters(db, actor, { q, limit: 20 });
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      const p50Ms = Number(percentile(times, 50).toFixed(2));
      const p95Ms = Number(percentile(times, 95).toFixed(2));
      console.log(
        `${label.padEnd(28)} ${JSON.stringify(query).padEnd(22)} ${String(found).padStart(3)} shown  p50 ${p50Ms} ms  p95 ${p95Ms} ms`,
      );
      results.push({ query, p50Ms, p95Ms });
    }
    const explain = async (title: string, query: ReturnType<typeof sql>) => {
      const plan = rows<Record<string, string>>(await db.execute(query));
      console.log(`\n${title}\n${plan.map((r) => `  ${Object.values(r)[0]}`).join('\n')}`);
    };
    await explain(
      'EXPLAIN ANALYZE, step 2 (rare text: the trigram index, then a sort of the matches):',
      sql`explain (analyze, costs off, timing off) select id, letter_upload_date::text from letters
          where deleted_at is null and search_text like lower('%zirconium%')
          order by letter_upload_date + interval '0 seconds' desc, id desc limit 21`,
    );
    await explain(
      'EXPLAIN ANALYZE, step 1 (common text: the newest letters in upload order, stopping once the page is full):',
      sql`explain (analyze, costs off, timing off) select id, at::text from (
            select id, letter_upload_date as at, search_text like lower('%procurement%') as hit
            from letters where deleted_at is null order by letter_upload_date desc, id desc limit 5250) probe
          where hit limit 21`,
    );
    const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
    console.log(
      `\npeak memory (RSS) ${peakRssMb} MB; machine load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
    );
    console.log(JSON.stringify({ letters: letterCount, db: database.kind, searches: results, peakRssMb }));
  } finally {
    await cleanup();
  }
}

await main();
