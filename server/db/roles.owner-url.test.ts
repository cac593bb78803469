import { randomUUID } from 'node:crypto';

import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';

import { recordAudit } from '#server/modules/audit-trail/audit-trail.ts';

import { type Database, openDatabase } from './client.ts';
import { newRolePassword, urlAs } from './roles.ts';

/**
 * DATABASE_URL with DATABASE_OWNER_URL (decision 093, docs/deployment.md "The database roles"): the DBA's two roles,
 * neither a superuser. The owner migrates a new database and hands the portal's role its tables; the audit trail stays
 * the owner's. With one role alone the portal warns at start.
 */
const { adminUrl } = inject('testDatabase');
const tag = randomUUID().replace(/-/g, '').slice(0, 10);
const owner = { name: `lp_owner_${tag}`, password: newRolePassword() };
const app = { name: `lp_portal_${tag}`, password: newRolePassword() };
const dbName = `lp_roles_${tag}`;
const opened: Database[] = [];

async function asAdmin(statements: string[], database?: string) {
  const url = new URL(adminUrl);
  if (database) url.pathname = `/${database}`;
  const c = new pg.Client({ connectionString: url.toString() });
  await c.connect();
  try {
    for (const s of statements) await c.query(s);
  } finally {
    await c.end();
  }
}

afterAll(async () => {
  for (const d of opened) await d.close();
  await asAdmin([
    `drop database if exists ${dbName} with (force)`,
    `drop role if exists ${app.name}`,
    `drop role if exists ${owner.name}`,
  ]);
});

describe('DATABASE_URL with DATABASE_OWNER_URL', () => {
  it("migrates as the owner, gives the portal's role the tables and keeps the audit trail", async () => {
    // What the DBA runs once (docs/deployment.md).
    await asAdmin([
      `create role ${owner.name} login password '${owner.password}'`,
      `create role ${app.name} login nosuperuser nocreatedb nocreaterole noreplication nobypassrls password '${app.password}'`,
      `grant ${app.name} to ${owner.name}`,
      `create database ${dbName} owner ${owner.name}`,
    ]);
    await asAdmin([`grant create on schema public to ${app.name}`], dbName);
    const base = new URL(adminUrl);
    base.pathname = `/${dbName}`;
    const said: string[] = [];
    const database = await openDatabase({
      databaseUrl: urlAs(base.toString(), app.name, app.password),
      databaseOwnerUrl: urlAs(base.toString(), owner.name, owner.password),
      log: (m) => said.push(m),
    });
    opened.push(database);
    expect(said.filter((m) => m.startsWith('warning:'))).toEqual([]);
    const q = (text: string) => database.pool.query(text);
    const { rows } = await q(
      `select tablename, tableowner from pg_tables where schemaname = 'public' and tablename in ('users', 'audit_events')
        order by tablename`,
    );
    expect(rows).toEqual([
      { tablename: 'audit_events', tableowner: owner.name },
      { tablename: 'users', tableowner: app.name },
    ]);
    await expect(q('set session_replication_role = replica')).rejects.toMatchObject({ code: '42501' });
    await expect(q('alter table audit_events disable trigger all')).rejects.toMatchObject({ code: '42501' });
    await recordAudit(
      database.db,
      { actor: null, address: null, userAgent: null },
      { action: 'sign_in', outcome: 'success' },
    );
    expect((await q('select count(*)::int as n from audit_events')).rows[0].n).toBe(1);

    // The owner's address alone: it works, and says at start what its role could do.
    const alone: string[] = [];
    const single = await openDatabase({
      databaseUrl: urlAs(base.toString(), owner.name, owner.password),
      log: (m) => alone.push(m),
    });
    opened.push(single);
    expect(alone).toEqual([
      expect.stringMatching(
        new RegExp(
          `^warning: The portal's database role "${owner.name}" owns audit_chain_head and audit_events: it could switch the audit trail's triggers off`,
        ),
      ),
    ]);
  });
});
