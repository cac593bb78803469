import { randomUUID } from 'node:crypto';
import dgram from 'node:dgram';

import { desc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { auditEvents } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { type NtpResponder, startNtpResponder } from '#server/test/ntp.ts';

import { checkClock, type ClockState, querySntp } from './clock.ts';

// Decision 126: the clock's offset from NTP_SERVER, asked of a real UDP NTP responder (server/test/ntp.ts), shown by
// the health check, over a second a warning, and recorded in every audit event.

let ntp: NtpResponder;
let app: FastifyInstance;
const warnings: ClockState[] = [];
const check = () => checkClock(app.config.ntpServer!, (s) => warnings.push(s));

beforeAll(async () => {
  ntp = await startNtpResponder(2500);
  app = await buildTestApp({ NTP_SERVER: ntp.server });
}, 120_000);
afterAll(async () => {
  await ntp?.close();
});

const health = async () => (await app.inject({ method: 'GET', url: '/api/health' })).json();
const lastAuditDetails = async () => {
  await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: `${randomUUID()}@lab.test`, password: 'wrong-pass' },
  });
  const [event] = await app.db.select().from(auditEvents).orderBy(desc(auditEvents.seq)).limit(1);
  return JSON.parse(event!.details ?? '{}') as Record<string, unknown>;
};

describe('SNTP', () => {
  it('measures the offset of a clock 2.5 s ahead to within 100 ms', async () => {
    const answer = await querySntp(ntp.server);
    expect(Math.abs(answer.offsetMs - 2500)).toBeLessThan(100);
    expect(answer.stratum).toBe(2);
  });

  it('a server that does not answer: refused after the time limit', async () => {
    const silent = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
    try {
      await expect(querySntp(`127.0.0.1:${silent.address().port}`, 300)).rejects.toThrow(/no answer/);
    } finally {
      silent.close();
    }
  });
});

describe('the clock in the health check and the audit trail', () => {
  it('over a second off: the health check warns, a warning is logged, each audit event records the offset', async () => {
    await check();
    const { clock } = await health();
    expect(clock).toMatchObject({ server: ntp.server, warning: true, error: null });
    expect(Math.abs(clock.offsetMs - 2500)).toBeLessThan(100);
    expect(warnings.at(-1)?.offsetMs).toBe(clock.offsetMs);
    expect(await lastAuditDetails()).toMatchObject({ clockOffsetMs: clock.offsetMs });
  });

  it('within a second: no warning', async () => {
    ntp.setSkew(0);
    const logged = warnings.length;
    await check();
    const { clock } = await health();
    expect(clock.warning).toBe(false);
    expect(Math.abs(clock.offsetMs)).toBeLessThan(100);
    expect(warnings).toHaveLength(logged);
    expect(Math.abs((await lastAuditDetails()).clockOffsetMs as number)).toBeLessThan(100);
  });

  it('NTP_SERVER silent: the offset is unknown, a warning, and audit events say so (null)', async () => {
    await ntp.close();
    await check();
    const { clock } = await health();
    expect(clock).toMatchObject({
      offsetMs: null,
      warning: true,
      error: expect.stringMatching(/no answer|ECONNREFUSED/),
    });
    expect(await lastAuditDetails()).toMatchObject({ clockOffsetMs: null });
    ntp = await startNtpResponder(0);
  });

  it('without NTP_SERVER the health check says nothing of the clock', async () => {
    const plain = await buildTestApp();
    expect((await plain.inject({ method: 'GET', url: '/api/health' })).json()).not.toHaveProperty('clock');
  });
});
