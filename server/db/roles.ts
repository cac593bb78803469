import { randomBytes } from 'node:crypto';

import pg from 'pg';

/**
 * The database roles (decision 093). The portal's pool logs in as a role that is not a superuser: it owns the
 * application's tables (and the job queue's schema, `pgboss`) but not the audit trail. The audit trail's tables and
 * functions (every object of schema `public` whose name starts with `audit_`) stay with the database's owner (the
 * embedded server's superuser, or whoever ran the migrations), so the portal's role cannot switch their triggers off
 * (`ALTER TABLE … DISABLE TRIGGER` needs the table's owner; `SET session_replication_role` a superuser). It may INSERT
 * and SELECT audit events, read the chain head, and remove the oldest only through `audit_purge` (migration 0038),
 * which runs as the owner and keeps the last `audit_purge_floor.days` days whatever it is asked.
 */

/** The embedded server's login role for the portal's pool. */
export const APP_ROLE = 'lab_portal';

type Queryable = pg.Pool | pg.PoolClient | pg.Client;

/** Schemas whose objects the portal's role owns: the application's, and the job queue's (pg-boss creates its queues). */
const APP_SCHEMAS = ['public', 'pgboss'];

/** The audit trail's objects, which stay with the owner. */
const isAuditObject = (schema: string, name: string) => schema === 'public' && name.startsWith('audit_');

/**
 * Creates the login role `role` if missing, or brings it back to what it must be: LOGIN, no superuser, no CREATEDB,
 * CREATEROLE, REPLICATION or BYPASSRLS, member of no other role, with `password`. Run by a superuser (the embedded
 * server's, at every start: the password is new each time and lives only in the running portal's memory).
 */
export async function ensureLoginRole(owner: Queryable, role: string, password: string): Promise<void> {
  const name = pg.escapeIdentifier(role);
  const attributes = `LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS PASSWORD ${pg.escapeLiteral(password)}`;
  const { rowCount } = await owner.query('select 1 from pg_roles where rolname = $1', [role]);
  await owner.query(`${rowCount ? 'ALTER' : 'CREATE'} ROLE ${name} ${attributes}`);
  // A member of another role could SET ROLE to it (the superuser's included).
  const { rows } = await owner.query<{ parent: string }>(
    `select g.rolname as parent from pg_auth_members m join pg_roles g on g.oid = m.roleid
      join pg_roles r on r.oid = m.member where r.rolname = $1`,
    [role],
  );
  for (const { parent } of rows) await owner.query(`REVOKE ${pg.escapeIdentifier(parent)} FROM ${name}`);
}

/** A fresh password for the embedded login role. */
export const newRolePassword = () => randomBytes(24).toString('base64url');

/** `url` signed in as `role` with `password` (same server, database and options). */
export function urlAs(url: string, role: string, password: string): string {
  const u = new URL(url);
  u.username = encodeURIComponent(role);
  u.password = encodeURIComponent(password);
  return u.toString();
}

/**
 * In the database `owner` is connected to, as its owner: gives `role` the application's objects and what it needs of
 * the audit trail, and takes back from it anything of the audit trail it owned. An existing database (one made by a
 * portal before decision 093, where the superuser owned everything) is upgraded in place; a second run changes
 * nothing. Answers how many objects changed owner.
 */
