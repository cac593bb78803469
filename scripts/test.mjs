// `npm test`: the API suite (vitest.config.ts), then the e2e suite (scripts/e2e.mjs), then one summary
// line (decision 127). Each line either prints is prefixed with its suite ([api], [e2e]). Both run to their end even
// when one fails, so one run shows every failure; the exit code is non-zero if either failed.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { projectRoot } from './web-build.mjs';

const resultsDir = path.join(projectRoot, 'test-results');
mkdirSync(resultsDir, { recursive: true });
const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const reporters = (file) => ['--reporter=default', '--reporter=json', `--outputFile.json=${file}`];

/** Copies `stream` to stdout line by line, each line after `prefix`, so two suites' output stays readable. */
function prefixLines(stream, prefix) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) process.stdout.write(`${prefix}${line}\n`);
  });
  stream.on('end', () => {
    if (rest) process.stdout.write(`${prefix}${rest}\n`);
  });
}

async function run(label, tag, args, report, env = process.env) {
  rmSync(report, { force: true });
  console.log(`\n=== ${label} (started) ===`);
  const started = Date.now();
  // No TTY behind the pipe: Vitest prints plain lines, not a redrawn summary.
  const child = spawn(process.execPath, args, { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'], env });
  prefixLines(child.stdout, `[${tag}] `);
  prefixLines(child.stderr, `[${tag}] `);
  const status = await new Promise((resolve) => child.on('close', (code) => resolve(code)));
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`\n=== ${label} ended (exit ${status}, ${seconds} s) ===`);
  if (!existsSync(report)) return { label, status: status ?? 1, seconds, counts: null };
  const json = JSON.parse(readFileSync(report, 'utf8'));
  const counts = {
    passed: json.numPassedTests ?? 0,
    failed: json.numFailedTests ?? 0,
    skipped: (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0),
    // a file that fails to load has no tests but still fails the run
    brokenFiles: (json.testResults ?? []).filter((f) => f.status === 'failed' && !(f.assertionResults ?? []).length)
      .length,
  };
  // named again at the end, where a CI log's tail shows them
  const failures = (json.testResults ?? []).flatMap((f) => {
    const file = path.relative(projectRoot, f.name ?? '');
    const failed = (f.assertionResults ?? []).filter((a) => a.status === 'failed');
    if (f.status === 'failed' && !failed.length) return [`${file}: failed to load`];
    return failed.map((a) => `${file} > ${a.fullName ?? a.title}`);
  });
  // each file's wall time, kept so the end of the run can name the slowest (decision 097)
  const durations = (json.testResults ?? [])
    .filter((f) => f.startTime && f.endTime)
    .map((f) => ({ file: path.relative(projectRoot, f.name ?? ''), seconds: (f.endTime - f.startTime) / 1000 }));
  return { label, status: status ?? 1, seconds, counts, failures, durations };
}

/** The `n` slowest files of a run, one line each, slowest first. */
const slowest = (r, n) =>
  [...(r.durations ?? [])]
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, n)
    .map((d) => `  ${d.seconds.toFixed(1).padStart(7)} s  ${d.file}`)
    .join('\n');

// The API suite runs once, on an embedded PostgreSQL started for the run, or on TEST_DATABASE_URL's server when set
// (server/test/global-setup.ts); each test file copies a template migrated once. Then the e2e suite, on portals of its
// own (e2e/global-setup.ts, decision 109). TEST_SUITES_TOGETHER=true runs the two side by side (they share no server,
// database, port or folder): on a machine of more cores. On two cores, side by side was slower than one after the other
// and made timing-bound tests fail (decision 127's addendum).
const e2eReport = path.join(resultsDir, 'e2e.json');
const apiSuite = () =>
  run(
    `API and web component tests (${process.env.TEST_DATABASE_URL ? 'PostgreSQL at TEST_DATABASE_URL' : 'embedded PostgreSQL'})`,
    'api',
    [vitest, 'run', ...reporters(path.join(resultsDir, 'api.json'))],
    path.join(resultsDir, 'api.json'),
  );
const e2eSuite = () =>
  run('e2e tests', 'e2e', [path.join(projectRoot, 'scripts', 'e2e.mjs'), ...reporters(e2eReport)], e2eReport);
const [api, e2e] =
  process.env.TEST_SUITES_TOGETHER === 'true'
    ? await Promise.all([apiSuite(), e2eSuite()])
    : [await apiSuite(), await e2eSuite()];
const apiRuns = [api];

const describe = ({ label, status, seconds, counts }) => {
  if (!counts) return `${label}: ${status === 0 ? 'skipped' : `did not run (exit ${status})`}`;
  const broken = counts.brokenFiles ? `, ${counts.brokenFiles} file(s) failed to load` : '';
  return `${label}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped${broken} (${seconds} s)`;
};
const runs = [...apiRuns, e2e];
const total = runs.reduce(
  (sum, r) => ({ passed: sum.passed + (r.counts?.passed ?? 0), failed: sum.failed + (r.counts?.failed ?? 0) }),
  { passed: 0, failed: 0 },
);
const ok = runs.every((r) => r.status === 0);
const failures = runs.flatMap((r) => r.failures ?? []);
for (const r of runs) if (r.durations?.length) console.log(`\nSlowest files, ${r.label}:\n${slowest(r, 10)}`);
if (failures.length) console.log(`\nFailed:\n${failures.map((f) => `  ✗ ${f}`).join('\n')}`);
console.log(`\n${runs.map(describe).join('\n')}`);
console.log(`${total.passed} passed, ${total.failed} failed${ok ? '' : ' — TESTS FAILED'}`);
process.exit(ok ? 0 : 1);
