import { sql } from 'drizzle-orm';
import { bigint, check, date, index, integer, pgEnum, pgTable, text, uuid } from 'drizzle-orm/pg-core';

import { createdAt, id, oneOwner, updatedAt } from './common.ts';
import { files } from './files.ts';

/** The one lab (spec §3: only one lab exists). */
export const labs = pgTable('labs', {
  id: id(),
  name: text().notNull(),
  domain: text().notNull().default(''),
  about: text().notNull().default(''),
  vision: text().notNull().default(''),
  mission: text().notNull().default(''),
  history: text().notNull().default(''),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A research group (department) of the lab. Membership is users.group_id: a person belongs to one group. */
export const groups = pgTable(
  'groups',
  {
    id: id(),
    labId: uuid().references(() => labs.id, { onDelete: 'set null' }),
    name: text().notNull(),
    description: text().notNull().default(''),
    about: text().notNull().default(''),
    vision: text().notNull().default(''),
    mission: text().notNull().default(''),
    history: text().notNull().default(''),
    /**
     * Changes whenever anything the group page shows changes: this row, its contacts, members, items, director
     * entries (and their people) and office. Kept by triggers (migration 0017), never by the application; the group
     * page's cached answer is keyed by it.
     */
    contentVersion: bigint({ mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('groups_name_idx').on(sql`lower(${t.name})`)],
);

export const labItemKindEnum = pgEnum('lab_item_kind', ['notice', 'circular', 'product', 'advertisement']);

/** Lab notices, circulars, products and advertisements: {name, description, file}. */
export const labItems = pgTable(
  'lab_items',
  {
    id: id(),
    labId: uuid()
      .notNull()
      .references(() => labs.id, { onDelete: 'cascade' }),
    kind: labItemKindEnum().notNull(),
    name: text().notNull(),
    description: text().notNull().default(''),
    fileId: uuid().references(() => files.id, { onDelete: 'set null' }),
    /** Notices and circulars leave the News Flash after this date (issue: lab information). */
    validUntil: date(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('lab_items_lab_kind_idx').on(t.labId, t.kind, t.createdAt)],
);

/** Gallery photos of the lab; `webFileId` is the resized copy the carousel loads. */
export const labPhotos = pgTable(
  'lab_photos',
  {
    id: id(),
    labId: uuid()
      .notNull()
      .references(() => labs.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    description: text().notNull().default(''),
    fileId: uuid().references(() => files.id, { onDelete: 'set null' }),
    webFileId: uuid().references(() => files.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('lab_photos_lab_idx').on(t.labId, t.createdAt)],
);

export const contactTypeEnum = pgEnum('contact_type', ['Email', 'Phone', 'Address', 'Other']);

/** Contact Us entries of the lab or of a group: type (label): value. */
export const contactInfos = pgTable(
  'contact_infos',
  {
    id: id(),
    labId: uuid().references(() => labs.id, { onDelete: 'cascade' }),
    groupId: uuid().references(() => groups.id, { onDelete: 'cascade' }),
    type: contactTypeEnum().notNull(),
    label: text().notNull().default(''),
    value: text().notNull(),
    position: integer().notNull().default(0),
  },
  (t) => [
    index('contact_infos_lab_idx').on(t.labId, t.position),
    index('contact_infos_group_idx').on(t.groupId, t.position),
    check('contact_infos_one_owner', oneOwner(t.labId, t.groupId)),
  ],
);

/** O/o Director (lab) and O/o Group Leader (group) tables. */
export const officeMembers = pgTable(
  'office_members',
  {
    id: id(),
    labId: uuid().references(() => labs.id, { onDelete: 'cascade' }),
    groupId: uuid().references(() => groups.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    designation: text().notNull(),
    contactNumber: text().notNull().default(''),
    email: text().notNull().default(''),
    position: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index('office_members_lab_idx').on(t.labId, t.position),
    index('office_members_group_idx').on(t.groupId, t.position),
    check('office_members_one_owner', oneOwner(t.labId, t.groupId)),
  ],
);

export const groupItemKindEnum = pgEnum('group_item_kind', [
  'notice',
  'circular',
  'project',
  'patent',
  'technology',
  'course',
  'publication',
]);

/** Group notices and circulars, and the five group file kinds (projects, patents, technologies, courses, publications). */
export const groupItems = pgTable(
  'group_items',
  {
    id: id(),
    groupId: uuid()
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    kind: groupItemKindEnum().notNull(),
    name: text().notNull(),
    description: text().notNull().default(''),
    fileId: uuid().references(() => files.id, { onDelete: 'set null' }),
    validUntil: date(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('group_items_group_kind_idx').on(t.groupId, t.kind, t.createdAt),
    // Download check of a private group file: which group owns this file?
    index('group_items_file_idx').on(t.fileId),
  ],
);

export type LabRow = typeof labs.$inferSelect;
export type GroupRow = typeof groups.$inferSelect;
