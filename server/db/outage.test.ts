import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { openDatabase } from '#server/db/client.ts';
import { type EmbeddedPostgres, startEmbeddedPostgres } from '#server/db/embedded.ts';

/** A database that goes away while the portal serves: 503 with a message, never 500, and recovery on its return. */
describe('a lost database connection', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lp-outage-'));
  let server: EmbeddedPostgres | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 while the database is down, and recovers when it is back', async () => {
    server = await startEmbeddedPostgres(dir);
    const config = loadConfig({ DATA_DIR: dir, JWT_SECRET: 'outage-secret-outage-secret-outage', SERVE_WEB: 'false' });
    const database = await openDatabase({ databaseUrl: server.url });
    const app = await buildApp({ config, database, logger: false });
    const login = () =>
      app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'nobody@lab.test', password: 'x' } });
    try {
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      expect((await login()).statusCode).toBe(401);

      await server.stop();
      const health = await app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(503);
      const refused = await login();
      expect(refused.statusCode).toBe(503);
      expect(refused.json().message).toBe('The database is not available right now. Please try again in a moment.');

      server = await startEmbeddedPostgres(dir);
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      expect((await login()).statusCode).toBe(401);
    } finally {
      await app.close();
    }
  }, 60_000);
});
