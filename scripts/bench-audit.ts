// `npm run bench:audit`: how fast `npm run audit:verify` checks a large audit trail (1,000,000 events under
// 60 s on this machine).
//
// Writes EVENTS audit events (default 1,000,000) into a throwaway database (scripts/bench-database.ts: the embedded
// PostgreSQL in a temporary folder, or a new database on DATABASE_URL's server, dropped at the end) through the real
// insert trigger, which chains each row under the head's lock: `insert … select from generate_series`, BATCH rows a
// statement (default 1,000; each its own transaction, as the head's row versions of one transaction make a longer
// statement slower). The events vary as real ones do (people, addresses, browsers, letters and documents, a third with
// details). Then writes a checkpoint, and times `verifyAuditTrail` (what the script runs) RUNS times (default 1). Prints
// the figures; the last line is JSON.
//
// Options: --events N, --batch N, --runs N, --keep NAME (keep the seeded database under that name and reuse it).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { sql } from 'drizzle-orm';

import { checkpointStore, writeCheckpoint } from '#server/modules/audit-trail/checkpoints.ts';
import { verifyAuditTrail } from '#server/modules/audit-trail/verify.ts';

import { openBenchDatabase } from './bench-database.ts';
import { cpuClock } from './bench-server.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const keepAt = process.argv.indexOf('--keep');
const keep = keepAt > 0 ? process.argv[keepAt + 1] : undefined;
const events = arg('events', 1_000_000);
const batch = arg('batch', 1000);
const runs = arg('runs', 1);
if (!Number.isInteger(events) || events < 1000) throw new Error('--events must be a whole number ≥ 1000');
if (!Number.isInteger(batch) || batch < 1) throw new Error('--batch must be a whole number ≥ 1');
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number ≥ 1');
if (keep !== undefined && !/^[a-z0-9_]{1,40}$/.test(keep)) throw new Error('--keep takes a-z, 0-9 and _');

const { database, reused, cleanup } = await openBenchDatabase('audit', keep && `lp_bench_audit_${keep}`);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-bench-audit-'));
const store = checkpointStore({ dataDir, storage: { driver: 'local' } });
try {
  const { db, pool } = database;
  const present = async () =>
    Number((await db.execute<{ n: string }>(sql`select count(*)::text as n from audit_events`)).rows[0]!.n);
  let writeMs = 0;
  if (!reused || (await present()) < events) {
    const began = performance.now();
    for (let written = await present(); written < events;) {
      const n = Math.min(batch, events - written);
      // Through the trigger, as recordAudit writes them: seq, prev_hash, hash and occurred_at are the trigger's.
      await db.execute(sql`
        insert into audit_events (seq, prev_hash, hash, occurred_at, actor_id, actor_name, actor_role, client_address,
          user_agent, action, object_type, object_id, object_label, classification, outcome, details)
        select 0, '', '', now(),
          ('00000000-0000-4000-8000-' || lpad(((i % 2000) + 1)::text, 12, '0'))::uuid,
          (array['Asha Rao', 'Ravi Verma', 'सुनीता अय्यर', 'Vikram Singh', 'Meera Nair'])[(i % 5) + 1] || ' ' || (i % 2000),
          (array['employee', 'employee', 'director', 'associate_director', 'admin'])[(i % 5) + 1],
          '10.' || (i % 200) || '.' || (i % 250) || '.' || (i % 240 + 1),
          'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/' || (120 + i % 12) || '.0 Safari/537.36',
          (array['letter_viewed', 'letter_downloaded', 'document_downloaded', 'sign_in', 'access_refused', 'search_hit_opened'])[(i % 6) + 1],
          (array['letter', 'letter', 'close_group_document', 'user', 'letter', 'letter'])[(i % 6) + 1],
          gen_random_uuid()::text,
          'L-2026-' || lpad((i % 999999)::text, 6, '0'),
          (array['Secret', 'Confidential', 'Restricted', null, 'Secret', 'Confidential'])[(i % 6) + 1],
          (array['success', 'success', 'success', 'success', 'refused', 'failure'])[(i % 6) + 1],
          case when i % 3 = 0 then '{"code":"letters.not_cleared","query":"fire drill ' || i || '"}' end
        from generate_series(${written + 1}::int, ${written + n}::int) i`);
      written += n;
      if (written % 100_000 < batch) {
        const rate = Math.round(written / ((performance.now() - began) / 1000));
        process.stderr.write(`  ${written} events written (${rate}/s)\n`);
      }
    }
    writeMs = performance.now() - began;
  }
  const rows = await present();
  await writeCheckpoint(db, store, {
    reason: 'command',
    who: { actor: null, address: null, userAgent: 'npm run bench:audit' },
  });

  // The CPU each side used (this process: the verifier; the database's processes), for the machine's own share: on the
  // shared cores the wall time is mostly waiting for a turn.
  const databaseName = database.kind === 'postgres' ? new URL(database.url).pathname.slice(1) : undefined;
  const times: number[] = [];
  const cpu: { verifier: number; database: number }[] = [];
  let report: Awaited<ReturnType<typeof verifyAuditTrail>> | undefined;
  for (let r = 0; r < runs; r++) {
    const clock = cpuClock(process.pid, databaseName);
    const began = performance.now();
    report = await verifyAuditTrail(pool, { checkpoints: () => store.list() });
    times.push(performance.now() - began);
    const used = clock.read();
    cpu.push({ verifier: used.server, database: used.database });
    if (!report.ok) throw new Error(`verify found problems: ${JSON.stringify(report.firstBad)}`);
  }
  const best = Math.min(...times);
  const load = os.loadavg()[0]!.toFixed(1);
  console.log(`Audit trail: ${rows} events (${database.kind} PostgreSQL)${reused ? ', reused' : ''}`);
  if (writeMs) {
    console.log(
      `  written through the trigger in ${(writeMs / 1000).toFixed(1)} s (${Math.round((rows / writeMs) * 1000)} events/s, ${batch} a statement)`,
    );
  }
  console.log(
    `  verify (every hash recomputed, links, head, ${report!.checkpoints.checked} checkpoint link): ${times.map((t) => `${(t / 1000).toFixed(1)} s`).join(', ')}; best ${(best / 1000).toFixed(1)} s = ${Math.round((rows / best) * 1000)} rows/s (goal: 1,000,000 under 60 s)`,
  );
  console.log(
    `  CPU a run: verifier ${cpu.map((c) => (c.verifier / 1000).toFixed(1)).join(', ')} s; database ${cpu.map((c) => (c.database / 1000).toFixed(1)).join(', ')} s (${os.cpus().length} cores, load average ${load})`,
  );
  console.log(
    JSON.stringify({
      bench: 'audit',
      events: rows,
      database: database.kind,
      writeMs: Math.round(writeMs),
      writePerSecond: writeMs ? Math.round((rows / writeMs) * 1000) : null,
      verifyMs: times.map(Math.round),
      verifierCpuMs: cpu.map((c) => c.verifier),
      databaseCpuMs: cpu.map((c) => c.database),
      cores: os.cpus().length,
      loadAverage: Number(load),
      verifyRowsPerSecond: Math.round((rows / best) * 1000),
      goalMet: (best / rows) * 1_000_000 < 60_000,
    }),
  );
} finally {
  await store.close();
  await cleanup();
  rmSync(dataDir, { recursive: true, force: true });
}
