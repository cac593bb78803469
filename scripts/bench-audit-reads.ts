// `npm run bench:audit-reads`: how fast the Audit Trail screen's filters answer on a large trail (decision
// 069), and whether each uses the indexes of migrations 0027 and 0029 rather than a scan of every row.
//
// Seeds EVENTS audit events (default 1,000,000: 200 people, 10 actions, 50,000 objects, three classifications, one
// event every 2.5 s over the past month) into a bench database (scripts/bench-database.ts) through the real migrations.
// The seed is written in one statement with the chain trigger switched off, so its hashes are not a chain: this bench
// times reads only (`npm run audit:verify` is the chain's). Then times the first page (20, newest first, with its
// capped count) of each filter through the service the route calls; prints p50 and p95 of each, and the plan's top
// node with --plans. The last line is JSON.
//
// Options: --events N, --runs R (timed runs per filter, default 10), --keep (reuse the seeded database next time).
import { performance } from 'node:perf_hooks';

import { sql } from 'drizzle-orm';

import type { AuditFilter } from '#shared/schemas/audit.ts';

import { listAuditEvents } from '#server/modules/audit-trail/audit-trail.service.ts';

import { openBenchDatabase } from './bench-database.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const eventCount = arg('events', 1_000_000);
const runs = arg('runs', 10);
if (!Number.isInteger(eventCount) || eventCount < 10_000) throw new Error('--events must be a whole number ≥ 10000');

// The seed writes a million events with the chain's trigger off, which only the database's owner may (decision 093).
const { database, reused, cleanup } = await openBenchDatabase(
  'audit-reads',
  process.argv.includes('--keep') ? `e${eventCount}` : undefined,
  { asOwner: true },
);
const db = database.db;
const person = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

if (!reused) {
  const started = performance.now();
  await db.execute(sql`
    insert into users (id, email, name, role, status)
    select ('00000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid, 'person' || i || '@lab.test', 'Person ' || i,
      'employee', 'approved'
    from generate_series(1, 200) i`);
  await db.execute(sql`alter table audit_events disable trigger audit_events_chain`);
  await db.execute(sql`
    insert into audit_events (seq, id, occurred_at, actor_id, actor_name, actor_role, client_address, user_agent, action,
      object_type, object_id, object_label, classification, outcome, prev_hash, hash)
    select i, gen_random_uuid(), now() - make_interval(secs => (${eventCount} - i) * 2.5),
      ('00000000-0000-4000-8000-' || lpad((1 + i % 200)::text, 12, '0'))::uuid, 'Person ' || (1 + i % 200), 'employee',
      '10.0.0.1', 'bench',
      (array['sign_in','sign_in_failed','letter_viewed','letter_downloaded','document_downloaded','search_hit_opened',
             'access_refused','exported','audit_read','role_changed'])[1 + i % 10],
      'letter', md5((i % 50000)::text), 'Letter subject ' || (i % 50000), (array['Normal','Confidential','Secret'])[1 + i % 3],
      case when i % 17 = 0 then 'refused' else 'success' end, repeat('0', 64), repeat('0', 64)
    from generate_series(1, ${eventCount}) i`);
  await db.execute(sql`update audit_chain_head set seq = ${eventCount}`);
  await db.execute(sql`alter table audit_events enable trigger audit_events_chain`);
  await db.execute(sql`analyze audit_events`);
  console.log(`seeded ${eventCount} events in ${Math.round(performance.now() - started)} ms`);
}

const indianDay = (daysAgo: number) =>
  new Date(Date.now() + 330 * 60_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
const [firstLabel] = (
  await db.execute<{ object_label: string; object_id: string }>(
    sql`select object_label, object_id from audit_events order by seq limit 1`,
  )
).rows;
const filters: [string, AuditFilter, number][] = [
  ['no filter', {}, 0],
  ['no filter, page 50', {}, 980],
  ['person (id)', { person: person(7) }, 0],
  ['person (name text)', { person: 'Person 17' }, 0],
  ['object (id)', { object: firstLabel!.object_id }, 0],
  ['object (label text, rare)', { object: firstLabel!.object_label.replace('Letter ', '') }, 0],
  ['object (label text, none)', { object: 'nothing like this' }, 0],
  ['action', { action: 'audit_read' }, 0],
  ['action (none)', { action: 'sign_out' }, 0],
  ['outcome refused', { outcome: 'refused' }, 0],
  ['classification Secret', { classification: 'Secret' }, 0],
  ['one day three weeks ago', { from: indianDay(21), to: indianDay(21) }, 0],
  ['that day and an action', { from: indianDay(21), to: indianDay(21), action: 'exported' }, 0],
  ['person and a week', { person: person(7), from: indianDay(28), to: indianDay(21) }, 0],
];

const figures: Record<string, { p50: number; p95: number }> = {};
for (const [label, filter, offset] of filters) {
  const times: number[] = [];
  await listAuditEvents(db, filter, { limit: 20, offset });
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    await listAuditEvents(db, filter, { limit: 20, offset });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))]! * 10) / 10;
  figures[label] = { p50: at(0.5), p95: at(0.95) };
  console.log(`${label.padEnd(28)} p50 ${String(at(0.5)).padStart(7)} ms   p95 ${String(at(0.95)).padStart(7)} ms`);
}
await cleanup();
console.log(JSON.stringify({ bench: 'audit-reads', events: eventCount, runs, figures }));
