import { rmSync, writeFileSync } from 'node:fs';

import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { chainRow, lastSeq, seedEvents, trailApp, verify } from './audit-trail.test-helpers.ts';
import { purgeExpiredAuditEvents } from './retention.ts';

/** Retention (AUDIT_RETENTION_DAYS, decision 068): the nightly purge and the checkpoint it writes first. */
const DAY = 24 * 60 * 60 * 1000;

describe('purgeExpiredAuditEvents', () => {
  it('removes only the rows before the retention window, after a checkpoint naming the boundary', async () => {
    const { app, store } = await trailApp();
    await seedEvents(app.db, 6);
    await new Promise((r) => setTimeout(r, 20));
    const boundary = Date.now();
    await new Promise((r) => setTimeout(r, 20));
    await seedEvents(app.db, 4);
    const at6 = await chainRow(app.db, 6);
    // 180 days after `boundary`: the first six rows are past the retention, the last four are not.
    const purged = await purgeExpiredAuditEvents(app.db, store, {
      retentionDays: 180,
      now: new Date(boundary + 180 * DAY),
    });
    expect(purged).toEqual({
      throughSeq: 6,
      removed: 6,
      checkpoint: expect.stringMatching(/^0{17}10-\d{8}T\d{9}Z\.json$/),
    });

    // The checkpoint was written first: the chain as it stood (seq 10), and the last link removed with its hash.
    const [copy] = await store.list();
    expect(JSON.parse(copy!.body.toString('utf8'))).toMatchObject({
      seq: 10,
      count: 10,
      firstSeq: 1,
      reason: 'purge',
      purgedThrough: { seq: 6, hash: at6.hash },
    });
    // Then its event (seq 11), the purge, and the purge's event (seq 12).
    const { rows } = await app.db.execute<{ seq: string; action: string }>(
      sql`select seq::text as seq, action from audit_events order by audit_events.seq`,
    );
    expect(rows.map((r) => Number(r.seq))).toEqual([7, 8, 9, 10, 11, 12]);
    expect(await chainRow(app.db, 11)).toMatchObject({ action: 'audit_checkpoint', outcome: 'success', actorId: null });
    const event = await chainRow(app.db, 12);
    expect(event).toMatchObject({ action: 'audit_purged', outcome: 'success', objectId: purged!.checkpoint });
    expect(JSON.parse(event.details!)).toEqual({
      throughSeq: 6,
      removed: 6,
      retentionDays: 180,
      before: new Date(boundary).toISOString(),
    });
    expect(await verify(app, store)).toMatchObject({ ok: true, purgedThrough: 6, firstSeq: 7 });

    // Nothing older than the retention: nothing to do, no checkpoint.
    expect(await purgeExpiredAuditEvents(app.db, store, { retentionDays: 180 })).toBeNull();
    expect(await store.list()).toHaveLength(1);
  });

  it('removes nothing when its checkpoint cannot be written', async () => {
    const { app, store } = await trailApp();
    await seedEvents(app.db, 5);
    writeFileSync(store.folder, 'not a folder');
    await expect(
      purgeExpiredAuditEvents(app.db, store, { retentionDays: 180, now: new Date(Date.now() + 181 * DAY) }),
    ).rejects.toMatchObject({ statusCode: 503, code: 'audit.checkpoint_unavailable' });
    const { rows } = await app.db.execute<{ n: string }>(sql`select count(*)::text as n from audit_events`);
    expect(Number(rows[0]!.n)).toBe(6); // the five, and the failed checkpoint's event
    expect(await chainRow(app.db, await lastSeq(app.db))).toMatchObject({
      action: 'audit_checkpoint',
      outcome: 'failure',
    });
    rmSync(store.folder);
    expect(await verify(app, store)).toMatchObject({ ok: true, rows: 6 });
  });
});
