import { type AnyColumn, getTableColumns, type SQL, sql } from 'drizzle-orm';

import type { Db, DbOrTx } from '#server/db/client.ts';
import { prepared } from '#server/db/prepared.ts';
import { letterMovements, type LetterRow, letters } from '#server/db/schema/index.ts';
import { files } from '#server/modules/files/files.view.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { type LetterSearch, searchLetterIds } from './letters.search.ts';
import { loadWhereabouts, type Whereabouts } from './letters.whereabouts.ts';

/**
 * The register (docs/decisions/105): a letter's card as every list, search and page shows it, loaded for a page of
 * ids in one statement. Its writes are letters.register.service.ts and letters.register.bin.ts; the dak (marking and
 * movements) is letters.dak.*.ts.
 */

/** A letter with what its card shows besides its own columns. */
export interface LetterView {
  letter: Omit<LetterRow, 'searchText'>;
  uploader: { id: string; name: string } | null;
  deleter: { id: string; name: string } | null;
  originalName: string | null;
  /** Marked to someone at least once: the register fields are frozen except for an admin (decision 020). */
  frozen: boolean;
  /** The person the view was loaded for was marked the letter, or marked it. */
  involved: boolean;
  /** That person holds it now (marked to them, not yet closed, sent on or back). */
  holds: boolean;
  /** Who holds it now, or who closed it (decision 099); null before it first moves. */
  whereabouts: Whereabouts | null;
}

// Everything a card shows; not the search text, which no screen needs and which is the widest column.
export const { searchText: _searchText, ...viewColumns } = getTableColumns(letters);

// Names by scalar subqueries on primary keys, and the ids as one array parameter: the cheapest plan to make and to
// run for a page of letters (half the time of joins on PGlite).
const nameOf = (id: AnyColumn) => sql<string | null>`(select ${users.name} from ${users} where ${users.id} = ${id})`;

/** A page of letters with what the views need; `involved` and `holds` are the viewer's (or false without one). */
const viewsSelect = (db: DbOrTx, involved: SQL<boolean>, holds: SQL<boolean>) =>
  db
    .select({
      letter: viewColumns,
      uploaderName: nameOf(letters.uploadedBy),
      deleterName: nameOf(letters.deletedBy),
      originalName: sql<
        string | null
      >`(select ${files.originalName} from ${files} where ${files.id} = ${letters.fileId})`,
      // NOTE: `letters.id` written out: drizzle leaves a column of the only table unqualified, and inside the
      // subquery an unqualified "id" would be the movement's.
      frozen: sql<boolean>`exists (select 1 from ${letterMovements} m where m.letter_id = letters.id)`,
      involved,
      holds,
    })
    .from(letters);

// Every letters page, inbox and letter opened by a signed-in person: the same columns as viewsSelect, from the function
// of migration 0035, whose plan PostgreSQL makes once per connection (a statement of its own was planned on every run);
// the statement that calls it is built once (db/prepared.ts). The function's columns are named as the letter's, and
// each is read and converted as its column of the table.
type ViewColumns = typeof viewColumns;
const functionColumns = Object.fromEntries(
  Object.entries(viewColumns).map(([key, column]) => [key, sql`${column}`.mapWith(column)]),
) as {
  [K in keyof ViewColumns]: SQL<
    ViewColumns[K]['_']['data'] | (ViewColumns[K]['_']['notNull'] extends true ? never : null)
  >;
};
const viewsFor = prepared('letter_views_for_viewer', (db) =>
  db
    .select({
      letter: functionColumns,
      uploaderName: sql<string | null>`uploader_name`,
      deleterName: sql<string | null>`deleter_name`,
      originalName: sql<string | null>`original_name`,
      frozen: sql<boolean>`frozen`,
      involved: sql<boolean>`involved`,
      holds: sql<boolean>`holds`,
    })
    .from(
      sql`letter_views_for_viewer(${sql.placeholder('ids')}::uuid[], ${sql.placeholder('viewerId')}::uuid) as ${letters}`,
    ),
);

/**
 * Loads letters with their uploader, deleter and file name, whether they have moved, and whether `viewerId` took
 * part in their movement or holds them, in the order of `ids`. No permission check.
 */
export async function loadViews(db: DbOrTx, ids: string[], viewerId?: string): Promise<LetterView[]> {
  if (!ids.length) return [];
  const rows = viewerId
    ? await viewsFor(db, { ids: `{${ids.join(',')}}`, viewerId })
    : await viewsSelect(db, sql`false`, sql`false`).where(sql`${letters.id} = any(${`{${ids.join(',')}}`}::uuid[])`);
  const where = await loadWhereabouts(
    db,
    rows.filter((r) => r.frozen).map((r) => r.letter.id),
  );
  const byId = new Map(
    rows.map((r) => [
      r.letter.id,
      {
        letter: r.letter,
        uploader:
          r.letter.uploadedBy && r.uploaderName !== null ? { id: r.letter.uploadedBy, name: r.uploaderName } : null,
        deleter: r.letter.deletedBy && r.deleterName !== null ? { id: r.letter.deletedBy, name: r.deleterName } : null,
        originalName: r.originalName ?? null,
        frozen: Boolean(r.frozen),
        involved: Boolean(r.involved),
        holds: Boolean(r.holds),
        whereabouts: where.get(r.letter.id) ?? null,
      },
    ]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * One page of the letters the actor may see, matching the search, newest upload first (spec §2 Letters &
 * Correspondence). Any signed-in person may call it; visibility is applied in the query (letters.policy.ts).
 */
export async function searchLetters(db: Db, actor: Actor, search: LetterSearch) {
  const result = await searchLetterIds(db, actor, search);
  return { views: await loadViews(db, result.ids, actor.id), next: result.next };
}
