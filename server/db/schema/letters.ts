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
  },
  (t) => [
    uniqueIndex('letters_letter_id_idx').on(t.letterId),
    index('letters_upload_date_idx').on(t.letterUploadDate),
    index('letters_uploaded_by_idx').on(t.uploadedBy, t.letterUploadDate),
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

