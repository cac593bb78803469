import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

import type { Db } from '#server/db/client.ts';
import { asDatabaseOwner, buildTestApp } from '#server/test/app.ts';

import { chainHash, type ChainRow } from './audit-chain.ts';
import { type CheckpointStore, checkpointStore } from './checkpoints.ts';
import { verifyAuditTrail } from './verify.ts';

// Helpers of the audit trail's integrity tests (verify, retention, checkpoints): a portal of its own per test (the
// trail is one chain per database), events written through the real trigger, and tampering as the database's owner
// (the portal's own role cannot: decision 093).

/**
 * A test app on a database of its own, its checkpoint store (DATA_DIR/audit-checkpoints; the bucket with S3), and its
 * database as the owner. These tests age events by purging with a `now` in the future, so the owner lowers the floor
 * audit_purge keeps (180 days by default, decision 093) to none.
 */
export async function trailApp(overrides: Record<string, string> = {}) {
  let store: CheckpointStore | undefined;
  const app = await buildTestApp(overrides, async (instance) => {
    const made = checkpointStore(instance.config);
    instance.addHook('onClose', () => made.close());
    store = made;
  });
  const owner = asDatabaseOwner(app);
  await owner.execute(sql`update audit_purge_floor set days = 0`);
  return { app, store: store!, owner };
}

/**
 * Writes `count` events through the insert trigger, as recordAudit does, with what real ones hold: people with Hindi
 * names, addresses, browsers, classified objects, details with the canonical form's separators in them, and labels with
 * a tab, a backslash, a newline and `\N`, and details that are just `\N` (what COPY's text format escapes).
 */
export async function seedEvents(db: Db, count: number): Promise<void> {
  await db.execute(sql`
    insert into audit_events (seq, prev_hash, hash, occurred_at, actor_id, actor_name, actor_role, client_address,
      user_agent, action, object_type, object_id, object_label, classification, outcome, details)
    select 0, '', '', now(),
      case when i % 7 = 0 then null else ('00000000-0000-4000-8000-' || lpad(i::text, 12, '0'))::uuid end,
      case when i % 7 = 0 then null else (array['Asha Rao', 'सुनीता अय्यर', 'Ravi "R" Verma'])[(i % 3) + 1] end,
      case when i % 7 = 0 then null else 'employee' end,
      '10.0.0.' || (i % 250), 'Mozilla/5.0 | test ' || i,
      (array['letter_viewed', 'document_downloaded', 'access_refused'])[(i % 3) + 1],
      'letter', gen_random_uuid()::text,
      case when i % 5 = 0
        then 'a' || chr(9) || 'tab, a back' || chr(92) || 'slash ' || chr(92) || 'N, a' || chr(10) || 'new line' || chr(13) || i
        else 'L-2026-' || lpad(i::text, 6, '0') end,
      (array['Secret', 'Confidential', null])[(i % 3) + 1],
      (array['success', 'success', 'refused'])[(i % 3) + 1],
      case when i % 2 = 0 then '{"note":"a|b:c 5:x|","n":' || i || '}' when i % 9 = 1 then chr(92) || 'N' end
    from generate_series(1, ${count}::int) i`);
}

/**
 * Runs SQL as the database's owner (`db`: asDatabaseOwner) with the immutability trigger off, as someone tampering with the trail would
 * (`alter table … disable trigger`, the edit, `enable trigger`), in one transaction.
 */
export async function tamper(db: Db, ...statements: ReturnType<typeof sql>[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`alter table audit_events disable trigger audit_events_immutable`);
    for (const statement of statements) await tx.execute(statement);
    await tx.execute(sql`alter table audit_events enable trigger audit_events_immutable`);
  });
}

/** One row as the chain sees it, with its link and hash. */
export async function chainRow(db: Db, seq: number) {
  const { rows } = await db.execute<ChainRow & { prevHash: string; hash: string } & Record<string, unknown>>(sql`
    select seq::text as "seq", id::text as "id",
      to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "occurredAt",
      actor_id::text as "actorId", actor_name as "actorName", actor_role as "actorRole",
      client_address as "clientAddress", user_agent as "userAgent", action, object_type as "objectType",
      object_id as "objectId", object_label as "objectLabel", classification, outcome, details,
      prev_hash as "prevHash", hash
    from audit_events where seq = ${seq}`);
  return rows[0]!;
}

/**
 * Rewrites the chain from `seq` on, as the database's owner (`db`), the way a careful forger would: that row's actor changed, and every later link
 * recomputed with the portal's own canonical form so that the chain verifies on its own, the head moved along.
 */
export async function rewriteChainFrom(db: Db, seq: number, actorName: string): Promise<void> {
  const [{ last }] = (await db.execute<{ last: string }>(sql`select max(seq)::text as last from audit_events`))
    .rows as [{ last: string }];
  let prev = (await chainRow(db, seq)).prevHash;
  const updates: ReturnType<typeof sql>[] = [];
  for (let s = seq; s <= Number(last); s++) {
    const row = await chainRow(db, s);
    const edited = s === seq ? { ...row, actorName } : row;
    const hash = chainHash(prev, edited);
    updates.push(
      sql`update audit_events set actor_name = ${edited.actorName}, prev_hash = ${prev}, hash = ${hash} where seq = ${s}`,
    );
    prev = hash;
  }
  updates.push(sql`update audit_chain_head set hash = ${prev} where one = 1`);
  await tamper(db, ...updates);
}

/** `npm run audit:verify`'s check of this app's database against its checkpoints. */
export const verify = (app: FastifyInstance, store: CheckpointStore) =>
  verifyAuditTrail(app.pgPool, { checkpoints: () => store.list(), bucket: store.places.length > 1 });

/** The trail's last seq. */
export const lastSeq = async (db: Db) =>
  Number((await db.execute<{ seq: string }>(sql`select seq::text as seq from audit_chain_head`)).rows[0]!.seq);
