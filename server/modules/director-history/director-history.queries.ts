import { type AnyColumn, eq, type SQL, sql } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { prepared } from '#server/db/prepared.ts';
import { directorEntries } from '#server/db/schema/index.ts';

/*
 * Reads of the director entries that other modules call (decision 103: a module owns its tables).
 */

/** Which of a group's director entries is the current one: the entry with no end date, else the latest. */
const currentEntryFirst = sql`${directorEntries.to} is null desc, ${directorEntries.from} desc, ${directorEntries.createdAt} desc`;

const currentEntryOf = prepared('group_current_director_entry', (db) =>
  db
    .select({ userId: directorEntries.userId, to: directorEntries.to })
    .from(directorEntries)
    .where(eq(directorEntries.groupId, sql.placeholder('groupId')))
    .orderBy(currentEntryFirst)
    .limit(1),
);

/** The group's current director entry (its user and end date), or undefined when it has none. */
export async function currentGroupEntry(
  db: DbOrTx,
  groupId: string,
): Promise<{ userId: string | null; to: string | null } | undefined> {
  return (await currentEntryOf(db, { groupId }))[0];
}

/**
 * A column of the current director entry of the group in `groupId` (a column of the outer query), as a subquery: the
 * group page reads its group and its director in one query (a list depends on it for speed).
 */
export const currentGroupEntryColumn = (groupId: AnyColumn | SQL, column: 'userId' | 'to') =>
  sql`(select ${column === 'userId' ? directorEntries.userId : sql`${directorEntries.to}::text`} from ${directorEntries}
    where ${directorEntries.groupId} = ${groupId} order by ${currentEntryFirst} limit 1)`;
