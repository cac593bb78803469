import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'shared/**/*.test.ts', 'web/**/*.test.{ts,tsx}'],
    environment: 'node',
    // One PostgreSQL server and a migrated template for the run; each file copies the template (server/test/app.ts).
    globalSetup: ['server/test/global-setup.ts'],
    testTimeout: 30000,
    hookTimeout: 60000,
    // Each file gets its own database; two cores on CI.
    pool: 'forks',
    maxWorkers: 2,
  },
});
