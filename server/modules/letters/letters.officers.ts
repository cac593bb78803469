import { asc, eq } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { groups } from '#server/modules/groups/groups.view.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { markableOfficers } from './letters.policy.ts';

/**
 * The officers a letter may be marked to (GET /api/dac/officers): approved staff other than the actor, by name, with
 * their group and whether they may receive Confidential and Secret letters. Any signed-in person.
 */
export async function listOfficers(db: DbOrTx, actor: Actor) {
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      designation: users.designation,
      role: users.role,
      cleared: users.classifiedClearance,
      groupId: groups.id,
      groupName: groups.name,
    })
    .from(users)
    .leftJoin(groups, eq(groups.id, users.groupId))
    .where(markableOfficers(actor))
    .orderBy(asc(users.name))
    .limit(2000);
  return rows; // as JSON: presentOfficer (letters.presenter.ts)
}

export type OfficerRow = Awaited<ReturnType<typeof listOfficers>>[number];
