import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';

import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { type Database, type Db, drizzleOver, openDatabase } from '#server/db/client.ts';
import { urlAs } from '#server/db/roles.ts';

/** A fresh database for one test file, copied from the migrated template (global-setup.ts); dropped at the end. */
async function openTestDatabase(): Promise<Database> {
  const { adminUrl, template, appRole } = inject('testDatabase');
  const name = `lp_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  const target = new URL(adminUrl);
  target.pathname = `/${name}`;
  // The pool signs in as the run's login role, as the portal's does (decision 093); the superuser gives it the database.
  const database = await openDatabase({
    databaseUrl: urlAs(target.toString(), appRole.name, appRole.password),
    databaseOwnerUrl: target.toString(),
    migrate: false,
  });
  return {
    ...database,
    close: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** The JWT secret of test apps (a real server on a test app's database must use it too: jwt-secret.ts). */
export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret';

let shared: Promise<FastifyInstance> | undefined;
/** Every app this file built, closed (and its data folder removed) when the file ends. */
const built: { app: FastifyInstance; dataDir: string }[] = [];
// Registered as the file is collected, so it is a hook of the file itself (not of whichever test built the app), and
// before the file's own hooks: afterAll hooks run in reverse order, so the apps close last.
const ownerPools: pg.Pool[] = [];
afterAll(async () => {
  for (const pool of ownerPools.splice(0)) await pool.end();
  for (const { app, dataDir } of built.splice(0)) {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/**
 * The app for this test file, built once per file on its own database and data folder, closed when the file ends.
 * Tests keep apart by creating their own users and records (see factories.ts). With overrides or a setup step, a
 * separate app with that configuration.
 */
export function buildTestApp(
  overrides: Record<string, string> = {},
  setup?: (app: FastifyInstance) => Promise<void>,
): Promise<FastifyInstance> {
  const build = async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-test-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: TEST_JWT_SECRET,
      // One address sends every test request: the throttle's own tests (auth/throttle.test.ts) set these low.
      LOGIN_ADDRESS_FAILURES: '100000',
      REGISTRATIONS_PER_ADDRESS: '100000',
      SERVE_WEB: 'false',
      UPLOAD_MAX_BYTES: String(2 * 1024 * 1024),
      ...overrides,
    });
    const database = await openTestDatabase();
    const app = await buildApp({ config, database, logger: false });
    built.push({ app, dataDir });
    if (setup) await setup(app);
    await app.ready();
    return app;
  };
  if (Object.keys(overrides).length || setup) return build();
  shared ??= build();
  return shared;
}

/**
 * Builds this file's shared app (`buildTestApp()`) in a beforeAll hook, under the hook time-out, so that no test pays
 * for the database copy and start-up in its own 30 s. Call once at the top level of a file whose tests call
 * `buildTestApp()`.
 */
export function buildTestAppBeforeAll(): void {
  beforeAll(async () => {
    await buildTestApp();
  });
}

/**
 * The test app's database as its owner, the superuser (decision 093): what the portal's own role may not do, such as
 * tampering with the audit trail. Closed when the file ends.
 */
export function asDatabaseOwner(app: FastifyInstance): Db {
  const known = owners.get(app);
  if (known) return known;
  const pool = new pg.Pool({ connectionString: databaseOwnerUrl(app), max: 2 });
  ownerPools.push(pool);
  const db = drizzleOver(pool);
  owners.set(app, db);
  return db;
}
const owners = new WeakMap<FastifyInstance, Db>();

/**
 * The address of the test app's database as its owner: a portal process started on the test's database needs it as
 * DATABASE_OWNER_URL (it migrates and sets up the roles; the test's own role may not, decision 093).
 */
export function databaseOwnerUrl(app: FastifyInstance): string {
  const owner = new URL(inject('testDatabase').adminUrl);
  owner.pathname = new URL(String(app.pgPool.options.connectionString)).pathname;
  return owner.toString();
}
