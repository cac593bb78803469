import { eq, inArray } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { closeGroupMembers, closeGroups } from '#server/db/schema/index.ts';

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
