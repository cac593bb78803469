import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';

import type { NoteBody } from '#shared/schemas/efile-note.ts';

import { documentClassificationEnum } from './close-groups.ts';
import { createdAt, id, updatedAt } from './common.ts';
import { files } from './files.ts';
import { groups } from './labs.ts';
import { dakPriorityEnum, letters } from './letters.ts';
import { users } from './users.ts';

/**
 * e-Files (decision 107, migration 0042): the lab's decision files. Named `efiles` so that nobody takes them for the
 * uploads (`files`, server/modules/files). Owned by server/modules/efiles; other modules use its exported functions.
 */
export const efileStateEnum = pgEnum('efile_state', ['open', 'parked', 'closed']);
export const efileMovementKindEnum = pgEnum('efile_movement_kind', [
  'created',
  'sent',
  'returned',
  'pulled_back',
  'parked',
  'resumed',
  'closed',
  'reopened',
]);

/** The one row of the admin's numbering scheme: `{lab}/{group}/{head}/{year}/{serial}` and the lab's code. */
export const efileSettings = pgTable('efile_settings', {
  id: boolean().primaryKey().default(true),
  numberScheme: text().notNull().default('{lab}/{group}/{head}/{year}/{serial}'),
  labCode: text().notNull().default('LAB'),
  updatedAt: updatedAt(),
});

/** The short list of heads (subjects of filing) the admin keeps. */
export const efileHeads = pgTable('efile_heads', {
  id: id(),
  code: text().notNull().unique('efile_heads_code_unique'),
  name: text().notNull(),
  active: boolean().notNull().default(true),
  createdAt: createdAt(),
});

/**
 * The last serial handed out per series — lab code, group code and year, `LAB/FSG/2026` — so the serial counts per
 * group and year and numbers are never reused, even for two groups of the same initials (they share a series).
 */
export const efileCounters = pgTable('efile_counters', {
  series: text().primaryKey(),
  last: integer().notNull(),
});

export const efiles = pgTable(
  'efiles',
  {
    id: id(),
    number: text().notNull().unique('efiles_number_unique'),
    subject: text().notNull(),
    headId: uuid()
      .notNull()
      .references(() => efileHeads.id),
    classification: documentClassificationEnum().notNull().default('Unclassified'),
    ownerGroupId: uuid()
      .notNull()
      .references(() => groups.id),
    createdBy: uuid()
      .notNull()
      .references(() => users.id),
    /** The one officer the file is with: the recipient as soon as it is sent (until they receive it, it is in transit). */
    holderId: uuid()
      .notNull()
      .references(() => users.id),
    state: efileStateEnum().notNull().default('open'),
    /** The intended route: the officers it is still to go to, in order; anyone it passes may change it. */
    route: uuid()
      .array()
      .notNull()
      .default(sql`'{}'`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** When it last moved (sent, returned, parked, closed…): the lists' order. */
    movedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** lower(number || ' ' || subject), kept by a trigger (migration 0042), never by the application. */
    searchText: text().notNull().default(''),
  },
  (t) => [
    // My files' keyset order, newest first (migration 0048, decision 121).
    index('efiles_holder_idx').on(t.holderId, t.state, t.movedAt.desc(), t.id.desc()),
    index('efiles_creator_idx').on(t.createdBy, t.movedAt.desc(), t.id.desc()),
    index('efiles_closed_idx')
      .on(t.movedAt.desc(), t.id.desc())
      .where(sql`${t.state} = 'closed'`),
    index('efiles_owner_group_idx').on(t.ownerGroupId, t.movedAt),
  ],
);
export type EfileRow = typeof efiles.$inferSelect;

/** Everyone a file passed through: its creator, and each sender and recipient. */
export const efileParticipants = pgTable(
  'efile_participants',
  {
    efileId: uuid()
      .notNull()
      .references(() => efiles.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.efileId, t.userId] }), index('efile_participants_user_idx').on(t.userId, t.efileId)],
);

/** Copies for information: read-only. */
export const efileCopies = pgTable(
  'efile_copies',
  {
    id: id(),
    efileId: uuid()
      .notNull()
      .references(() => efiles.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sentBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    sentAt: createdAt(),
    seenAt: timestamp({ withTimezone: true }),
  },
  (t) => [unique('efile_copies_once').on(t.efileId, t.userId), index('efile_copies_user_idx').on(t.userId, t.efileId)],
);

/** A note N/seq. Once `permanent`, a trigger (migration 0042) refuses every UPDATE and DELETE of it. */
export const efileNotes = pgTable('efile_notes', {
  id: id(),
  efileId: uuid()
    .notNull()
    .references(() => efiles.id, { onDelete: 'cascade' }),
  seq: integer().notNull(),
  body: jsonb().$type<NoteBody>().notNull(),
  /** The note's words as plain text, for the search and the export's fallbacks. */
  text: text().notNull().default(''),
  authorId: uuid().references(() => users.id, { onDelete: 'set null' }),
  authorName: text().notNull(),
  authorDesignation: text().notNull().default(''),
  permanent: boolean().notNull().default(false),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  permanentAt: timestamp({ withTimezone: true }),
});
export type EfileNoteRow = typeof efileNotes.$inferSelect;

/** What a draft note said before each edit, and who edited it. */
export const efileNoteVersions = pgTable(
  'efile_note_versions',
  {
    id: id(),
    noteId: uuid()
      .notNull()
      .references(() => efileNotes.id, { onDelete: 'cascade' }),
    editorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    editorName: text().notNull(),
    body: jsonb().$type<NoteBody>().notNull(),
    at: createdAt(),
  },
  (t) => [index('efile_note_versions_note_idx').on(t.noteId, t.at)],
);

/** A correspondence item C/seq: a letter put in the file, or a document uploaded into it. */
export const efileItems = pgTable('efile_items', {
  id: id(),
  efileId: uuid()
    .notNull()
    .references(() => efiles.id, { onDelete: 'cascade' }),
  seq: integer().notNull(),
  title: text().notNull(),
  letterId: uuid().references(() => letters.id, { onDelete: 'restrict' }),
  fileId: uuid().references(() => files.id, { onDelete: 'restrict' }),
  text: text().notNull().default(''),
  addedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
  addedAt: createdAt(),
});
export type EfileItemRow = typeof efileItems.$inferSelect;

/** What happened to a file: created, sent, returned, pulled back, parked, resumed, closed, reopened. */
export const efileMovements = pgTable(
  'efile_movements',
  {
    id: id(),
    efileId: uuid()
      .notNull()
      .references(() => efiles.id, { onDelete: 'cascade' }),
    kind: efileMovementKindEnum().notNull(),
    fromUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    toUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    /** A delegate who acted for `fromUserId` (decision 078), else null. */
    actedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    remarks: text().notNull().default(''),
    dueDate: date(),
    priority: dakPriorityEnum().notNull().default('Normal'),
    at: createdAt(),
    openedAt: timestamp({ withTimezone: true }),
    receivedAt: timestamp({ withTimezone: true }),
    pulledBackAt: timestamp({ withTimezone: true }),
  },
  (t) => [index('efile_movements_file_idx').on(t.efileId, t.at)],
);
export type EfileMovementRow = typeof efileMovements.$inferSelect;
