import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import PgBoss from 'pg-boss';
import { afterAll, describe, expect, it } from 'vitest';

import { auditCheckpointJson } from '#shared/schemas/audit-checkpoint.ts';

import { AUDIT_CHECKPOINT_MINUTES, ConfigError, loadConfig } from '#server/config.ts';
import { type BackgroundJobs, startBackgroundJobs } from '#server/jobs/job-queue.ts';

import {
  AUDIT_SCHEDULED_CHECKPOINT_QUEUE,
  auditCheckpointCron,
  auditTrailJobs,
  writeScheduledCheckpoint,
} from './audit-trail.jobs.ts';
import { chainRow, lastSeq, seedEvents, trailApp, verify } from './audit-trail.test-helpers.ts';

/** A checkpoint every AUDIT_CHECKPOINT_MINUTES as well as nightly (decision 093). */
const log = { info: () => {}, error: () => {} };

describe('AUDIT_CHECKPOINT_MINUTES', () => {
  it('is 60 by default, and only a divisor of an hour or a day from 5 minutes on', () => {
    const base = { DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'lp-config-')), JWT_SECRET: 'x'.repeat(32) };
    expect(loadConfig(base).auditCheckpointMinutes).toBe(60);
    expect(loadConfig({ ...base, AUDIT_CHECKPOINT_MINUTES: '15' }).auditCheckpointMinutes).toBe(15);
    for (const wrong of ['0', '1', '7', '45', '90', '2880', 'hourly']) {
      expect(() => loadConfig({ ...base, AUDIT_CHECKPOINT_MINUTES: wrong }), wrong).toThrow(ConfigError);
    }
  });

  it('gives a cron line that fires exactly every so many minutes of a day', () => {
    expect(auditCheckpointCron(5)).toBe('*/5 * * * *');
    expect(auditCheckpointCron(30)).toBe('*/30 * * * *');
    expect(auditCheckpointCron(60)).toBe('0 * * * *');
    expect(auditCheckpointCron(120)).toBe('0 */2 * * *');
    expect(auditCheckpointCron(720)).toBe('0 */12 * * *');
    expect(auditCheckpointCron(1440)).toBe('0 0 * * *');
    // Every allowed value: the minutes of a day the line fires at are evenly `minutes` apart, starting at midnight.
    for (const minutes of AUDIT_CHECKPOINT_MINUTES) {
      const [m, h] = auditCheckpointCron(minutes).split(' ') as [string, string];
      const matches = (field: string, v: number) =>
        field === '*' || (field.startsWith('*/') ? v % Number(field.slice(2)) === 0 : Number(field) === v);
      const fires = Array.from({ length: 1440 }, (_, i) => i).filter(
        (i) => matches(m, i % 60) && matches(h, Math.floor(i / 60)),
      );
      expect(fires, String(minutes)).toEqual(Array.from({ length: 1440 / minutes }, (_, k) => k * minutes));
    }
  });
});

describe('the scheduled checkpoint job', () => {
  const jobs: BackgroundJobs[] = [];
  const bosses: PgBoss[] = [];
  afterAll(async () => {
    for (const j of jobs) await j.stop();
    for (const b of bosses) await b.stop({ graceful: false, wait: true });
  });

  it('is scheduled in India time from AUDIT_CHECKPOINT_MINUTES, and one run writes a checkpoint of the chain', async () => {
    const { app, store } = await trailApp({ AUDIT_CHECKPOINT_MINUTES: '15' });
    await seedEvents(app.db, 4);
    const url = String(app.pgPool.options.connectionString);
    const database = { db: app.db, pool: app.pgPool, kind: app.dbKind, url, close: async () => {} };
    jobs.push(
      await startBackgroundJobs({ database, store: app.storage, config: app.config, log }, [
        auditTrailJobs({ pollingIntervalSeconds: 1 }),
      ]),
    );
    const { rows } = await app.pgPool.query<{ cron: string; timezone: string }>(
      'select cron, timezone from pgboss.schedule where name = $1',
      [AUDIT_SCHEDULED_CHECKPOINT_QUEUE],
    );
    expect(rows).toEqual([{ cron: '*/15 * * * *', timezone: 'Asia/Kolkata' }]);

    // One run, as the schedule would start it (no waiting for the clock): a job sent to the queue.
    const boss = new PgBoss({
      connectionString: url,
      schema: 'pgboss',
      supervise: false,
      schedule: false,
      migrate: false,
    });
    bosses.push(boss);
    await boss.start();
    await boss.send(AUDIT_SCHEDULED_CHECKPOINT_QUEUE, {});
    const deadline = Date.now() + 20_000;
    let listed = await store.list();
    while (!listed.length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      listed = await store.list();
    }
    expect(listed).toHaveLength(1);
    const checkpoint = auditCheckpointJson.parse(JSON.parse(listed[0]!.body.toString('utf8')));
    expect(checkpoint).toMatchObject({ seq: 4, count: 4, firstSeq: 1, reason: 'scheduled', purgedThrough: null });
    // Its event follows it; the trail, the checkpoint and the event agree.
    const deadlineEvent = Date.now() + 5000;
    while ((await lastSeq(app.db)) < 5 && Date.now() < deadlineEvent) await new Promise((r) => setTimeout(r, 50));
    expect(await chainRow(app.db, 5)).toMatchObject({ action: 'audit_checkpoint', outcome: 'success', actorId: null });
    expect(await verify(app, store)).toMatchObject({ ok: true, rows: 5 });
    expect(readFileSync(path.join(store.folder, listed[0]!.name), 'utf8')).toBe(listed[0]!.body.toString('utf8'));
  });

  it('logs and passes on a checkpoint it cannot write, so pg-boss records the failure', async () => {
    const { app, store } = await trailApp();
    const errors: object[] = [];
    const broken = { ...store, write: () => Promise.reject(new Error('disk full')) };
    await expect(
      writeScheduledCheckpoint({ db: app.db }, broken, { info: () => {}, error: (o) => errors.push(o) }, 'scheduled'),
    ).rejects.toMatchObject({ statusCode: 503, code: 'audit.checkpoint_unavailable' });
    expect(errors).toEqual([expect.objectContaining({ reason: 'scheduled' })]);
  });
});
