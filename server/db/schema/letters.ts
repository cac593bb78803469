import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { createdAt, id, updatedAt } from './common.ts';
import { files } from './files.ts';
import { users } from './users.ts';

export const classificationEnum = pgEnum('letter_classification', ['Normal', 'Confidential', 'Secret']);

/** The dak register: one incoming or outgoing letter (spec §3 Letter). */
export const letters = pgTable(
  'letters',
  {
    id: id(),
    /** Readable, unique, in sequence per year: L-2026-000123. Never reused. */
    letterId: text().notNull(),
    letterSub: text().notNull(),
    letterNo: text().notNull(),
    letterDate: date().notNull(),
    docketNo: text().notNull(),
    docketDate: date().notNull(),
    category: text().notNull(),
    establishment: text().notNull(),
    letterLanguage: text().notNull(),
    letterCommunBy: text().notNull(),
    letterUploadDate: timestamp({ withTimezone: true }).notNull().defaultNow(),
    classification: classificationEnum().notNull().default('Normal'),
    fileId: uuid().references(() => files.id, { onDelete: 'set null' }),
    uploadedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    /** Set when the letter is in the recycle bin. */
    deletedAt: timestamp({ withTimezone: true }),
    deletedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    updatedAt: updatedAt(),
    /**
     * What the search box matches: letter ID, subject, docket no, letter no, category, establishment, language,
     * communicated by and the uploader's name, lower-cased. Kept by the database triggers of migration
     * 0001_letters_search (also on a change of the uploader's name); the application never writes it.
     */
    searchText: text().notNull().default(''),
  },
  (t) => [
    uniqueIndex('letters_letter_id_idx').on(t.letterId),
    // Newest upload first, with the id as tie-breaker for keyset paging.
    index('letters_upload_order_idx').on(t.letterUploadDate, t.id),
    index('letters_uploaded_by_idx').on(t.uploadedBy, t.letterUploadDate, t.id),
    index('letters_file_idx').on(t.fileId),
    index('letters_recycle_bin_idx')
      .on(t.deletedAt)
      .where(sql`${t.deletedAt} is not null`),
    // Substring search (LIKE '%…%') in the database: pg_trgm, created by migration 0001_letters_search.
    // fastupdate off: no pending list to scan on every search (PGlite has no autovacuum to flush one).
    index('letters_search_idx').using('gin', t.searchText.op('gin_trgm_ops')).with({ fastupdate: false }),
  ],
);

/** Last letter number handed out per year, so Letter IDs are never reused even after a purge. */
export const letterCounters = pgTable('letter_counters', {
  year: integer().primaryKey(),
  last: integer().notNull(),
});

/** Who changed what on a letter, and when. */
export const letterHistory = pgTable(
  'letter_history',
  {
    id: id(),
    letterId: uuid()
      .notNull()
      .references(() => letters.id, { onDelete: 'cascade' }),
    actorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    action: text().notNull(),
    changes: jsonb().$type<Record<string, { from: unknown; to: unknown }>>(),
    at: createdAt(),
  },
  (t) => [index('letter_history_letter_idx').on(t.letterId, t.at)],
);

export type LetterRow = typeof letters.$inferSelect;
export type LetterHistoryRow = typeof letterHistory.$inferSelect;

export const dakPriorityEnum = pgEnum('dak_priority', ['Normal', 'Urgent', 'Most Immediate']);
/**
 * Where a movement stands, as the inbox files it (GET /api/dac/inbox?status=): marked and not yet received, received
 * and held, or closed (the holder closed it with a disposal, marked it onward, or sent it back — see `outcome`).
 */
export const dakBoxEnum = pgEnum('dak_box', ['pending', 'received', 'closed']);
export const dakOutcomeEnum = pgEnum('dak_outcome', ['closed', 'forwarded', 'returned', 'pulled_back']);

/**
 * One marking of a letter to one officer (decision 020, eOffice's "movement"): from whom, to whom, when, with what
 * remarks, due date and priority; then when it was read, received, and how it ended. A letter marked to three
 * officers has three movements. The officer holds the letter while the movement's box is pending or received.
 */
