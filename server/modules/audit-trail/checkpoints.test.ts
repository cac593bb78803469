import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { auditCheckpointJson } from '#shared/schemas/audit-checkpoint.ts';

import { jobModules } from '#server/jobs/modules.ts';
import { sweepStorage } from '#server/modules/files/sweep.ts';
import { buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createUser, signIn } from '#server/test/factories.ts';
import { startTestS3, type TestS3 } from '#server/test/s3-server.ts';

import { AUDIT_CHECKPOINT_QUEUE, AUDIT_RETENTION_QUEUE, AUDIT_SCHEDULED_CHECKPOINT_QUEUE } from './audit-trail.jobs.ts';
import { chainRow, lastSeq, seedEvents, trailApp } from './audit-trail.test-helpers.ts';
import { checkpointBytes } from './checkpoints.ts';

/** Audit checkpoints (decision 068): POST /api/audit/checkpoints, the places they go, the nightly job. */
buildTestAppBeforeAll();

const URL = '/api/audit/checkpoints';

describe('POST /api/audit/checkpoints', () => {
  it('lets an admin write a checkpoint now, to DATA_DIR/audit-checkpoints, recorded as an audit event', async () => {
    const { app, user, headers } = await signIn('admin');
    await seedEvents(app.db, 3);
    const head = await lastSeq(app.db);
    const res = await app.inject({ method: 'POST', url: URL, headers: { ...headers, 'user-agent': 'Auditor/1.0' } });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      name: expect.stringMatching(new RegExp(`^${String(head).padStart(19, '0')}-\\d{8}T\\d{9}Z\\.json$`)),
      checkpoint: {
        format: 'lab-portal-audit-checkpoint',
        version: 1,
        seq: head,
        hash: (await chainRow(app.db, head)).hash,
        count: head,
        firstSeq: 1,
        takenAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        reason: 'requested',
        purgedThrough: null,
      },
      places: ['DATA_DIR/audit-checkpoints'],
    });
    // The file is exactly the checkpoint, in the format's order.
    const file = readFileSync(path.join(app.config.dataDir, 'audit-checkpoints', body.name));
    expect(file.equals(checkpointBytes(body.checkpoint))).toBe(true);
    expect(auditCheckpointJson.parse(JSON.parse(file.toString('utf8')))).toEqual(body.checkpoint);
    // Writing it is itself an event, by the admin, naming the checkpoint.
    const event = await chainRow(app.db, head + 1);
    expect(event).toMatchObject({
      action: 'audit_checkpoint',
      outcome: 'success',
      actorId: user.id,
      actorName: user.name,
      actorRole: 'admin',
      userAgent: 'Auditor/1.0',
      objectType: 'audit_checkpoint',
      objectId: body.name,
      objectLabel: `seq ${head}`,
    });
    expect(JSON.parse(event.details!)).toMatchObject({ seq: head, hash: body.checkpoint.hash, reason: 'requested' });
  });

  it('refuses a visitor (401) and everyone but admins (403), writing nothing', async () => {
    const { app } = await signIn('admin');
    const folder = path.join(app.config.dataDir, 'audit-checkpoints');
    const count = () => (existsSync(folder) ? readdirSync(folder).length : 0);
    const before = count();
    const visitor = await app.inject({ method: 'POST', url: URL });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toMatchObject({ code: 'auth.sign_in_required' });
    for (const role of ['employee', 'associate_director', 'director'] as const) {
      const res = await app.inject({
        method: 'POST',
        url: URL,
        headers: await authHeaders(app, await createUser(app, role)),
      });
      expect({ role, status: res.statusCode, code: res.json().code }).toEqual({
        role,
        status: 403,
        code: 'common.forbidden',
      });
    }
    expect(count()).toBe(before);
  });

  it('answers 503 audit.checkpoint_unavailable when a place cannot be written, and records the failure', async () => {
    const { app } = await trailApp();
    // DATA_DIR/audit-checkpoints is a file, not a folder: nothing can be written under it.
    writeFileSync(path.join(app.config.dataDir, 'audit-checkpoints'), 'not a folder');
    const admin = await createUser(app, 'admin');
    const res = await app.inject({ method: 'POST', url: URL, headers: await authHeaders(app, admin) });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      code: 'audit.checkpoint_unavailable',
      message: 'The audit checkpoint could not be written just now. Please try again in a few minutes.',
    });
    const event = await chainRow(app.db, await lastSeq(app.db));
    expect(event).toMatchObject({ action: 'audit_checkpoint', outcome: 'failure', actorId: admin.id });
    expect(JSON.parse(event.details!).error).toMatch(/was not written to DATA_DIR\/audit-checkpoints/);
  });
});

describe('checkpoints in the bucket (STORAGE=s3)', () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startTestS3('audit-checkpoints');
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('go to the folder and under audit-checkpoints/ in the bucket, where the storage sweep leaves them', async () => {
    const { app, store } = await trailApp(s3.env);
    await seedEvents(app.db, 2);
    const admin = await createUser(app, 'admin');
    const res = await app.inject({ method: 'POST', url: URL, headers: await authHeaders(app, admin) });
    expect(res.statusCode).toBe(201);
    const { name, places } = res.json();
    expect(places).toEqual(['DATA_DIR/audit-checkpoints', 's3://audit-checkpoints/audit-checkpoints/']);
    const copies = await store.list();
    expect(copies.map((c) => [c.name, c.place])).toEqual([
      [name, 'local'],
      [name, 's3'],
    ]);
    expect(copies[0]!.body.equals(copies[1]!.body)).toBe(true);
    // No files row names it: the sweep of unreferenced uploads must still leave it alone.
    await sweepStorage(app, { graceMs: 0 });
    expect((await store.list()).map((c) => c.place)).toEqual(['local', 's3']);
  });
});

describe('the nightly jobs', () => {
  it('are scheduled once a night across the nodes: the checkpoint, then the retention purge', () => {
    const queues = jobModules().flatMap((m) => m.queues);
    expect(queues.filter((q) => q.name.startsWith('audit-')).map((q) => [q.name, q.cron])).toEqual([
      [AUDIT_CHECKPOINT_QUEUE, '15 0 * * *'],
      [AUDIT_RETENTION_QUEUE, '45 0 * * *'],
      // Scheduled at start, from AUDIT_CHECKPOINT_MINUTES (audit-trail.jobs.test.ts).
      [AUDIT_SCHEDULED_CHECKPOINT_QUEUE, undefined],
    ]);
  });
});
