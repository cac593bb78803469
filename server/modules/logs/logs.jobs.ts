import { asc, eq, inArray } from 'drizzle-orm';

import type { SyslogConfig } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { type AuditEventRow, syslogCursor, syslogOutbox } from '#server/db/schema/index.ts';
import type { JobModule } from '#server/jobs/job-queue.ts';
import { holdWarnings, putBackWarnings, stopHoldingWarnings, takeWarnings } from '#server/lib/log-warnings.ts';
import { auditEventsAfter } from '#server/modules/audit-trail/audit-trail.ts';

import { FACILITY_AUDIT, FACILITY_LOG, formatSyslog, frame, sendFrames, type SyslogMessage } from './syslog.ts';

/** At most this many of each (log lines, audit events) in one connection. */
const BATCH = 500;
/** How often the outbox and the audit trail are looked at. */
export const SHIP_EVERY_MS = 2000;

type OutboxRow = typeof syslogOutbox.$inferSelect;

/** RFC 5424 severity of an audit event: notice, a refusal a warning, a failure an error. */
const auditSeverity = (outcome: string) => (outcome === 'success' ? 5 : outcome === 'refused' ? 4 : 3);

export function auditMessage(e: AuditEventRow): SyslogMessage {
  return {
    facility: FACILITY_AUDIT,
    severity: auditSeverity(e.outcome),
    at: e.occurredAt,
    msgId: e.action,
    sdId: 'audit',
    params: {
      seq: e.seq,
      id: e.id,
      outcome: e.outcome,
      actorId: e.actorId,
      actor: e.actorName,
      role: e.actorRole,
      address: e.clientAddress,
      objectType: e.objectType,
      objectId: e.objectId,
      classification: e.classification,
      hash: e.hash,
    },
    text: JSON.stringify({ ...e, details: e.details ? (JSON.parse(e.details) as unknown) : null }),
  };
}

export function logMessage(r: OutboxRow): SyslogMessage {
  const extra = Object.keys(r.data).length ? ` ${JSON.stringify(r.data)}` : '';
  return {
    facility: FACILITY_LOG,
    severity: r.severity,
    at: r.loggedAt,
    msgId: 'log',
    sdId: 'log',
    params: { id: r.id },
    text: `${r.message}${extra}`,
  };
}

/** Moves the warnings held in the process into the outbox, where a restart does not lose them. */
export async function keepWarnings(db: Db): Promise<void> {
  const { warnings, dropped } = takeWarnings();
  const rows = [...warnings];
  if (dropped) {
    rows.push({
      loggedAt: new Date(),
      severity: 4,
      message: `${dropped} warnings were not kept for the log collector: the database could not take them`,
      data: {},
    });
  }
  if (!rows.length) return;
  try {
    await db.insert(syslogOutbox).values(rows);
  } catch (err) {
    putBackWarnings(warnings);
    throw err;
  }
}

/**
 * Sends the collector what it has not read (decision 125): the outbox's log lines and the audit events after the
 * cursor, in batches, each batch in a transaction that holds the cursor's row (one node at a time) and removes the
 * lines and moves the cursor only once the collector has read the batch. Answers how many messages were sent.
 */
export async function shipToSyslog(db: Db, config: SyslogConfig): Promise<number> {
  await keepWarnings(db);
  let sent = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      await tx.insert(syslogCursor).values({ one: 1 }).onConflictDoNothing();
      const [cursor] = await tx.select().from(syslogCursor).where(eq(syslogCursor.one, 1)).for('update');
      const lines = await tx.select().from(syslogOutbox).orderBy(asc(syslogOutbox.id)).limit(BATCH);
      const events = await auditEventsAfter(tx, cursor!.auditSeq, BATCH);
      if (!lines.length && !events.length) return 0;
      const messages = [...lines.map(logMessage), ...events.map(auditMessage)];
      await sendFrames(
        config,
        messages.map((m) => frame(formatSyslog(m))),
      );
      if (lines.length)
        await tx.delete(syslogOutbox).where(
          inArray(
            syslogOutbox.id,
            lines.map((l) => l.id),
          ),
        );
      if (events.length) {
        await tx
          .update(syslogCursor)
          .set({ auditSeq: events.at(-1)!.seq, updatedAt: new Date() })
          .where(eq(syslogCursor.one, 1));
      }
      return messages.length;
    });
    sent += count;
    if (count === 0) return sent;
  }
}

/**
 * With SYSLOG_URL set: warnings are held from the start, and every SHIP_EVERY_MS a round sends what is new. The
 * collector's outage is logged once when it begins (an error, itself sent once it is back) and once when it ends.
 */
export const logsJobs = (): JobModule => ({
  queues: [],
  start: async ({ database, config, log }) => {
    const syslog = config.syslog;
    if (!syslog) return;
    holdWarnings();
    let down = false;
    let running: Promise<void> | null = null;
    const round = async () => {
      try {
        await shipToSyslog(database.db, syslog);
        if (down) log.info({}, `the log collector at ${syslog.url} takes the logs again`);
        down = false;
      } catch (err) {
        if (!down) log.error({ err }, `the log collector at ${syslog.url} cannot be reached; the logs wait to be sent`);
        down = true;
      }
    };
    const timer = setInterval(() => void (running ??= round().finally(() => (running = null))), SHIP_EVERY_MS);
    return {
      stopping: () => clearInterval(timer),
      stop: async () => {
        await running;
        await keepWarnings(database.db).catch(() => {});
        stopHoldingWarnings();
      },
    };
  },
});
