import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';

import type { Db } from '#server/db/client.ts';
import { asDatabaseOwner, buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';

import { chainHash, type ChainRow, GENESIS_HASH } from './audit-chain.ts';
import { recordAudit } from './audit-trail.ts';

buildTestAppBeforeAll();
let db: Db;
/** The database's owner: the portal's own role is refused these statements for want of privileges (decision 093). */
let owner: Db;
beforeAll(async () => {
  const app = await buildTestApp();
  db = app.db;
  owner = asDatabaseOwner(app);
});

const who = {
  actor: { id: '00000000-0000-4000-8000-000000000001', name: 'Asha Rao — आशा', role: 'director' },
  address: '10.0.0.7',
  userAgent: 'Test "agent" | 1',
};

/** Drizzle wraps the database's error: its cause is PostgreSQL's refusal. */
const refused = { cause: { code: '42501', message: expect.stringMatching(/append-only/) } };
const notPermitted = { cause: { code: '42501', message: expect.stringMatching(/permission denied for table/) } };

describe('the audit chain', () => {
  it('links each event to the one before, as the canonical form of decision 067 says', async () => {
    const first = await recordAudit(db, who, {
      action: 'letter_viewed',
      object: { type: 'letter', id: '00000000-0000-4000-8000-000000000002', label: 'L-2026-000001' },
      classification: 'Secret',
      outcome: 'success',
      details: { note: 'a|b:c', count: 2 },
    });
    const second = await recordAudit(
      db,
      { actor: null, address: null, userAgent: null },
      { action: 'sign_in_failed', outcome: 'failure' },
    );
    expect(second.seq).toBe(first.seq + 1);
    const { rows } = await db.execute<ChainRow & { prevHash: string; hash: string } & Record<string, unknown>>(sql`
      select seq::text as "seq", id::text as "id",
        to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "occurredAt",
        actor_id::text as "actorId", actor_name as "actorName", actor_role as "actorRole",
        client_address as "clientAddress", user_agent as "userAgent", action, object_type as "objectType",
        object_id as "objectId", object_label as "objectLabel", classification, outcome, details,
        prev_hash as "prevHash", hash
      from audit_events order by seq`);
    let prev = rows[0]!.seq === '1' ? GENESIS_HASH : rows[0]!.prevHash;
    for (const row of rows) {
      expect(row.prevHash).toBe(prev);
      expect(chainHash(prev, row)).toBe(row.hash);
      prev = row.hash;
    }
    const [head] = (await db.execute<{ seq: string; hash: string }>(sql`select seq::text, hash from audit_chain_head`))
      .rows;
    expect(head).toEqual({ seq: String(second.seq), hash: prev });
  });

  it('is refused UPDATE, DELETE and TRUNCATE by the database, even to its owner', async () => {
    await recordAudit(db, who, { action: 'sign_in', outcome: 'success' });
    for (const [as, refusal] of [
      [db, notPermitted],
      [owner, refused],
    ] as const) {
      await expect(as.execute(sql`update audit_events set actor_name = 'someone else'`)).rejects.toMatchObject(refusal);
      await expect(as.execute(sql`delete from audit_events`)).rejects.toMatchObject(refusal);
      await expect(as.execute(sql`truncate audit_events`)).rejects.toMatchObject(refusal);
      // Nor can the chain's head be removed (its link is what the next event chains to).
      await expect(as.execute(sql`delete from audit_chain_head`)).rejects.toMatchObject(refusal);
      await expect(as.execute(sql`truncate audit_chain_head`)).rejects.toMatchObject(refusal);
    }
  });

  it('lets rows go only inside audit_purge: a DELETE after it, in the same transaction, is refused again', async () => {
    await recordAudit(db, who, { action: 'sign_in', outcome: 'success' });
    const [{ first }] = (await db.execute<{ first: string }>(sql`select min(seq)::text as first from audit_events`))
      .rows as [{ first: string }];
    // As the owner, who alone may DELETE at all, with the floor lowered (the row is new) in the same transaction.
    await expect(
      owner.transaction(async (tx) => {
        await tx.execute(sql`update audit_purge_floor set days = 0`);
        await tx.execute(sql`select audit_purge(${Number(first)})`);
        await tx.execute(sql`delete from audit_events`);
      }),
    ).rejects.toMatchObject(refused);
  });
});
