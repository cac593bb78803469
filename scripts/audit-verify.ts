// `npm run audit:verify`: checks the audit trail (decisions 067 and 068, docs/audit.md) of the portal's
// database (DATABASE_URL, else the embedded one in DATA_DIR, the running portal's included) against every checkpoint
// in DATA_DIR/audit-checkpoints and, with STORAGE=s3, the bucket. Reads only. Prints a summary, names the first bad row,
// and ends with one JSON line; exit status 0 when the trail is intact, 1 when it is not, 2 when it could not be checked.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';

import { loadConfig } from '#server/config.ts';
import { openOperatorDatabase } from '#server/db/operator.ts';
import { checkpointStore } from '#server/modules/audit-trail/checkpoints.ts';
import { verifyAuditTrail, type VerifyProblem } from '#server/modules/audit-trail/verify.ts';

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const describe = (p: VerifyProblem) =>
  p.seq === null ? p.message : `seq ${p.seq}${p.id ? ` (id ${p.id})` : ''}: ${p.message}`;

async function main(): Promise<number> {
  parseArgs({ options: {} }); // no options: anything else is a mistake worth stopping for
  // Signs nothing: a DATA_DIR without a jwt-secret must not get one from this run.
  const config = loadConfig({ ...process.env, JWT_SECRET: process.env.JWT_SECRET || randomBytes(48).toString('hex') });
  const store = checkpointStore(config);
  const { pool, close } = await openOperatorDatabase(config, { mustExist: true });
  try {
    const progress = process.stderr.isTTY
      ? (rows: number) => process.stderr.write(`\r${rows} rows checked…`)
      : undefined;
    const report = await verifyAuditTrail(pool, {
      checkpoints: () => store.list(),
      bucket: store.places.length > 1,
      onProgress: progress,
    });
    if (progress) process.stderr.write('\r\x1b[K');
    const where = config.databaseUrl ? 'the DATABASE_URL database' : `the embedded database in ${config.dataDir}`;
    const { checkpoints: c } = report;
    console.log(`Audit trail of ${where}:`);
    console.log(
      report.rows
        ? `  rows: ${report.rows} (seq ${report.firstSeq!} to ${report.lastSeq!}); chain head: seq ${report.head.seq}`
        : `  rows: none; chain head: seq ${report.head.seq}`,
    );
    console.log(
      report.purgedThrough === null
        ? '  retention: nothing purged (the chain starts at seq 1)'
        : `  retention: purged through seq ${report.purgedThrough}`,
    );
    console.log(
      `  checkpoints: ${c.distinct} (${c.local} in ${store.places[0]}${store.places[1] ? `, ${c.s3} in ${store.places[1]}` : ''}); ${count(c.checked, 'link')} compared with the trail, ${c.purged} older than its first row${c.latest ? `; latest ${c.latest.name}` : ''}`,
    );
    if (!c.distinct)
      console.log('  (no checkpoint found: a cut-off tail or a rewritten chain cannot be seen without one)');
    for (const w of report.warnings) console.log(`  warning: ${w}`);
    console.log(`  checked in ${(report.ms / 1000).toFixed(1)} s`);
    if (report.ok) {
      console.log('OK: every row gives its hash, every link holds, and every checkpoint agrees.');
    } else {
      console.log(`FAILED: ${count(report.problemCount, 'problem')}.`);
      console.log(`First bad row: ${describe(report.firstBad!)}`);
      for (const p of report.problems.slice(0, 20)) console.log(`  - ${describe(p)}`);
      if (report.problemCount > 20) console.log(`  … and ${report.problemCount - 20} more (the JSON line lists 100).`);
    }
    const { problems, ...figures } = report;
    console.log(JSON.stringify({ ...figures, problems: problems.slice(0, 100) }));
    return report.ok ? 0 : 1;
  } finally {
    await store.close();
    await close();
  }
}

try {
  process.exitCode = await main();
} catch (err) {
  const message = (err instanceof Error ? err.message : String(err)).split('\n')[0];
  console.error(`Audit verify could not run: ${message}`);
  console.log(JSON.stringify({ ok: false, error: message }));
  process.exitCode = 2;
}
