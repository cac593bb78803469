import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { npmScript } from '#server/test/backup-archives.ts';
import { startTestS3, type TestS3 } from '#server/test/s3-server.ts';

import { GENESIS_HASH } from './audit-chain.ts';
import {
  chainRow,
  lastSeq,
  rewriteChainFrom,
  seedEvents,
  tamper,
  trailApp,
  verify,
} from './audit-trail.test-helpers.ts';
import { writeCheckpoint } from './checkpoints.ts';
import { purgeExpiredAuditEvents } from './retention.ts';

/**
 * The tamper tests: each kind of tampering is caught by `npm run audit:verify`'s check
 * (verify.ts), which names the first bad row. Each test has a portal and database of its own (one chain each).
 */
const SYSTEM = { actor: null, address: null, userAgent: null };
const checkpoint = (app: Awaited<ReturnType<typeof trailApp>>) =>
  writeCheckpoint(app.app.db, app.store, { reason: 'command', who: SYSTEM });

describe('npm run audit:verify', () => {
  it('passes an untouched trail: every hash recomputed, every link, the head and the checkpoints', async () => {
    const t = await trailApp();
    const before = await verify(t.app, t.store);
    expect(before).toMatchObject({ ok: true, rows: 0, head: { seq: 0, hash: GENESIS_HASH }, problems: [] });
    await seedEvents(t.app.db, 40);
    await checkpoint(t);
    await seedEvents(t.app.db, 25);
    await checkpoint(t);
    const report = await verify(t.app, t.store);
    expect(report).toMatchObject({
      ok: true,
      rows: 67,
      firstSeq: 1,
      lastSeq: 67,
      head: { seq: 67 },
      purgedThrough: null,
      checkpoints: { local: 2, s3: 0, distinct: 2, checked: 2, purged: 0, latest: { seq: 66 } },
      problems: [],
      firstBad: null,
    });
  });

  it('names a row edited in SQL (its trigger switched off for the edit)', async () => {
    const t = await trailApp();
    await seedEvents(t.app.db, 30);
    await checkpoint(t);
    const row = await chainRow(t.app.db, 12);
    await tamper(t.owner, sql`update audit_events set actor_name = 'Somebody Else' where seq = 12`);
    const report = await verify(t.app, t.store);
    expect(report.ok).toBe(false);
    expect(report.firstBad).toEqual({
      kind: 'altered',
      seq: 12,
      id: row.id,
      message: 'its fields do not give its hash: the row was changed after it was written.',
    });
    // Only that row: the rows after it still link to its stored hash, and the checkpoint still matches.
    expect(report.problemCount).toBe(1);
  });

  it('catches the newest rows deleted, head and all, against the last checkpoint', async () => {
    const t = await trailApp();
    await seedEvents(t.app.db, 20);
    await checkpoint(t); // names seq 20; its own event is seq 21
    const seq18 = await chainRow(t.app.db, 18);
    await tamper(
      t.owner,
      sql`delete from audit_events where seq > 18`,
      sql`update audit_chain_head set seq = 18, hash = ${seq18.hash} where one = 1`,
    );
    const report = await verify(t.app, t.store);
    expect(report).toMatchObject({ ok: false, rows: 18, lastSeq: 18, problemCount: 1 });
    expect(report.firstBad).toMatchObject({ kind: 'tail_cut', seq: 19, id: null });
    expect(report.firstBad!.message).toMatch(
      /^rows 19–20 are missing: checkpoint 0000000000000000020-\d{8}T\d{9}Z\.json names seq 20, but the trail ends at seq 18\. The newest rows were deleted\.$/,
    );

    // Left with the old head, the head alone shows it (no checkpoint needed).
    const u = await trailApp();
    await seedEvents(u.app.db, 10);
    await tamper(u.owner, sql`delete from audit_events where seq >= 9`);
    expect((await verify(u.app, u.store)).firstBad).toMatchObject({
      kind: 'tail_cut',
      seq: 9,
      message:
        'rows 9–10 are missing: the chain head names seq 10, the last row is seq 8. The newest rows were deleted.',
    });
  });

  it('names the rows deleted from the middle, even through a forged purge flag', async () => {
    const t = await trailApp();
    await seedEvents(t.app.db, 15);
    // The flag audit_purge sets for itself: the portal's own role is refused even with it (decision 093)...
    const forged = (db: typeof t.owner) =>
      db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('lab_portal.audit_purge', 'on', true)`);
        await tx.execute(sql`delete from audit_events where seq in (6, 7)`);
      });
    await expect(forged(t.app.db)).rejects.toMatchObject({ cause: { code: '42501' } });
    // ...but it lets the trail's owner through, who could as well switch the trigger off: the chain shows it.
    await forged(t.owner);
    const report = await verify(t.app, t.store);
    expect(report.firstBad).toMatchObject({ kind: 'gap', seq: 6, id: null });
    expect(report.firstBad!.message).toMatch(
      /^rows 6–7 are missing, between seq 5 and seq 8 \(id [0-9a-f-]{36}\): deleted\.$/,
    );

    // The oldest rows deleted without a purge's checkpoint.
    const u = await trailApp();
    await seedEvents(u.app.db, 10);
    await u.app.db.execute(sql`select audit_purge(4)`); // the retention function, but no checkpoint first
    const first = await chainRow(u.app.db, 5);
    expect((await verify(u.app, u.store)).firstBad).toEqual({
      kind: 'removed_without_purge',
      seq: 1,
      id: null,
      message: `rows 1–4 are gone before the first row, and no purge checkpoint records their removal (the first row present is seq 5 (id ${first.id})).`,
    });
  });

  it('keeps verifying across retention purges, each with its checkpoint first', async () => {
    const t = await trailApp();
    await seedEvents(t.app.db, 12);
    await checkpoint(t);
    const first = await purgeExpiredAuditEvents(t.app.db, t.store, { retentionDays: 180, now: inDays(181) });
    expect(first).toMatchObject({ throughSeq: 13, removed: 13 });
    await seedEvents(t.app.db, 5);
    const second = await purgeExpiredAuditEvents(t.app.db, t.store, { retentionDays: 180, now: inDays(181) });
    expect(second!.throughSeq).toBeGreaterThan(first!.throughSeq);
    await seedEvents(t.app.db, 3);
    const report = await verify(t.app, t.store);
    expect(report).toMatchObject({
      ok: true,
      rows: 5, // the second purge's checkpoint and audit_purged events, and the three after them
      firstSeq: second!.throughSeq + 1,
      purgedThrough: second!.throughSeq,
      problems: [],
    });
    expect(report.checkpoints.purged).toBeGreaterThan(0); // the links before the first row: nothing left to compare
  });

  it('catches a chain rewritten consistently, against a checkpoint held outside the database', async () => {
    const t = await trailApp();
    await seedEvents(t.app.db, 10);
    await checkpoint(t); // seq 10: before the rewrite
    await seedEvents(t.app.db, 10);
    await checkpoint(t); // seq 21
    await seedEvents(t.app.db, 5);
    await rewriteChainFrom(t.owner, 15, 'Somebody Else');
    const report = await verify(t.app, t.store);
    // The rows verify on their own now: only the checkpoint shows the rewrite, bounded by the one before it.
    expect(report.problems.map((p) => p.kind)).toEqual(['checkpoint_mismatch']);
    const at21 = await chainRow(t.app.db, 21);
    expect(report.firstBad).toMatchObject({ seq: 21, id: at21.id });
    expect(report.firstBad!.message).toMatch(
      /^the hash of seq 21 is not the one checkpoint 0000000000000000021-\d{8}T\d{9}Z\.json recorded \([0-9a-f]{12}…, here [0-9a-f]{12}…\): the chain was rewritten at or before seq 21, after seq 10, which checkpoint 0000000000000000010-\d{8}T\d{9}Z\.json confirms\.$/,
    );
  });

  describe('with the checkpoints in the bucket too (STORAGE=s3)', () => {
    let s3: TestS3;
    beforeAll(async () => {
      s3 = await startTestS3('audit-verify');
    });
    afterAll(async () => {
      await s3?.close();
    });

    it('reads both copies, and reports copies that differ and files that are not checkpoints', async () => {
      const t = await trailApp(s3.env);
      await seedEvents(t.app.db, 5);
      const { name } = await checkpoint(t);
      expect(await verify(t.app, t.store)).toMatchObject({
        ok: true,
        checkpoints: { local: 1, s3: 1, distinct: 1, checked: 1 },
        warnings: [],
      });
      // Someone with the machine but not the bucket "corrects" the local copy to a rewritten chain.
      const file = path.join(t.store.folder, name);
      writeFileSync(file, readFileSync(file, 'utf8').replace(/"hash": "[0-9a-f]{64}"/, `"hash": "${'a'.repeat(64)}"`));
      writeFileSync(path.join(t.store.folder, '0000000000000000003-20261127T101502123Z.json'), '{"format":"x"}');
      const report = await verify(t.app, t.store);
      expect(report.problems.map((p) => p.kind).sort()).toEqual([
        'checkpoint_copies_differ',
        'checkpoint_invalid',
        'checkpoint_mismatch',
      ]);
      expect(report.problems.find((p) => p.kind === 'checkpoint_copies_differ')!.message).toBe(
        `The copies of checkpoint ${name} in local and s3 differ: one of them was altered.`,
      );
      expect(report.warnings).toEqual([
        'Checkpoint 0000000000000000003-20261127T101502123Z.json is only in the folder, not in the bucket.',
      ]);
    });
  });
});

describe('npm run audit:verify and npm run audit:checkpoint, end to end', () => {
  it('exit 0 on an intact trail, 1 naming the first bad row, with a summary and one JSON line', async () => {
    const t = await trailApp();
    const env = { DATA_DIR: t.app.config.dataDir, DATABASE_URL: t.app.pgPool.options.connectionString! };
    await seedEvents(t.app.db, 8);
    const made = await npmScript('audit-checkpoint', [], env);
    expect(made.status).toBe(0);
    expect(made.output).toMatch(/^Audit checkpoint written: seq 8 \([0-9a-f]{64}\), 8 rows from seq 1\.\n/);
    expect(readdirSync(t.store.folder)).toEqual([expect.stringMatching(/^0000000000000000008-\d{8}T\d{9}Z\.json$/)]);
    const event = await chainRow(t.app.db, 9);
    expect(event).toMatchObject({ action: 'audit_checkpoint', outcome: 'success', actorId: null });
    expect(event.userAgent).toMatch(/^npm run audit:checkpoint \(.+@.+\)$/);

    const good = await npmScript('audit-verify', [], env);
    expect(good.status).toBe(0);
    const lines = good.output.trim().split('\n');
    expect(lines[0]).toBe('Audit trail of the DATABASE_URL database:');
    expect(lines).toContain('  rows: 9 (seq 1 to 9); chain head: seq 9');
    expect(lines.at(-2)).toBe('OK: every row gives its hash, every link holds, and every checkpoint agrees.');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ ok: true, rows: 9, checkpoints: { distinct: 1, checked: 1 } });

    const row = await chainRow(t.app.db, 4);
    await tamper(t.owner, sql`update audit_events set classification = 'Normal' where seq = 4`);
    const bad = await npmScript('audit-verify', [], env);
    expect(bad.status).toBe(1);
    expect(bad.output).toContain(
      `FAILED: 1 problem.\nFirst bad row: seq 4 (id ${row.id}): its fields do not give its hash: the row was changed after it was written.\n`,
    );
    const json = JSON.parse(bad.output.trim().split('\n').at(-1)!);
    expect(json).toMatchObject({ ok: false, problemCount: 1, firstBad: { seq: 4, id: row.id, kind: 'altered' } });
    expect(await lastSeq(t.app.db)).toBe(9); // verify only reads

    const unreachable = await npmScript('audit-verify', [], {
      ...env,
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/x',
    });
    expect(unreachable.status).toBe(2);
    expect(unreachable.output).toMatch(/^Audit verify could not run: /);
  }, 120_000);
});

/** A moment `days` from now: the purge's "now", so that everything written so far is past the retention. */
const inDays = (days: number) => new Date(Date.now() + days * 24 * 60 * 60 * 1000);
