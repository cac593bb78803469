import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

import { createdAt } from './common.ts';

/**
 * Warnings and worse of the server's log, waiting to be sent to the lab's collector (SYSLOG_URL; decision 125). A row
 * goes once the collector has read it; the audit trail's events are sent from the trail itself (syslog_cursor).
 */
export const syslogOutbox = pgTable('syslog_outbox', {
  id: bigserial({ mode: 'number' }).primaryKey(),
  /** When it was logged. */
  loggedAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
  /** RFC 5424 severity: 2 critical, 3 error, 4 warning. */
  severity: integer().notNull(),
  message: text().notNull(),
  /** The log line's other fields (an error's type and message, the request's id). */
  data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
  createdAt: createdAt(),
});

/** How far the audit trail has been sent to the collector: the last `seq` it read (one row). */
export const syslogCursor = pgTable(
  'syslog_cursor',
  {
    one: integer().primaryKey().default(1),
    auditSeq: bigint({ mode: 'number' }).notNull().default(0),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('syslog_cursor_one', sql`${t.one} = 1`)],
);
