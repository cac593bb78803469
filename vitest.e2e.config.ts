import { defineConfig } from 'vitest/config';

// e2e: real server (e2e/global-setup.ts) and Debian's Chromium through playwright-core. One file at a time: the
// files share one server and two cores.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 180_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
  },
});
