import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

import { createdAt, id } from './common.ts';
import { users } from './users.ts';

/** Where a mail is: written, handed to the job queue, sent, not sent (nothing left to say), or given up. */
export type MailStatus = 'pending' | 'queued' | 'sent' | 'dropped' | 'failed';

/**
 * The mail outbox (decision 076): a mail is written here in the transaction of the event it tells of, so the
 * two are kept together or not at all. A trigger notifies `mail_pending` at commit; the mail jobs
 * (server/modules/mail/mail.jobs.ts) move pending rows into the job queue (pg-boss, one job per row with the row's id,
 * in one transaction) and the queue's worker renders and sends each once, retrying while the relay is down. The row
 * keeps what the mail needs (`params`), never a secret: a reset link's token is made again when the mail is written.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    /** Who it is for; kept (null) when their account goes, so the outbox still says what was sent. */
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    toAddress: text().notNull(),
    language: text().$type<'en' | 'hi'>().notNull(),
    /** What it tells (a MAIL_KINDS code of server/modules/mail/mail.kinds.ts) and with which values. */
    kind: text().notNull(),
    params: jsonb().$type<Record<string, string | null>>().notNull(),
    status: text().$type<MailStatus>().notNull().default('pending'),
    /** Attempts made to hand it to the relay, and why the last one failed. */
    attempts: integer().notNull().default(0),
    lastError: text(),
    createdAt: createdAt(),
    queuedAt: timestamp({ withTimezone: true }),
    doneAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('mail_outbox_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    index('mail_outbox_done_idx')
      .on(t.doneAt)
      .where(sql`${t.doneAt} is not null`),
    check('mail_outbox_status_check', sql`${t.status} in ('pending', 'queued', 'sent', 'dropped', 'failed')`),
  ],
);
export type MailOutboxRow = typeof mailOutbox.$inferSelect;
