import { check, date, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';

import { createdAt, id, oneOwner, updatedAt } from './common.ts';
import { files } from './files.ts';
import { groups, labs } from './labs.ts';
import { users } from './users.ts';

// Its own file (not labs.ts): it names users, and users.ts names labs and groups, so in labs.ts it made an import
// circle.

/**
 * Director history of the lab (designation default Director) or associate-director history of a group (default
 * Assistant Director). The current one is the entry without an end date, else the latest.
 */
export const directorEntries = pgTable(
  'director_entries',
  {
    id: id(),
    labId: uuid().references(() => labs.id, { onDelete: 'cascade' }),
    groupId: uuid().references(() => groups.id, { onDelete: 'cascade' }),
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    name: text().notNull().default(''),
    designation: text().notNull(),
    from: date().notNull(),
    to: date(),
    about: text().notNull().default(''),
    imageFileId: uuid().references(() => files.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('director_entries_lab_idx').on(t.labId, t.from),
    index('director_entries_group_idx').on(t.groupId, t.from),
    index('director_entries_user_idx').on(t.userId),
    check('director_entries_one_owner', oneOwner(t.labId, t.groupId)),
  ],
);