export const letterMovements = pgTable(
  'letter_movements',
  {
    id: id(),
    letterId: uuid()
      .notNull()
      .references(() => letters.id, { onDelete: 'cascade' }),
    fromUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    toUserId: uuid()
      .notNull()
      .references(() => users.id),
    remarks: text().notNull().default(''),
    dueDate: date(),
    priority: dakPriorityEnum().notNull().default('Normal'),
    /**
     * A copy of "the letter is Confidential or Secret", kept in step by the service (marking, and an admin's change
     * of classification), so pendency can leave such letters out for an uncleared associate director without a join.
     */
    classified: boolean().notNull().default(false),
    /**
     * A copy of the letter's search_text, kept by the database (migration 0016: set on insert, and again whenever
     * the letter's changes), never by the application: the inbox search reads it from the inbox index alone.
     */
    searchText: text().notNull().default(''),
    markedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    readAt: timestamp({ withTimezone: true }),
    receivedAt: timestamp({ withTimezone: true }),
    box: dakBoxEnum().notNull().default('pending'),
    /** When the officer stopped holding it (closed, marked onward or sent back), and how. */
    endedAt: timestamp({ withTimezone: true }),
    outcome: dakOutcomeEnum(),
    disposal: text(),
    fileNo: text(),
    replyRef: text(),
    /**
     * A copy "for information" (decision 079): the officer sees the letter and may mark it seen, but does not
     * hold it: it is filed closed from the start (no outcome), so it never counts in pendency.
     */
    forInformation: boolean().notNull().default(false),
    /**
     * Who acted for the officer under a delegation (decision 078): a delegate who marked (or sent back) on
     * behalf of `fromUserId`, received on behalf of `toUserId`, or ended the holding (closed, forwarded, returned) on
     * behalf of `toUserId`. Null when the officer acted themselves.
     */
    markedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    receivedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    endedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    // The inbox, letter_movements_inbox_idx: my letters in one box, newest marking first (keyset on marked_at, id),
    // carrying letter_id, classified and search_text, so a search of a box reads that index alone (an INCLUDE index,
    // which drizzle cannot declare: it is made in migration 0016).
    index('letter_movements_letter_idx').on(t.letterId, t.markedAt),
    index('letter_movements_from_idx').on(t.fromUserId, t.markedAt),
    // Pendency: what each officer holds now (a small part of all movements), with due dates for "overdue".
    index('letter_movements_open_idx')
      .on(t.toUserId, t.dueDate, t.classified, t.markedAt)
      .where(sql`${t.box} <> 'closed'`),
    // Pendency, oldest pending first; it also carries the columns of the per-officer counts, which PostgreSQL then
    // reads from this index alone (index-only scan of what is held now).
    index('letter_movements_open_age_idx')
      .on(t.markedAt, t.id, t.toUserId, t.dueDate, t.classified)
      .where(sql`${t.box} <> 'closed'`),
    // Pendency: closed in a period, per officer.
    index('letter_movements_closed_idx')
      .on(t.endedAt, t.toUserId, t.classified)
      .where(sql`${t.outcome} = 'closed'`),
    // "A letter you marked is overdue": open movements I marked that have a due date.
    index('letter_movements_marked_due_idx')
      .on(t.fromUserId, t.dueDate)
      .where(sql`${t.box} <> 'closed' and ${t.dueDate} is not null`),
  ],
);

export type LetterMovementRow = typeof letterMovements.$inferSelect;

/**
 * A delegation of an officer's dak (decision 078): from `fromDate` to `toDate` (India dates, both included)
 * the officer's inbox is also the delegate's. It runs while today is within the dates and it has not been ended early
 * (`endedAt`); it needs no job to end.
 */
export const dakDelegations = pgTable(
  'dak_delegations',
  {
    id: id(),
    officerId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    delegateId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fromDate: date().notNull(),
    toDate: date().notNull(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    endedAt: timestamp({ withTimezone: true }),
    endedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('dak_delegations_delegate_idx')
      .on(t.delegateId, t.toDate)
      .where(sql`${t.endedAt} is null`),
    index('dak_delegations_officer_idx').on(t.officerId, t.toDate),
    check('dak_delegations_dates', sql`${t.fromDate} <= ${t.toDate}`),
    check('dak_delegations_not_self', sql`${t.officerId} <> ${t.delegateId}`),
  ],
);

export type DakDelegationRow = typeof dakDelegations.$inferSelect;
