import {
  type AnyPgColumn,
  bigint,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { OCR_FAILURES } from '#shared/constants.ts';

import { createdAt, id } from './common.ts';

/**
 * One stored upload. The bytes live at DATA_DIR/uploads/<area>/<storedName>; the name the user gave the file is kept
 * here only. Rows that own a file point at it with a `*_file_id` column.
 */
export const files = pgTable(
  'files',
  {
    id: id(),
    area: text().notNull(),
    storedName: text().notNull(),
    originalName: text().notNull(),
    mimeType: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    uploadedBy: uuid(),
    /**
     * A copy the portal made of another file (decision 084): its thumbnail, the PDF an Office file was
     * converted to, or a PDF's viewer update (decision 088). It goes with that file (transactionDroppingFiles) and is
     * never offered as an upload of its own.
     */
    derivedFrom: uuid().references((): AnyPgColumn => files.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('files_area_stored_name_idx').on(t.area, t.storedName),
    index('files_uploaded_by_idx').on(t.uploadedBy),
    index('files_derived_from_idx').on(t.derivedFrom),
  ],
);

export type FileRow = typeof files.$inferSelect;

/**
 * The preview of a stored file (decision 084): a PDF, an image or an Office file waits here as `pending`
 * from its upload (a trigger on `files`) until the job queue has made its thumbnail and, for an Office file, the PDF it
 * is shown as: then `ready`, or `unavailable` with the reason (no LibreOffice, too large, timed out, unreadable).
 */
export const filePreviews = pgTable('file_previews', {
  fileId: uuid()
    .primaryKey()
    .references(() => files.id, { onDelete: 'cascade' }),
  status: text({ enum: ['pending', 'ready', 'unavailable'] })
    .notNull()
    .default('pending'),
  reason: text(),
  thumbnailId: uuid().references(() => files.id, { onDelete: 'set null' }),
  /** An Office file's: the PDF it is shown as. A PDF's: the viewer's update read after it (decision 088), if any. */
  pdfId: uuid().references(() => files.id, { onDelete: 'set null' }),
  /** Starts of its making (decision 091): one more than the limit without finishing, and it is given up. */
  attempts: integer().notNull().default(0),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export type FilePreviewRow = typeof filePreviews.$inferSelect;

/**
 * Text recognised in a scan (decision 113): a PDF or an image uploaded as a letter, close-group document, notice,
 * circular or e-file document waits here as `pending` from its upload (a trigger on `files`, migration 0044) until the
 * OCR job has read it: `done` with its text (which reaches the search) and `pdfId`, the searchable copy the viewer
 * shows; `not_needed` when its pages carry text of their own; `failed` with `reason` (a code) and `detail`.
 */
export const fileOcr = pgTable('file_ocr', {
  fileId: uuid()
    .primaryKey()
    .references(() => files.id, { onDelete: 'cascade' }),
  status: text({ enum: ['pending', 'done', 'not_needed', 'failed'] })
    .notNull()
    .default('pending'),
  reason: text({ enum: OCR_FAILURES }),
  detail: text(),
  text: text().notNull().default(''),
  pdfId: uuid().references(() => files.id, { onDelete: 'set null' }),
  pages: integer(),
  /** Starts of its reading: one more than the limit without finishing, and it is given up (as previews, 091). */
  attempts: integer().notNull().default(0),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export type FileOcrRow = typeof fileOcr.$inferSelect;
