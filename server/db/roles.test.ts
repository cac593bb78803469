import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';

import { recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import { asDatabaseOwner, buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';

import type { Db } from './client.ts';
import { roleWarnings } from './roles.ts';

/**
 * The portal's database role (decision 093): its pool is not a superuser and does not own the audit trail, so it can
 * neither switch the trail's triggers off nor write around them. The test apps' pools use such a role, as the
 * embedded portal's does (roles.upgrade.test.ts starts one).
 */
buildTestAppBeforeAll();
let app: FastifyInstance;
let owner: Db;
beforeAll(async () => {
  app = await buildTestApp();
  owner = asDatabaseOwner(app);
  await recordAudit(app.db, { actor: null, address: null, userAgent: null }, { action: 'sign_in', outcome: 'success' });
});

const query = (text: string) => app.pgPool.query(text);
/** PostgreSQL's refusal for want of a privilege (SQLSTATE 42501), with its words. */
const refused = (words: RegExp) => ({ code: '42501', message: expect.stringMatching(words) });
const count = async () => Number((await query('select count(*) from audit_events')).rows[0].count);

describe("the portal's database role", () => {
  it('is not a superuser and cannot become one', async () => {
    const { rows } = await query(
      `select current_user as role, rolsuper, rolcreaterole, rolcreatedb, rolbypassrls, rolreplication
         from pg_roles where rolname = current_user`,
    );
    expect(rows[0]).toMatchObject({
      rolsuper: false,
      rolcreaterole: false,
      rolcreatedb: false,
      rolbypassrls: false,
      rolreplication: false,
    });
    const { rows: memberOf } = await query(
      `select roleid::regrole::text from pg_auth_members where member = (select oid from pg_roles where rolname = current_user)`,
    );
    expect(memberOf).toEqual([]);
    expect(await roleWarnings(app.pgPool)).toEqual([]);
  });

  it('is refused session_replication_role = replica, which would silence every trigger', async () => {
    await expect(query('set session_replication_role = replica')).rejects.toMatchObject(
      refused(/permission denied to set parameter "session_replication_role"/),
    );
    const client = await app.pgPool.connect();
    try {
      await client.query('begin');
      await expect(client.query('set local session_replication_role = replica')).rejects.toMatchObject({
        code: '42501',
      });
      await client.query('rollback');
    } finally {
      client.release();
    }
  });

  it("cannot switch off, drop or replace the audit trail's triggers and functions", async () => {
    for (const statement of [
      'alter table audit_events disable trigger audit_events_immutable',
      'alter table audit_events disable trigger all',
      'alter table audit_events disable trigger user',
      'alter table audit_chain_head disable trigger audit_chain_head_immutable',
      'drop trigger audit_events_chain on audit_events',
      'alter table audit_events owner to current_user',
    ]) {
      await expect(query(statement), statement).rejects.toMatchObject(refused(/must be owner of (table|relation)/));
    }
    await expect(
      query(
        `create or replace function audit_events_immutable() returns trigger language plpgsql as 'begin return old; end'`,
      ),
    ).rejects.toMatchObject(refused(/must be owner of function|permission denied for schema public/));
    await expect(query('alter function audit_purge(bigint) security invoker')).rejects.toMatchObject(
      refused(/must be owner of function/),
    );
    // Still on: the database's owner finds them enabled.
    const { rows } = await owner.execute<{ name: string; enabled: string }>(
      sql`select tgname as name, tgenabled as enabled from pg_trigger
           where tgrelid in ('audit_events'::regclass, 'audit_chain_head'::regclass) and not tgisinternal order by tgname`,
    );
    expect(rows.map((r) => r.enabled)).toEqual(['O', 'O', 'O', 'O', 'O']);
  });

  it('writes and reads events, never changes or removes them, even with the purge flag', async () => {
    const before = await count();
    await recordAudit(
      app.db,
      { actor: null, address: null, userAgent: null },
      { action: 'sign_in', outcome: 'success' },
    );
    expect(await count()).toBe(before + 1);
    for (const statement of [
      "update audit_events set actor_name = 'someone else'",
      'delete from audit_events',
      'truncate audit_events',
      'update audit_chain_head set seq = 0',
      'delete from audit_chain_head',
      'update audit_purge_floor set days = 0',
    ]) {
      await expect(query(statement), statement).rejects.toMatchObject(refused(/permission denied for table/));
    }
    // The flag audit_purge sets for itself, set by hand: still no DELETE.
    const client = await app.pgPool.connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('lab_portal.audit_purge', 'on', true)`);
      await expect(client.query('delete from audit_events')).rejects.toMatchObject({ code: '42501' });
      await client.query('rollback');
    } finally {
      client.release();
    }
    expect(await count()).toBe(before + 1);
  });

  it('lets audit_purge remove only events older than the floor it keeps (180 days)', async () => {
    const { rows } = await query('select max(seq)::text as last from audit_events');
    await expect(query(`select audit_purge(${rows[0].last})`)).rejects.toMatchObject(
      refused(/events of the last 180 days are kept/),
    );
    // A seq past the last row removes nothing (it cannot stand for "everything").
    expect((await query('select audit_purge(9223372036854775807) as n')).rows[0].n).toBe('0');
    expect(await count()).toBeGreaterThan(0);
  });

  it("owns the application's tables, and the database's owner keeps the audit trail", async () => {
    const { rows } = await query(
      `select tablename, tableowner = current_user as mine from pg_tables where schemaname = 'public' order by tablename`,
    );
    const audit = rows.filter((r) => r.tablename.startsWith('audit_'));
    expect(audit.map((r) => r.tablename)).toEqual(['audit_chain_head', 'audit_events', 'audit_purge_floor']);
    expect(audit.every((r) => !r.mine)).toBe(true);
    const others = rows.filter((r) => !r.tablename.startsWith('audit_'));
    expect(others.length).toBeGreaterThan(30);
    expect(others.filter((r) => !r.mine)).toEqual([]);
    // Its own tables' triggers are its to manage (the audit trail's are not).
    await query('alter table letters disable trigger user');
    await query('alter table letters enable trigger user');
  });
});
