import { bigint, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('files_area_stored_name_idx').on(t.area, t.storedName),
    index('files_uploaded_by_idx').on(t.uploadedBy),
  ],
);

export type FileRow = typeof files.$inferSelect;
