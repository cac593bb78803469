import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { openDatabase, type Database } from '#server/db/client.ts';
import { buildApp } from '#server/app.ts';

/**
 * A fresh database for one test file: in-memory PGlite, or a new database on the PostgreSQL server named by
 * TEST_DATABASE_URL (created here, dropped when the file ends).
 */
async function openTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return openDatabase({ dataDir: 'memory://' });
  const { default: pg } = await import('pg');
  const name = `lp_test_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: target.toString() });
  return {
    ...database,
    close: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

let shared: Promise<FastifyInstance> | undefined;

/**
 * The app for this test file, built once per file on its own database and data folder, closed when the file ends.
 * Tests keep apart by creating their own users and records (see factories.ts).
 */
export function buildTestApp(
  overrides: Record<string, string> = {},
  setup?: (app: FastifyInstance) => Promise<void>,
): Promise<FastifyInstance> {
  const build = async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-test-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: 'test-secret-test-secret-test-secret',
      LOGIN_RATE_LIMIT: '1000',
      SERVE_WEB: 'false',
      UPLOAD_MAX_BYTES: String(2 * 1024 * 1024),
      ...overrides,
    });
    const database = await openTestDatabase();
    const app = await buildApp({ config, database, logger: false });
    if (setup) await setup(app);
    await app.ready();
    afterAll(async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    return app;
  };
  if (Object.keys(overrides).length || setup) return build();
  shared ??= build();
  return shared;
}
