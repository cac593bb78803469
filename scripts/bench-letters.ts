// `npm run bench:letters -- --letters N`: how fast the letters register answers a search (decision 009).
//
// Seeds N letters (default 50,000) from 200 uploaders into a temporary database — the embedded PostgreSQL in a temporary
// folder, or, when DATABASE_URL is set, a new database on that PostgreSQL server, dropped at the end — through the
// real migrations and triggers. Then times the first result page (20 letters, as GET /api/dac/page answers it, with
// the uploader names and file names) of several searches as a director, who sees every letter: a common word, a
// middling word, a rare word, a letter ID, an uploader's name, no match, and no search at all. Prints p50 and p95
// of each, EXPLAIN ANALYZE of both search plans, and peak memory. The last line is one JSON object.
//
// Decision 020 (dak movement): then seeds M movements (default 3 per letter, --movements M): every letter is marked from
// its uploader to an officer, on to a second and a third; the newest 3 % are still held (half received, most
// overdue), the rest closed with a disposal; Confidential and Secret letters go only to cleared officers. Times the
// inbox (GET /api/dac/inbox, each box, and a search in it) and its count for a busy, uncleared officer, and the
// pendency report (GET /api/dac/pendency) for the whole lab, for one group, and for an associate director — with
// its ageing (letters held 0–7, 8–15, 16–30 and over 30 days, per officer and per group), which the same
// query counts from the open-movements index.
//
// Options: --letters N, --movements M, --runs R (timed runs per search, default 40), --no-analyze (skip ANALYZE after seeding, as a
// database without maintenance would be), --keep NAME (seed database NAME — PostgreSQL — or folder
// $TMPDIR/lp-bench-letters-NAME — embedded — once and keep it, or reuse it when it exists: for trying changes to the
// search without seeding again).
import os from 'node:os';
import { performance } from 'node:perf_hooks';

import { sql } from 'drizzle-orm';

import type { Database } from '#server/db/client.ts';
import { groups, labs, users } from '#server/db/schema/index.ts';
import { countInbox, listInbox } from '#server/modules/letters/letters.inbox.ts';
import { pendency } from '#server/modules/letters/letters.pendency.ts';
import { searchLetters } from '#server/modules/letters/letters.register.views.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { openBenchDatabase } from './bench-database.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const letterCount = arg('letters', 50000);
const movementCount = arg('movements', letterCount * 3);
const runs = arg('runs', 40);
const analyze = !process.argv.includes('--no-analyze');
const keep = process.argv.includes('--keep') ? process.argv[process.argv.indexOf('--keep') + 1] : undefined;
if (keep !== undefined && !/^[a-z_][a-z0-9_]*$/.test(keep)) throw new Error('--keep takes a database name');
if (!Number.isInteger(letterCount) || letterCount < 1000) throw new Error('--letters must be a whole number ≥ 1000');
if (!Number.isInteger(movementCount) || movementCount < 0 || movementCount > letterCount * 3) {
  throw new Error('--movements must be a whole number from 0 to 3 × letters');
}

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

const open = () => openBenchDatabase('letters', keep);

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
    const [officer] = await db
      .select()
      .from(users)
      .where(sql`${users.email} = 'u1@bench.local'`);
    const [ad] = await db
      .select()
      .from(users)
      .where(sql`${users.email} = 'u0@bench.local'`);
    return { director: director!, uploaderName: names[37]!, officer: officer!, ad: ad! };
  }
  // Ten groups of twenty; the first of each group is its associate director; one officer in four is cleared for
  // Confidential and Secret letters.
  const [lab] = await db.insert(labs).values({ name: 'Bench Lab' }).returning();
  const groupRows = await db
    .insert(groups)
    .values(Array.from({ length: 10 }, (_, g) => ({ labId: lab!.id, name: `Group ${g + 1}` })))
    .returning({ id: groups.id });
  const uploaders = await db
    .insert(users)
    .values(
      names.map((name, i) => ({
        email: `u${i}@bench.local`,
        passwordHash: 'x',
        status: 'approved' as const,
        role: i % 20 === 0 ? ('associate_director' as const) : ('employee' as const),
        groupId: groupRows[i % 10]!.id,
        classifiedClearance: i % 4 === 0,
        name,
      })),
    )
    .returning({ id: users.id, cleared: users.classifiedClearance });
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
  const batch = 50000;
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
  await seedMovements(database, uploaders);
  // As autovacuum would after a bulk load: statistics, and the visibility map that index-only scans need (the
  // embedded database is a PostgreSQL server too, decision 013).
  if (analyze) {
    await db.execute(sql`vacuum analyze letters`);
    await db.execute(sql`vacuum analyze letter_movements`);
  }
  const [officer] = await db
    .select()
    .from(users)
    .where(sql`${users.email} = 'u1@bench.local'`);
  const [ad] = await db
    .select()
    .from(users)
    .where(sql`${users.email} = 'u0@bench.local'`);
  return { director: director!, uploaderName: names[37]!, officer: officer!, ad: ad! };
}

