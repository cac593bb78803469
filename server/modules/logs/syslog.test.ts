import { Writable } from 'node:stream';

import { asc, gt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { auditEvents, syslogCursor } from '#server/db/schema/index.ts';
import { holdWarnings, logHooks, stopHoldingWarnings } from '#server/lib/log-warnings.ts';
import { buildTestApp } from '#server/test/app.ts';
import { type Rsyslog, startRsyslog } from '#server/test/rsyslog.ts';

import { shipToSyslog } from './logs.jobs.ts';

// Decision 125: the audit trail's events and the log's warnings reach a real rsyslog (server/test/rsyslog.ts) as RFC
// 5424 over TCP, every one, across the collector's outage and the portal's restart.

let rsyslog: Rsyslog;
let app: FastifyInstance;

beforeAll(async () => {
  rsyslog = await startRsyslog();
  app = await buildTestApp({ SYSLOG_URL: rsyslog.url });
}, 120_000);
afterAll(async () => {
  stopHoldingWarnings();
  await rsyslog?.close();
});

const ship = () => shipToSyslog(app.db, app.config.syslog!);
const failSignIn = (email: string) =>
  app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'wrong-password' } });
const lastSeq = async () =>
  (await app.db.select({ seq: auditEvents.seq }).from(auditEvents).orderBy(asc(auditEvents.seq))).at(-1)?.seq ?? 0;
const eventsAfter = (seq: number) =>
  app.db.select().from(auditEvents).where(gt(auditEvents.seq, seq)).orderBy(asc(auditEvents.seq));
/** The audit trail's seq of each message rsyslog received, in order. */
const seqsReceived = (lines: string[]) =>
  lines.flatMap((l) => /\[audit@32473 seq="(\d+)"/.exec(l)?.[1] ?? []).map(Number);

/** A pino logger with the server's hooks, writing nowhere. */
const logger = () =>
  pino(
    { hooks: logHooks },
    new Writable({
      write: (_chunk, _enc, done) => done(),
    }),
  );

describe('the audit trail to the collector', () => {
  it('every event arrives once, in order, as RFC 5424 with its action, seq and hash', async () => {
    await ship(); // whatever the set-up wrote
    const from = await lastSeq();
    const already = rsyslog.received().length;
    for (let i = 0; i < 5; i++) expect((await failSignIn(`nobody-${i}@lab.test`)).statusCode).toBe(401);
    const events = await eventsAfter(from);
    expect(events.length).toBeGreaterThanOrEqual(5);
    expect(await ship()).toBe(events.length);
    const lines = (await rsyslog.waitFor(already + events.length)).slice(already);
    expect(seqsReceived(lines)).toEqual(events.map((e) => e.seq));
    for (const [i, line] of lines.entries()) {
      const e = events[i]!;
      // <PRI>1 TIMESTAMP HOST APP PROCID MSGID [SD] BOM MSG; facility 13 (log audit).
      expect(line).toMatch(
        new RegExp(
          `^<10[4-7]>1 ${e.occurredAt.toISOString().replace(/\./g, '\\.')} \\S+ lab-portal \\d+ ${e.action} \\[audit@32473 `,
        ),
      );
      expect(line).toContain(`hash="${e.hash}"`);
      expect(line).toContain(`outcome="${e.outcome}"`);
    }
    expect(await ship()).toBe(0);
  });

  it('across an outage of the collector: refused while it is down, then every event, none twice', async () => {
    await ship();
    const from = await lastSeq();
    const already = rsyslog.received().length;
    await rsyslog.stop();
    try {
      for (let i = 0; i < 3; i++) await failSignIn(`outage-${i}@lab.test`);
      await expect(ship()).rejects.toThrow();
      await expect(ship()).rejects.toThrow();
    } finally {
      await rsyslog.start();
    }
    const events = await eventsAfter(from);
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(await ship()).toBe(events.length);
    const lines = (await rsyslog.waitFor(already + events.length)).slice(already);
    expect(seqsReceived(lines)).toEqual(events.map((e) => e.seq));
  });

  it('across a restart of the portal: what the collector read is kept in the database, and only the rest goes', async () => {
    await ship();
    const [cursor] = await app.db.select().from(syslogCursor);
    expect(cursor!.auditSeq).toBe(await lastSeq());
    const already = rsyslog.received().length;
    await failSignIn('after-restart@lab.test');
    const events = await eventsAfter(cursor!.auditSeq);
    expect(await ship()).toBe(events.length);
    const lines = (await rsyslog.waitFor(already + events.length)).slice(already);
    expect(seqsReceived(lines)).toEqual(events.map((e) => e.seq));
  });
});

describe('warnings and worse of the log to the collector', () => {
  it('a warning, an error and a fatal go (facility local0, severities 4, 3, 2); info and debug do not', async () => {
    await ship();
    const already = rsyslog.received().length;
    holdWarnings();
    const log = logger();
    log.info('an ordinary request');
    log.warn({ reqId: 'req-7' }, 'the disk is nearly full');
    log.error({ err: Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED' }) }, 'mail relay down');
    log.fatal('cannot go on');
    expect(await ship()).toBe(3);
    const lines = (await rsyslog.waitFor(already + 3)).slice(already);
    expect(lines[0]).toMatch(
      /^<132>1 .* lab-portal \d+ log \[log@32473 id="\d+"\] \uFEFFthe disk is nearly full \{"reqId":"req-7"\}$/,
    );
    // The fields come back from jsonb, whose key order is its own.
    expect(lines[1]).toMatch(/^<131>1 .* \uFEFFmail relay down \{/);
    expect(lines[1]).toContain('"message":"connection refused"');
    expect(lines[1]).toContain('"code":"ECONNREFUSED"');
    expect(lines[2]).toMatch(/^<130>1 .* \uFEFFcannot go on$/);
    expect(lines.join('\n')).not.toContain('an ordinary request');
  });

  it('held warnings are kept in the outbox while the collector is down, and sent when it is back', async () => {
    await ship();
    const already = rsyslog.received().length;
    holdWarnings();
    await rsyslog.stop();
    try {
      logger().warn('written during the outage');
      await expect(ship()).rejects.toThrow();
    } finally {
      await rsyslog.start();
    }
    expect(await ship()).toBe(1);
    const lines = (await rsyslog.waitFor(already + 1)).slice(already);
    expect(lines[0]).toContain('written during the outage');
  });
});