export async function grantAppRole(owner: pg.Pool, role: string): Promise<number> {
  const client = await owner.connect();
  const name = pg.escapeIdentifier(role);
  let moved = 0;
  try {
    await client.query('begin');
    // Nodes starting together would GRANT on the same rows at once ("tuple concurrently updated"): one at a time.
    await client.query('select pg_advisory_xact_lock(727276)');
    const [{ db, me }] = (
      await client.query<{ db: string; me: string }>('select current_database() as db, current_user as me')
    ).rows as [{ db: string; me: string }];
    const ownerName = pg.escapeIdentifier(me);
    await client.query(`GRANT CONNECT, TEMPORARY, CREATE ON DATABASE ${pg.escapeIdentifier(db)} TO ${name}`);
    await client.query(`GRANT USAGE ON SCHEMA public TO ${name}`);

    // Tables, views and free-standing sequences (those of a serial or identity column follow their table);
    // extension members stay as they are.
    const { rows: relations } = await client.query<{ oid: number; schema: string; rel: string; kind: string }>(
      `select c.oid, n.nspname as schema, c.relname as rel, c.relkind as kind
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = any($1) and c.relkind in ('r', 'p', 'v', 'm', 'S')
          and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid
                            and (d.deptype = 'e' or (c.relkind = 'S' and d.deptype in ('a', 'i'))))
        order by c.oid`,
      [APP_SCHEMAS],
    );
    const command = { r: 'TABLE', p: 'TABLE', v: 'VIEW', m: 'MATERIALIZED VIEW', S: 'SEQUENCE' } as Record<
      string,
      string
    >;
    for (const r of relations) {
      const audit = isAuditObject(r.schema, r.rel);
      // Read again: changing a table's owner also changes its partitions' and sequences' in some versions.
      const { rows } = await client.query<{ owner: string }>(
        'select pg_get_userbyid(relowner) as owner from pg_class where oid = $1',
        [r.oid],
      );
      // What this owner made goes to the portal's role; the audit trail's, if the portal's role had it, comes back.
      if (rows[0]?.owner !== (audit ? role : me)) continue;
      const qualified = `${pg.escapeIdentifier(r.schema)}.${pg.escapeIdentifier(r.rel)}`;
      await client.query(`ALTER ${command[r.kind]} ${qualified} OWNER TO ${audit ? ownerName : name}`);
      moved++;
    }

    // The job queue's schema, with its types and functions (pg-boss alters them when it upgrades itself).
    const { rowCount: hasQueue } = await client.query(`select 1 from pg_namespace where nspname = 'pgboss'`);
    if (hasQueue) {
      await client.query(`ALTER SCHEMA pgboss OWNER TO ${name}`);
      const { rows: types } = await client.query<{ type: string }>(
        `select t.oid::regtype::text as type from pg_type t join pg_namespace n on n.oid = t.typnamespace
          where n.nspname = 'pgboss' and t.typtype = 'e' and pg_get_userbyid(t.typowner) <> $1`,
        [role],
      );
      for (const { type } of types) await client.query(`ALTER TYPE ${type} OWNER TO ${name}`);
      const { rows: routines } = await client.query<{ fn: string }>(
        `select p.oid::regprocedure::text as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = 'pgboss' and pg_get_userbyid(p.proowner) <> $1`,
        [role],
      );
      for (const { fn } of routines) await client.query(`ALTER ROUTINE ${fn} OWNER TO ${name}`);
      moved += types.length + routines.length;
    }

    // The audit trail: events written and read, the head and the floor read, the oldest removed by audit_purge only.
    await client.query(`REVOKE ALL ON audit_events, audit_chain_head, audit_purge_floor FROM ${name}`);
    await client.query(`GRANT SELECT, INSERT ON audit_events TO ${name}`);
    await client.query(`GRANT SELECT ON audit_chain_head, audit_purge_floor TO ${name}`);
    await client.query(`GRANT EXECUTE ON FUNCTION audit_purge(bigint) TO ${name}`);
    const { rows: auditRoutines } = await client.query<{ fn: string }>(
      `select p.oid::regprocedure::text as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.proname like 'audit\\_%' and pg_get_userbyid(p.proowner) = $1`,
      [role],
    );
    for (const { fn } of auditRoutines) await client.query(`ALTER ROUTINE ${fn} OWNER TO ${ownerName}`);
    moved += auditRoutines.length;
    await client.query('commit');
    return moved;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/**
 * What the pool's role could do to the audit trail, in words for the log at start (DATABASE_URL: the lab's DBA sets the
 * roles up, docs/deployment.md). Empty: it is a role as decision 093 wants it.
 */
export async function roleWarnings(pool: pg.Pool): Promise<string[]> {
  const { rows } = await pool.query<{ role: string; superuser: boolean; owned: string[] | null }>(
    `select r.rolname as role, r.rolsuper as superuser,
        (select array_agg(c.relname::text order by c.relname) from pg_class c
          where c.relnamespace = 'public'::regnamespace and c.relname in ('audit_events', 'audit_chain_head')
            and pg_has_role(current_user, c.relowner, 'USAGE')) as owned
       from pg_roles r where r.rolname = current_user`,
  );
  const row = rows[0];
  if (!row) return [];
  const warnings: string[] = [];
  if (row.superuser) {
    warnings.push(
      `The portal connects to its database as "${row.role}", a superuser: it could switch the audit trail's triggers off (session_replication_role). Give it a role that is not a superuser (docs/deployment.md, decision 093).`,
    );
  } else if (row.owned?.length) {
    warnings.push(
      `The portal's database role "${row.role}" owns ${row.owned.join(' and ')}: it could switch the audit trail's triggers off. Let another role own them (docs/deployment.md, decision 093).`,
    );
  }
  return warnings;
}
