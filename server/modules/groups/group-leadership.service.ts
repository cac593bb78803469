import { and, eq, max } from 'drizzle-orm';
import type { z } from 'zod';

import { DEFAULT_ASSOCIATE_DIRECTOR_DESIGNATION } from '#shared/constants.ts';
import type { officeMemberInput } from '#shared/schemas/unit.ts';

import type { Db } from '#server/db/client.ts';
import { type GroupRow, officeMembers } from '#server/db/schema/index.ts';
import { notFound } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import type { DirectorHistoryOwner } from '#server/modules/director-history/director-history.service.ts';
import type { Actor } from '#server/plugins/auth.ts';

import type { OfficeRow } from './groups.service.ts';

/** A group's associate-director history (the director-history service), as the activity log has always worded it. */
export const associateDirectorsOf = (group: GroupRow): DirectorHistoryOwner => ({
  kind: 'group',
  id: group.id,
  defaultDesignation: DEFAULT_ASSOCIATE_DIRECTOR_DESIGNATION, // spec §9: Assistant Director
  notFoundMessage: 'groups.entry_not_found',
  activity: (action) => ({
    code:
      action === 'added'
        ? 'activity.group_director_added'
        : action === 'updated'
          ? 'activity.group_director_updated'
          : 'activity.group_director_deleted',
    params: { group: group.name },
    type: 'director-entry',
  }),
});

type OfficeInput = z.output<typeof officeMemberInput>;

/** Adds a row to the O/o Group Leader table, at the end. Callers check canManageGroup. */
export async function createOfficeMember(
  db: Db,
  actor: Actor,
  group: GroupRow,
  input: OfficeInput,
): Promise<OfficeRow> {
  return db.transaction(async (tx) => {
    const [last] = await tx
      .select({ n: max(officeMembers.position) })
      .from(officeMembers)
      .where(eq(officeMembers.groupId, group.id));
    const [row] = await tx
      .insert(officeMembers)
      .values({ ...input, groupId: group.id, position: (last?.n ?? -1) + 1 })
      .returning();
    await recordActivity(
      tx,
      actor,
      'activity.office_member_added',
      { name: row!.name, group: group.name },
      { type: 'office-member', id: row!.id },
    );
    return row!;
  });
}

/** Edits an office row. Callers check canManageGroup. */
export async function updateOfficeMember(
  db: Db,
  actor: Actor,
  group: GroupRow,
  memberId: string,
  input: OfficeInput,
): Promise<OfficeRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(officeMembers)
      .set(input)
      .where(and(eq(officeMembers.id, memberId), eq(officeMembers.groupId, group.id)))
      .returning();
    if (!row) throw notFound('groups.office_member_not_found');
    await recordActivity(
      tx,
      actor,
      'activity.office_member_updated',
      { name: row.name, group: group.name },
      { type: 'office-member', id: row.id },
    );
    return row;
  });
}

/** Removes an office row. Callers check canManageGroup. */
export async function deleteOfficeMember(db: Db, actor: Actor, group: GroupRow, memberId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(officeMembers)
      .where(and(eq(officeMembers.id, memberId), eq(officeMembers.groupId, group.id)))
      .returning();
    if (!row) throw notFound('groups.office_member_not_found');
    await recordActivity(
      tx,
      actor,
      'activity.office_member_removed',
      { name: row.name, group: group.name },
      { type: 'office-member', id: row.id },
    );
  });
}
