import { sql } from 'drizzle-orm';
import { check, index, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

import { createdAt, id } from './common.ts';
import { users } from './users.ts';

/**
 * What a notification says (decision 020): a letter was marked (or sent back) to you; one you marked is overdue.
 * Decision 074: a notice or circular you must acknowledge is due soon, or overdue (one each per person and row).
 */
export const notificationKindEnum = pgEnum('notification_kind', [
  'letter_marked',
  'letter_returned',
  'letter_overdue',
  'acknowledgement_due',
  'acknowledgement_overdue',
  // Decision 081: the morning's dak notices, a circular to acknowledge, a close group ending,
  // a registration for the admins.
  'letter_due_tomorrow',
  'letter_overdue_held',
  'letter_escalated',
  'acknowledgement_requested',
  'close_group_ending',
  'registration_received',
  // Decision 090: a first single sign-on waits for an administrator to link it to an account (the bell alone).
  'sso_link_requested',
  // Decision 094: a directory entry whose mail is another directory account's was refused (admins; the bell alone).
  'directory_mail_collision',
  // Decision 107: an e-file was sent (or returned) to you, or copied to you for information.
  'efile_sent',
  // Decision 111: an e-file you hold is overdue; one held in your group (as the owner group's head) is long overdue.
  'efile_overdue_held',
  'efile_escalated',
  // Decision 115: an upload was refused as malware (admins; the bell alone).
  'malware_detected',
]);

/**
 * In-app notifications shown under the bell in the header (no email server is assumed). The subject (a letter, by
 * `subjectType` and `subjectId`) is read fresh when shown, and only if the person may still see it.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: notificationKindEnum().notNull(),
    subjectType: text().notNull(),
    subjectId: uuid().notNull(),
    /** What caused it (a movement), so an "overdue" notice is made once per movement. */
    sourceId: uuid().notNull(),
    actorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    readAt: timestamp({ withTimezone: true }),
    /**
     * The notice's mail (decision 081): `now` to be mailed at once (the mail jobs turn it into an outbox row), `digest`
     * waiting for the person's morning digest, `done` mailed; null when it is not mailed (the person chose "off", the
     * kind is mailed by its own service, or it is a bell-only kind).
     */
    mail: text().$type<'now' | 'digest' | 'done'>(),
    mailedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('notifications_source_idx').on(t.sourceId, t.kind, t.userId),
    index('notifications_mail_idx')
      .on(t.mail, t.userId, t.createdAt)
      .where(sql`${t.mail} in ('now', 'digest')`),
    check('notifications_mail_check', sql`${t.mail} in ('now', 'digest', 'done')`),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;
