import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { closeGroupMembers, closeGroups } from '#server/db/schema/index.ts';
import { users } from '#server/modules/users/users.view.ts';

/*
 * Reads of the close groups' tables that other modules call (decision 103: a module owns its tables).
 */

/** These close groups' names and last days. */
export async function closeGroupsByIds(db: DbOrTx, ids: string[]): Promise<{ id: string; name: string; to: string }[]> {
  if (!ids.length) return [];
  return db
    .select({ id: closeGroups.id, name: closeGroups.groupName, to: closeGroups.durationTo })
    .from(closeGroups)
    .where(inArray(closeGroups.id, ids));
}

/** The close groups this person is a member of. */
export async function closeGroupIdsOfMember(db: DbOrTx, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: closeGroupMembers.closeGroupId })
    .from(closeGroupMembers)
    .where(eq(closeGroupMembers.userId, userId));
  return rows.map((r) => r.id);
}

/** Of these close groups, the ones this person is a member of: their names and last days (the bell, decision 081). */
export async function closeGroupsOfMemberByIds(
  db: DbOrTx,
  userId: string,
  ids: string[],
): Promise<{ id: string; name: string; to: string }[]> {
  if (!ids.length) return [];
  return db
    .select({ id: closeGroups.id, name: closeGroups.groupName, to: closeGroups.durationTo })
    .from(closeGroups)
    .innerJoin(
      closeGroupMembers,
      and(eq(closeGroupMembers.closeGroupId, closeGroups.id), eq(closeGroupMembers.userId, userId)),
    )
    .where(inArray(closeGroups.id, ids));
}

/**
 * The members (approved accounts) of the close groups that end from `from` to `until` (dates, inclusive), as the
 * recipients of notifyEach: `user_id`, and the group as `subject_id` and `source_id` (decision 081).
 */
export const endingCloseGroupMembers = (from: string, until: string): SQL =>
  sql`select ${users.id} as user_id, ${closeGroups.id} as subject_id, ${closeGroups.id} as source_id, null as actor_id
    from ${closeGroups}
    join ${closeGroupMembers} on ${closeGroupMembers.closeGroupId} = ${closeGroups.id}
    join ${users} on ${users.id} = ${closeGroupMembers.userId} and ${users.status} = 'approved'
    where ${closeGroups.durationTo} >= ${from}::date and ${closeGroups.durationTo} <= ${until}::date`;
