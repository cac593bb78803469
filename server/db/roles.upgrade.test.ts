import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import PgBoss from 'pg-boss';
import { afterAll, describe, expect, it } from 'vitest';

import { recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import { verifyAuditTrail } from '#server/modules/audit-trail/verify.ts';

import { migrationsUpTo } from './backup.ts';
import { createPool, type Database, drizzleOver, migrationsFolder, openDatabase } from './client.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { clusterHome } from './embedded-location.ts';
import { APP_ROLE } from './roles.ts';

/**
 * A DATA_DIR made before decision 093 (the embedded superuser owned everything and the pool used it) is upgraded at
 * the next start: the application's tables and the job queue's schema pass to `lab_portal`, the audit trail stays the
 * superuser's, and the chain still verifies.
 */
const SYSTEM = { actor: null, address: null, userAgent: null };
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-roles-'));
const opened: Database[] = [];
afterAll(async () => {
  for (const d of opened) await d.close();
  const home = clusterHome(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

const before093 = () => {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  return journal.entries.findIndex((e) => e.tag.endsWith('_audit_owner'));
};

describe('an embedded DATA_DIR of an earlier version', () => {
  it('is upgraded at start: its tables pass to the portal role, the audit trail stays with the superuser', async () => {
    // As an earlier portal left it: migrated by the superuser's pool, with audit events and pg-boss's schema.
    const old = await startEmbeddedPostgres(dataDir);
    const pool = createPool(old.url);
    const older = migrationsUpTo(before093());
    try {
      await migrate(drizzle(pool), { migrationsFolder: older });
      for (let i = 0; i < 3; i++)
        await recordAudit(drizzleOver(pool), SYSTEM, { action: 'sign_in', outcome: 'success' });
      const boss = new PgBoss({ connectionString: old.url, schema: 'pgboss', supervise: false, schedule: false });
      await boss.start();
      await boss.createQueue('old-queue');
      await boss.stop({ graceful: false, wait: true });
    } finally {
      rmSync(older, { recursive: true, force: true });
      await pool.end();
      await old.stop();
    }

    const said: string[] = [];
    const database = await openDatabase({ dataDir, log: (m) => said.push(m) });
    opened.push(database);
    expect(said).toContainEqual(expect.stringMatching(/^the database role lab_portal now owns the portal's tables/));
    const q = (text: string) => database.pool.query(text);
    expect((await q('select current_user as me, rolsuper from pg_roles where rolname = current_user')).rows).toEqual([
      { me: APP_ROLE, rolsuper: false },
    ]);
    const owners = (await q(`select tablename, tableowner from pg_tables where schemaname in ('public', 'pgboss')`))
      .rows as { tablename: string; tableowner: string }[];
    const ownerOf = (t: string) => owners.find((o) => o.tablename === t)?.tableowner;
    expect(ownerOf('users')).toBe(APP_ROLE);
    expect(ownerOf('letters')).toBe(APP_ROLE);
    expect(ownerOf('audit_events')).toBe('portal');
    expect(ownerOf('audit_chain_head')).toBe('portal');
    expect(owners.filter((o) => !o.tablename.startsWith('audit_') && o.tableowner !== APP_ROLE)).toEqual([]);
    expect((await q(`select nspowner::regrole::text as o from pg_namespace where nspname = 'pgboss'`)).rows).toEqual([
      { o: APP_ROLE },
    ]);

    // What the role split is for.
    await expect(q('set session_replication_role = replica')).rejects.toMatchObject({ code: '42501' });
    await expect(q('alter table audit_events disable trigger audit_events_immutable')).rejects.toMatchObject({
      code: '42501',
    });
    // The trail goes on through the portal's role, and its chain verifies.
    await recordAudit(database.db, SYSTEM, { action: 'sign_in', outcome: 'success' });
    expect(await verifyAuditTrail(database.pool, { checkpoints: async () => [] })).toMatchObject({
      ok: true,
      rows: 4,
      lastSeq: 4,
    });
    // pg-boss, on the portal's role, makes a new queue (a partition of its job table) in the schema it now owns.
    const boss = new PgBoss({ connectionString: database.url, schema: 'pgboss', supervise: false, schedule: false });
    await boss.start();
    await boss.createQueue('new-queue');
    await boss.send('old-queue', {});
    await boss.stop({ graceful: false, wait: true });

    // The next start has nothing to move, and the role's password is new (it lives only in the running portal).
    await database.close();
    opened.pop();
    said.length = 0;
    const again = await openDatabase({ dataDir, log: (m) => said.push(m) });
    opened.push(again);
    expect(said.filter((m) => m.includes('now owns'))).toEqual([]);
    expect(new URL(again.url).password).not.toBe(new URL(database.url).password);
    expect((await again.pool.query('select count(*)::int as n from audit_events')).rows[0].n).toBe(4);
    // The operator's tools (backup, restore) sign in as the superuser, through DATA_DIR/pg-url.
    expect(new URL(readFileSync(path.join(dataDir, 'pg-url'), 'utf8')).username).toBe('portal');
  });
});
