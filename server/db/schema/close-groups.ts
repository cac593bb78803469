import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

import { createdAt, id, updatedAt } from './common.ts';
import { files } from './files.ts';
import { users } from './users.ts';

/** A time-boxed working group whose members share documents (spec §3 Close group). */
export const closeGroups = pgTable(
  'close_groups',
  {
    id: id(),
    groupName: text().notNull(),
    groupPurpose: text().notNull(),
    durationFrom: date().notNull(),
    durationTo: date().notNull(),
    adminRemarks: text().notNull().default(''),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('close_groups_duration', sql`${t.durationFrom} <= ${t.durationTo}`),
    // Lists run latest-ending first.
    index('close_groups_duration_to_idx').on(t.durationTo, t.createdAt),
  ],
);

/** requestedBy: the members of a close group. */
export const closeGroupMembers = pgTable(
  'close_group_members',
  {
    closeGroupId: uuid()
      .notNull()
      .references(() => closeGroups.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.closeGroupId, t.userId] }), index('close_group_members_user_idx').on(t.userId)],
);

/**
 * How sensitive a close-group document is (decision 072): Unclassified by default. Confidential and Secret follow
 * the letters' clearance rules; Restricted and above are watermarked when downloaded as PDF.
 */
export const documentClassificationEnum = pgEnum('document_classification', [
  'Unclassified',
  'Restricted',
  'Confidential',
  'Secret',
]);

export const closeGroupDocuments = pgTable(
  'close_group_documents',
  {
    id: id(),
    closeGroupId: uuid()
      .notNull()
      .references(() => closeGroups.id, { onDelete: 'cascade' }),
    fileId: uuid()
      .notNull()
      .references(() => files.id),
    filename: text().notNull(),
    classification: documentClassificationEnum().notNull().default('Unclassified'),
    uploadedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    uploadedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('close_group_documents_group_idx').on(t.closeGroupId, t.uploadedAt),
    // A download asks "which close group holds this file?" (file-access.ts); one document per stored file.
    uniqueIndex('close_group_documents_file_idx').on(t.fileId),
  ],
);
