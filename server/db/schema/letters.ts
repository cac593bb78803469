import { sql } from 'drizzle-orm';
import { date, index, integer, jsonb, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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