/**
 * Movements in SQL, a batch of letters at a time: letter i goes from its uploader to officer pick(i,1), on to
 * pick(i,2) and pick(i,3) (only as many steps as --movements allows, spread evenly). The newest 3 % of letters are
 * still with their last officer; the rest were closed a few days after their upload.
 */
async function seedMovements(database: Database, officers: { id: string; cleared: boolean }[]) {
  if (!movementCount) return;
  const { db } = database;
  const all = `array[${officers.map((u) => `'${u.id}'::uuid`).join(',')}]`;
  const cleared = `array[${officers
    .filter((u) => u.cleared)
    .map((u) => `'${u.id}'::uuid`)
    .join(',')}]`;
  const n = officers.length;
  const nc = officers.filter((u) => u.cleared).length;
  const steps = movementCount / letterCount; // 0 < steps <= 3: letter i gets floor or ceil of it
  const openFrom = Math.floor(letterCount * 0.97);
  const pick = (k: string) =>
    `case when l.classification <> 'Normal' then (${cleared})[(s.i * 7 + ${k} * 13) % ${nc} + 1]
          else (${all})[(s.i * 7 + ${k} * 13) % ${n} + 1] end`;
  const batch = 50000;
  const started = performance.now();
  for (let from = 1; from <= letterCount; from += batch) {
    const to = Math.min(letterCount, from + batch - 1);
    await db.execute(
      sql.raw(`
      insert into letter_movements (letter_id, from_user_id, to_user_id, remarks, due_date, priority, classified,
        marked_at, read_at, received_at, box, ended_at, outcome, disposal, file_no)
      select l.id,
        case when s.k = 1 then l.uploaded_by else ${pick('(s.k - 1)')} end,
        ${pick('s.k')},
        'Please examine and put up',
        case when s.i % 3 = 0 then (l.letter_upload_date + interval '7 days')::date end,
        (array['Normal','Normal','Normal','Urgent','Most Immediate']::dak_priority[])[s.i % 5 + 1],
        l.classification <> 'Normal',
        l.letter_upload_date + s.k * interval '1 hour',
        case when not s.open or s.i % 2 = 1 then l.letter_upload_date + s.k * interval '1 hour' + interval '10 minutes' end,
        case when not s.open or s.i % 2 = 1 then l.letter_upload_date + s.k * interval '1 hour' + interval '20 minutes' end,
        (case when s.open then (case when s.i % 2 = 1 then 'received' else 'pending' end) else 'closed' end)::dak_box,
        case when s.open then null
             when s.k < s.last then l.letter_upload_date + (s.k + 1) * interval '1 hour'
             else l.letter_upload_date + interval '3 days' end,
        (case when s.open then null when s.k < s.last then 'forwarded' else 'closed' end)::dak_outcome,
        case when not s.open and s.k = s.last then 'Reply sent' end,
        case when not s.open and s.k = s.last then 'CFEES/' || s.i end
      from (
        select i, k, last, (k = last and i > ${openFrom}) as open
        from generate_series(${from}, ${to}) as i,
          lateral (select floor(i * ${steps})::int - floor((i - 1) * ${steps})::int as last) as steps,
          lateral generate_series(1, last) as k
      ) s
      join letters l on l.letter_id = 'L-' || (2020 + s.i / 200000) || '-' || lpad((s.i % 200000 + 1)::text, 6, '0')`),
    );
    process.stdout.write(
      `\rseeded movements of ${to.toLocaleString('en-IN')} letters in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  }
  process.stdout.write('\n');
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main() {
  const { database, reused, cleanup } = await open();
  try {
    const { db } = database;
    const { director, uploaderName, officer, ad } = await seed(database, reused);
    const asActor = (u: typeof director): Actor => ({
      id: u.id,
      email: u.email,
      name: u.name,
      role: u.role,
      groupId: u.groupId,
      labId: u.labId,
      cleared: u.classifiedClearance,
    });
    const actor = asActor(director);
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
    /** p50 and p95 of `runs` timed calls, after a warm-up. */
    const time = async (label: string, fn: () => Promise<unknown>) => {
      for (let i = 0; i < 5; i++) await fn();
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        await fn();
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      const p50Ms = Number(percentile(times, 50).toFixed(2));
      const p95Ms = Number(percentile(times, 95).toFixed(2));
      console.log(`${label.padEnd(52)} p50 ${p50Ms} ms  p95 ${p95Ms} ms`);
      return { label, p50Ms, p95Ms };
    };

    const [{ movements = 0 } = {}] = rows<{ movements: number }>(
      await db.execute(sql`select count(*)::int as movements from letter_movements`),
    );
    const busy = asActor(officer);
    const [{ held = 0, overdue = 0 } = {}] = rows<{ held: number; overdue: number }>(
      await db.execute(sql`select count(*)::int as held, count(*) filter (where due_date < current_date)::int as overdue
        from letter_movements where box <> 'closed'`),
    );
    console.log(
      `\n${movements.toLocaleString('en-IN')} movements; ${held.toLocaleString('en-IN')} letters held now (${overdue.toLocaleString('en-IN')} overdue)`,
    );
    console.log(`Inbox of an uncleared officer (${officer.name}) and pendency:`);
    const inbox = [
      await time('inbox, not received (first page)', () =>
        listInbox(db, busy, { status: 'pending', q: '', limit: 20 }),
      ),
      await time('inbox, received (first page)', () => listInbox(db, busy, { status: 'received', q: '', limit: 20 })),
      await time('inbox, closed (first page)', () => listInbox(db, busy, { status: 'closed', q: '', limit: 20 })),
      await time('inbox, closed, search "procurement"', () =>
        listInbox(db, busy, { status: 'closed', q: 'procurement', limit: 20 }),
      ),
      await time('inbox count (navigation badge)', () => countInbox(db, busy)),
    ];
    const pendencyTimes = [
      await time('pendency with ageing, whole lab, last 30 days (director)', () => pendency(db, actor, {})),
      await time('pendency with ageing, one group (director)', () => pendency(db, actor, { groupId: ad.groupId! })),
      await time('pendency with ageing, own group (associate director)', () => pendency(db, asActor(ad), {})),
    ];

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
    await explain(
      'EXPLAIN ANALYZE, pendency: letters held now per officer (partial index of open movements):',
      sql`explain (analyze, costs off, timing off) select to_user_id, count(*), count(*) filter (where due_date < current_date),
            min(marked_at) from letter_movements where box <> 'closed' group by to_user_id`,
    );
    await explain(
      'EXPLAIN ANALYZE, inbox: closed box of one officer, newest first:',
      sql`explain (analyze, costs off, timing off) select m.id from letter_movements m join letters l on l.id = m.letter_id
            where m.to_user_id = ${officer.id} and m.box = 'closed' and l.deleted_at is null
              and (not m.classified or l.uploaded_by = ${officer.id})
            order by m.marked_at desc, m.id desc limit 21`,
    );
    const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
    console.log(
      `\npeak memory (RSS) ${peakRssMb} MB; machine load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
    );
    console.log(
      JSON.stringify({
        letters: letterCount,
        movements,
        db: database.kind,
        searches: results,
        inbox,
        pendency: pendencyTimes,
        peakRssMb,
      }),
    );
  } finally {
    await cleanup();
  }
}

await main();
