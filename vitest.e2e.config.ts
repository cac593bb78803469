import { defineConfig } from 'vitest/config';

// e2e: real servers (e2e/global-setup.ts) and Debian's Chromium through playwright-core. E2E_WORKERS files at a time
// (default 1), each worker against a portal of its own that runs one file at a time (e2e/portal.ts, decision 109).
const workers = Number(process.env.E2E_WORKERS || 1);
if (!Number.isInteger(workers) || workers < 1)
  throw new Error(`E2E_WORKERS must be a whole number from 1 (got "${process.env.E2E_WORKERS}").`);

export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: workers > 1,
    maxWorkers: workers,
    testTimeout: 180_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
