// `npm run test:e2e`: the browser tests (vitest.e2e.config.ts) in Debian's Chromium. e2e is required: without
// Chromium this fails, unless E2E_OPTIONAL=1 says a skip is acceptable. Extra arguments go to vitest
// (e.g. `npm run test:e2e -- e2e/auth.e2e.ts`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { projectRoot } from './web-build.mjs';

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

if (!existsSync(chromium)) {
  if (process.env.E2E_OPTIONAL === '1') {
    console.log(`[e2e] SKIPPED: ${chromium} not found and E2E_OPTIONAL=1.`);
    process.exit(0);
  }
  console.error(
    [
      `[e2e] FAILED: Chromium was not found at ${chromium}. The e2e tests are required.`,
      "      Install Debian's Chromium (apt-get update && apt-get install -y chromium), or point CHROMIUM_PATH at it.",
      '      Never download a browser (no "npx playwright install"). To skip on purpose: E2E_OPTIONAL=1.',
    ].join('\n'),
  );
  process.exit(1);
}

// E2E_WORKERS files at a time (vitest.e2e.config.ts), each against a portal of its own; a run of fewer named files
// starts no more portals than it has files.
const named = process.argv.slice(2).filter((arg) => arg.endsWith('.e2e.ts')).length;
const workers = Number(process.env.E2E_WORKERS || 1);
const env = { ...process.env, E2E_WORKERS: String(named > 0 && named < workers ? named : workers) };

const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const result = spawnSync(
  process.execPath,
  [vitest, 'run', '--config', 'vitest.e2e.config.ts', ...process.argv.slice(2)],
  {
    cwd: projectRoot,
    stdio: 'inherit',
    env,
  },
);
process.exit(result.status ?? 1);
