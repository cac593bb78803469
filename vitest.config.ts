import { defineConfig } from 'vitest/config';

// NOTE: Node 25 and later have a Web Storage `localStorage` of their own (nodejs.org/api/globals.html#localstorage),
// which hides jsdom's from the component tests; it is turned off for them where the flag exists (Node 22.4 and later).
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const jsdomStorage = major > 22 || (major === 22 && minor >= 4) ? ['--no-experimental-webstorage'] : [];

export default defineConfig({
  test: {
    testTimeout: 30000,
    hookTimeout: 60000,
    // Each file gets its own database; two cores on CI.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'api',
          include: ['server/**/*.test.ts', 'shared/**/*.test.ts', 'web/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          // One PostgreSQL server and a migrated template for the run; each file copies the template (server/test/app.ts).
          globalSetup: ['server/test/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          // Component tests beside the components (../shared/STYLE.md): jsdom, no database.
          name: 'web',
          include: ['web/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['web/test/setup.ts'],
          execArgv: jsdomStorage,
          // One jsdom and one load of Mantine and the locales per worker, not per file: the setup file cleans the
          // DOM and restores every mock after each test, so the files do not see each other.
          isolate: false,
        },
      },
    ],
  },
});
