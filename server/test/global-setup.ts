import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import pg from 'pg';
import type { TestProject } from 'vitest/node';

import { createPool, migrateDatabase } from '#server/db/client.ts';
import { startEmbeddedPostgres } from '#server/db/embedded.ts';
import { ensureLoginRole, grantAppRole, newRolePassword } from '#server/db/roles.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The test PostgreSQL server's maintenance database, the migrated template each test file copies, and the login
     * role the test apps' pools use (decision 093: not a superuser, owning the tables but not the audit trail).
     */
    testDatabase: { adminUrl: string; template: string; appRole: { name: string; password: string } };
  }
}

const withClient = async <T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
};

/**
 * Once per API run: a PostgreSQL server (TEST_DATABASE_URL, else an embedded one in a temporary folder), and a
 * template database migrated once. Each test file then gets its own database made from the template
 * (server/test/app.ts), so no file migrates and no two files share rows.
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  let dir: string | undefined;
  if (!adminUrl) {
    dir = mkdtempSync(path.join(os.tmpdir(), 'lp-pg-'));
    const embedded = await startEmbeddedPostgres(dir);
    adminUrl = embedded.adminUrl;
    stop = embedded.stop;
  }
  const template = `lp_template_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await withClient(adminUrl, (c) => c.query(`create database ${template}`));
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  // A role of this run's own (several runs may share TEST_DATABASE_URL's server), as the portal's pool uses in
  // production: the template's tables are its, the audit trail is the superuser's.
  const appRole = { name: `lp_app_${randomUUID().replace(/-/g, '').slice(0, 12)}`, password: newRolePassword() };
  const pool = createPool(url.toString());
  await migrateDatabase(pool);
  await ensureLoginRole(pool, appRole.name, appRole.password);
  await grantAppRole(pool, appRole.name);
  await pool.end();
  await withClient(adminUrl, (c) => c.query(`alter database ${template} is_template true`));
  project.provide('testDatabase', { adminUrl, template, appRole });

  return async () => {
    await withClient(adminUrl, async (c) => {
      await c.query(`alter database ${template} is_template false`);
      await c.query(`drop database if exists ${template} with (force)`);
    }).catch(() => {});
    // Gone with the databases that held its objects (a test file that did not drop its database keeps it).
    await withClient(adminUrl, (c) => c.query(`drop role if exists ${appRole.name}`)).catch(() => {});
    await stop?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}
