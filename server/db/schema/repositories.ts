import { sql } from 'drizzle-orm';
import { doublePrecision, index, jsonb, pgEnum, pgTable, text, uuid } from 'drizzle-orm/pg-core';

import { createdAt, id } from './common.ts';
import { files } from './files.ts';
import { groups } from './labs.ts';
import { users } from './users.ts';

export const softwareRepoTypeEnum = pgEnum('software_repo_type', ['Document', 'Code', 'ZIP File']);

export const softwareRepos = pgTable(
  'software_repos',
  {
    id: id(),
    groupId: uuid()
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    type: softwareRepoTypeEnum().notNull(),
    githubUrl: text().notNull().default(''),
    clonedRepoPath: text().notNull().default(''),
    metadata: jsonb(),
    fileId: uuid().references(() => files.id, { onDelete: 'set null' }),
    uploadedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  // file index: the download check finds the repository by its file; uploader index: "what I uploaded" in the lists.
  (t) => [
    index('software_repos_group_idx').on(t.groupId),
    index('software_repos_file_idx').on(t.fileId),
    index('software_repos_uploaded_by_idx').on(t.uploadedBy),
  ],
);

export const trialRepos = pgTable(
  'trial_repos',
  {
    id: id(),
    groupId: uuid()
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    type: text().notNull(),
    githubUrl: text().notNull().default(''),
    clonedRepoPath: text().notNull().default(''),
    sizeInKb: doublePrecision(),
    duration: doublePrecision(),
    languageUsed: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    fileId: uuid().references(() => files.id, { onDelete: 'set null' }),
    uploadedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('trial_repos_group_idx').on(t.groupId),
    index('trial_repos_file_idx').on(t.fileId),
    index('trial_repos_uploaded_by_idx').on(t.uploadedBy),
  ],
);
