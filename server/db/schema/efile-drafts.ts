import { integer, jsonb, pgEnum, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

import type { NoteBody } from '#shared/schemas/efile-note.ts';

import { createdAt, id, updatedAt } from './common.ts';
import { efileItems, efiles } from './efiles.ts';
import { files } from './files.ts';
import { users } from './users.ts';

/**
 * Drafts for approval on e-files (decision 122, migration 0046), owned by server/modules/efiles: a draft D/n of a file,
 * its versions v1, v2, … (each kept as written, by a trigger), and once approved the item C/n holding its signed PDF.
 */
export const efileDraftStateEnum = pgEnum('efile_draft_state', ['draft', 'put_up', 'changes_asked', 'approved']);
export const efileDraftKindEnum = pgEnum('efile_draft_kind', ['text', 'docx', 'pdf']);

export const efileDrafts = pgTable(
  'efile_drafts',
  {
    id: id(),
    efileId: uuid()
      .notNull()
      .references(() => efiles.id, { onDelete: 'cascade' }),
    seq: integer().notNull(),
    title: text().notNull(),
    state: efileDraftStateEnum().notNull().default('draft'),
    authorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    authorName: text().notNull(),
    /** The officer it was last put up to. */
    approverId: uuid().references(() => users.id, { onDelete: 'set null' }),
    /** What the approver last asked to change. */
    changesNote: text().notNull().default(''),
    approvedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    approvedAt: timestamp({ withTimezone: true }),
    /** The correspondence item C/n holding the approved, signed PDF (set exactly when approved). */
    itemId: uuid().references(() => efileItems.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [unique('efile_drafts_seq').on(t.efileId, t.seq)],
);
export type EfileDraftRow = typeof efileDrafts.$inferSelect;

export const efileDraftVersions = pgTable(
  'efile_draft_versions',
  {
    id: id(),
    draftId: uuid()
      .notNull()
      .references(() => efileDrafts.id, { onDelete: 'cascade' }),
    version: integer().notNull(),
    kind: efileDraftKindEnum().notNull(),
    /** A rich-text version's structure (the notes' one, decision 107); null for an uploaded .docx or PDF. */
    body: jsonb().$type<NoteBody>(),
    /** Its words as plain text (the diff and the search). */
    text: text().notNull().default(''),
    /** An uploaded version's file (area `efiles`). */
    fileId: uuid().references(() => files.id, { onDelete: 'restrict' }),
    authorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    authorName: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('efile_draft_versions_version').on(t.draftId, t.version),
    unique('efile_draft_versions_file_once').on(t.fileId),
  ],
);
export type EfileDraftVersionRow = typeof efileDraftVersions.$inferSelect;
