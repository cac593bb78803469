import { sql } from 'drizzle-orm';
import { boolean, customType, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

import { files } from './files.ts';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * The access tokens of a document, as SQL over its own columns, each prefixed with the document's kind
 * (`letter:user:<id>`), so one test `list_access && <reader's tokens>` picks kinds and readers at once and the planner's
 * statistics of the tokens tell it how many rows that is: `public`, `signed-in`, `member:<group>` (the group's
 * members), `leads:<group>` (its current leader), `close-group:<id>` (its members), `user:<id>` (the uploader),
 * `role:admin`, `role:director`, and for letters `markedAccess` (`letter:marked:<id>`: everyone it was marked to or
 * by). One line per audience, each the rule of the module that owns the item: groups.policy 'groups.view',
 * close-groups.policy, letters.policy (directors and admins every letter, others their own uploads, so Confidential
 * and Secret letters too, and those marked to or by them), repositories.policy visibleRepositories.
 */
function accessTokens(listing: boolean): string {
  const t = (token: string) => `kind || ':${token}'`;
  const open = `case audience
    when 'public' then array[${t('public')}]
    when 'signed-in' then array[${t('signed-in')}]
    when 'group' then array[${t('member:')} || group_id::text, ${t('leads:')} || group_id::text, ${t('role:admin')}, ${t('role:director')}]
    when 'close-group' then array[${t('close-group:')} || close_group_id::text, ${t('role:admin')}]
    when 'letter' then array[${t('user:')} || uploaded_by::text, ${t('role:admin')}, ${t('role:director')}] || marked_access
    when 'repository' then array[${t('member:')} || group_id::text, ${t('user:')} || uploaded_by::text, ${t('role:admin')}, ${t('role:director')}]
    else array[]::text[] end`;
  const tokens = listing
    ? `${open} || case when public_listing then array[${t('public')}] else array[]::text[] end`
    : open;
  return `array_remove(${tokens}, null)`;
}

export const searchDocuments = pgTable(
  'search_documents',
  {
    /** person, group, notice, circular, …, trial-repository (shared/schemas/search.ts SEARCH_KINDS). */
    kind: text().notNull(),
    itemId: uuid().notNull(),
    title: text().notNull(),
    /** The searchable fields of the item other than its title, one text. */
    body: text().notNull().default(''),
    /** The file whose extracted text is `fileText` (file_texts), when the item has one. */
    fileId: uuid(),
    fileText: text().notNull().default(''),
    /** The portal page that shows the item. */
    url: text().notNull(),
    /** The stored file that opens the item, for those allowed to open it. */
    fileUrl: text(),
    date: timestamp({ withTimezone: true }).notNull(),
    /**
     * Who may open the item: public, signed-in, group (its members, directors, admins, the group's current leader),
     * close-group (its members, admins), letter (letters.policy), repository (repositories.policy).
     */
    audience: text().notNull(),
    /** Title and body are public although the file is not (a group's projects, patents… on the lab home). */
    publicListing: boolean().notNull().default(false),
    groupId: uuid(),
    closeGroupId: uuid(),
    uploadedBy: uuid(),
    /**
     * Letters: Normal, Confidential or Secret; close-group documents: Unclassified, Restricted, Confidential or Secret
     * (migration 0040, decision 095). Null for the other kinds.
     */
    classification: text(),
    /**
     * Letters: a token for each person the letter was marked to or by (letter_movements), `letter:marked:<user>`, or
     * `letter:marked-classified:<user>` when it is Confidential or Secret (found only by those cleared for it). Kept by
     * the database in the marking's transaction (migration 0020: search_letter_marked_access), never by the
     * application; part of the access tokens, so a search costs the same however many letters its reader handled.
     */
    markedAccess: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    metaVector: tsvector()
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('english', body), 'B') || setweight(to_tsvector('simple', body), 'B')`,
      ),
    fileVector: tsvector()
      .notNull()
      .generatedAlwaysAs(sql`to_tsvector('english', file_text) || to_tsvector('simple', file_text)`),
    /**
     * Who may open the item, as access tokens (decision 015, "Speed"): a reader finds the text inside the file when
     * one of their tokens (search.policy.ts readerTokens) is here. Derived from the visibility facts above, so it is
     * never out of date; what a reader holds is read fresh on every request.
     */
    openAccess: text()
      .array()
      .notNull()
      .generatedAlwaysAs(sql.raw(accessTokens(false))),
    /** Who may see the item's title and description: openAccess, plus `public` for a public listing. */
    listAccess: text()
      .array()
      .notNull()
      .generatedAlwaysAs(sql.raw(accessTokens(true))),
  },
  (t) => [
    primaryKey({ columns: [t.itemId, t.kind] }),
    // Each GIN index holds the access tokens and the words, so "these kinds, that reader, this word" is answered
    // inside the index and only rows the reader may see are read from the table.
    index('search_documents_meta_idx').using('gin', t.listAccess, t.metaVector),
    index('search_documents_file_idx').using('gin', t.openAccess, t.fileVector),
    index('search_documents_title_trgm_idx').using('gin', t.listAccess, t.title.op('gin_trgm_ops')),
    // pg_trgm takes trigrams of ASCII letters and digits only under the C locale (the embedded cluster's), so a Hindi
    // title fragment had none and its ILIKE read every document the reader may list (decision 031): three-character
    // pieces of the lower-cased title, any script (function search_title_grams, migration 0021).
    index('search_documents_title_grams_idx').using('gin', t.listAccess, sql`search_title_grams(${t.title})`),
    // The newest documents first, for words found in many (search.service.ts, step 1).
    index('search_documents_date_idx').on(t.date, t.kind, t.itemId),
    index('search_documents_file_id_idx').on(t.fileId),
  ],
);

/**
 * Text extracted from an uploaded file by the background job (search/extraction.ts). A `pending` row is made by the
 * database when a file of an extractable type is stored (migration `search_custom`), so nothing waits on extraction
 * and a restart finds what is left to do.
 */
export const fileTexts = pgTable(
  'file_texts',
  {
    fileId: uuid()
      .primaryKey()
      .references(() => files.id, { onDelete: 'cascade' }),
    /** pending, done or failed. */
    status: text().notNull().default('pending'),
    text: text().notNull().default(''),
    error: text(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('file_texts_pending_idx')
      .on(t.fileId)
      .where(sql`${t.status} = 'pending'`),
  ],
);

export type SearchDocumentRow = typeof searchDocuments.$inferSelect;
