import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { z } from 'zod';

import type { Role } from '#shared/constants.ts';
import type { ItemAcknowledgementJson } from '#shared/schemas/acknowledgements.ts';
import type { createGroupInput, updateGroupInput } from '#shared/schemas/group.ts';

import type { Db, DbOrTx } from '#server/db/client.ts';
import { prepared } from '#server/db/prepared.ts';
import { contactInfos, groupItems, type GroupRow, groups, officeMembers } from '#server/db/schema/index.ts';
import { badRequest, conflict, notFound } from '#server/lib/errors.ts';
import { containsPattern } from '#server/lib/search.ts';
import { withItemAcknowledgements } from '#server/modules/acknowledgements/acknowledgements.service.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import type { AuditWho } from '#server/modules/audit-trail/audit-trail.ts';
import { recordUserChanges, type TrackedUser } from '#server/modules/audit-trail/user-changes.ts';
import {
  type DirectorEntryWithUser,
  listDirectorEntries,
} from '#server/modules/director-history/director-history.service.ts';
import { files } from '#server/modules/files/files.view.ts';
import { labExists } from '#server/modules/labs/labs.queries.ts';
import { findOnlyLab } from '#server/modules/labs/labs.service.ts';
import { setGroupOf } from '#server/modules/users/users.queries.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { findGroupById } from './groups.queries.ts';

/** All groups by name, for the Groups dropdown and group selects. Any signed-in user may call it. */
export async function listGroups(db: DbOrTx) {
  return db
    .select({ id: groups.id, name: groups.name, description: groups.description })
    .from(groups)
    .orderBy(asc(groups.name));
}

// ---- reading a whole group -------------------------------------------------------------------------------------

const employeeColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  photoFileId: users.photoFileId,
  role: users.role,
  designation: users.designation,
};
export interface EmployeeRow {
  id: string;
  name: string;
  email: string;
  photoFileId: string | null;
  role: Role;
  designation: string;
}

/** The approved members of a group, by name (membership is users.group_id). */
const membersOf = prepared('group_members', (db) =>
  db
    .select(employeeColumns)
    .from(users)
    .where(and(eq(users.groupId, sql.placeholder('groupId')), eq(users.status, 'approved')))
    .orderBy(asc(users.name), asc(users.email)),
);

export async function listMembers(db: DbOrTx, groupId: string): Promise<EmployeeRow[]> {
  return membersOf(db, { groupId });
}

export type ItemRow = typeof groupItems.$inferSelect & {
  fileName: string | null;
  /** A notice's or circular's acknowledgement request (decision 074), when loaded. */
  acknowledgement?: ItemAcknowledgementJson | null;
};
export type OfficeRow = typeof officeMembers.$inferSelect;
export type ContactRow = typeof contactInfos.$inferSelect;

export interface GroupDetails {
  contacts: ContactRow[];
  employees: EmployeeRow[];
  /** Notices, circulars and the five file kinds, newest first. */
  items: ItemRow[];
  /** Associate-director history, newest first. */
  entries: DirectorEntryWithUser[];
  office: OfficeRow[];
}

// The group page's reads, built once (db/prepared.ts): every signed-in member opens it.
const contactsOf = prepared('group_contacts', (db) =>
  db
    .select()
    .from(contactInfos)
    .where(eq(contactInfos.groupId, sql.placeholder('groupId')))
    .orderBy(asc(contactInfos.position)),
);
const itemsOf = prepared('group_items_of_group', (db) =>
  db
    .select({ item: groupItems, fileName: files.originalName })
    .from(groupItems)
    .leftJoin(files, eq(groupItems.fileId, files.id))
    .where(eq(groupItems.groupId, sql.placeholder('groupId')))
    .orderBy(desc(groupItems.createdAt), desc(groupItems.id)),
);
const officeOf = prepared('group_office', (db) =>
  db
    .select()
    .from(officeMembers)
    .where(eq(officeMembers.groupId, sql.placeholder('groupId')))
    .orderBy(asc(officeMembers.position), asc(officeMembers.createdAt)),
);

/** Everything the group page shows besides the group row itself (five reads, side by side). */
export async function loadGroupDetails(db: DbOrTx, groupId: string): Promise<GroupDetails> {
  const [contacts, employees, items, entries, office] = await Promise.all([
    contactsOf(db, { groupId }),
    listMembers(db, groupId),
    itemsOf(db, { groupId }),
    listDirectorEntries(db, { kind: 'group', id: groupId }),
    officeOf(db, { groupId }),
  ]);
  const rows = items.map((r) => ({ ...r.item, fileName: r.fileName }));
  return { contacts, employees, items: await withItemAcknowledgements(db, 'group', rows), entries, office };
}

/** The signed-in person's own group (GET /api/groups/my-group), or 404. Any signed-in user. */
export async function findMyGroup(db: DbOrTx, actor: Actor): Promise<GroupRow> {
  const group = actor.groupId ? await findGroupById(db, actor.groupId) : undefined;
  if (!group) throw notFound('groups.no_group');
  return group;
}

// ---- create and edit -------------------------------------------------------------------------------------------

async function assertNameFree(db: DbOrTx, name: string, exceptId?: string) {
  const [clash] = await db
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(sql`lower(${groups.name})`, name.toLowerCase()), exceptId ? ne(groups.id, exceptId) : undefined))
    .limit(1);
  if (clash) throw conflict('groups.name_taken', 'name');
}

/** Approved users among `ids`; refuses the lot when one is unknown or not approved (nobody half-moved). */
/** What the audit trail compares of a person moved between groups (recordUserChanges). */
const trackedColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  role: users.role,
  status: users.status,
  classifiedClearance: users.classifiedClearance,
  groupId: users.groupId,
};

/** The audit trail's events of people moved into `groupId` (or out of every group), in the move's transaction. */
async function recordMoves(tx: DbOrTx, who: AuditWho, staff: TrackedUser[], groupId: string | null) {
  for (const person of staff) await recordUserChanges(tx, who, person, { ...person, groupId });
}

async function findAssignable(db: DbOrTx, ids: string[], field: string) {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const found = await db
    .select(trackedColumns)
    .from(users)
    .where(and(inArray(users.id, unique), eq(users.status, 'approved')));
  if (found.length !== unique.length) throw badRequest('groups.employees_not_found', field);
  return found;
}

/**
 * Creates a group and moves the chosen staff into it (each person belongs to one group). Callers check that the
 * actor is an admin. The group joins the given lab, else the only lab.
 */
export async function createGroup(
  db: Db,
  actor: Actor,
  input: z.output<typeof createGroupInput>,
  who: AuditWho,
  labId?: string,
): Promise<GroupRow> {
  const { employees, ...fields } = input;
  return db.transaction(async (tx) => {
    await assertNameFree(tx, fields.name);
    let lab: { id: string } | undefined;
    if (labId) {
      if (!(await labExists(tx, labId))) throw badRequest('labs.id_missing', 'labId');
      lab = { id: labId };
    } else lab = await findOnlyLab(tx);
    const staff = await findAssignable(tx, employees, 'employees');
    const [group] = await tx
      .insert(groups)
      .values({ ...fields, labId: lab?.id ?? null })
      .returning();
    if (staff.length) {
      await setGroupOf(
        tx,
        staff.map((s) => s.id),
        group!.id,
      );
      await recordMoves(tx, who, staff, group!.id);
    }
    await recordActivity(
      tx,
      actor,
      staff.length ? 'activity.group_created_with_staff' : 'activity.group_created',
      staff.length ? { group: group!.name, n: staff.length } : { group: group!.name },
      {
        type: 'group',
        id: group!.id,
      },
    );
    return group!;
  });
}

/**
 * Saves the group information editor: name, texts, history and (when sent) the whole contact list. Callers check
 * canManageGroup.
 */
export async function updateGroup(
  db: Db,
  actor: Actor,
  groupId: string,
  input: z.output<typeof updateGroupInput>,
): Promise<GroupRow> {
  return db.transaction(async (tx) => {
    await assertNameFree(tx, input.name, groupId);
    const [group] = await tx
      .update(groups)
      .set({
        name: input.name,
        description: input.description,
        about: input.about,
        vision: input.vision,
        mission: input.mission,
        history: input.GroupHistoryDetails,
      })
      .where(eq(groups.id, groupId))
      .returning();
    if (!group) throw notFound('groups.not_found');
    if (input.contactInfo) {
      await tx.delete(contactInfos).where(eq(contactInfos.groupId, groupId));
      if (input.contactInfo.length) {
        await tx.insert(contactInfos).values(input.contactInfo.map((c, position) => ({ ...c, groupId, position })));
      }
    }
    await recordActivity(tx, actor, 'activity.group_updated', { group: group.name }, { type: 'group', id: group.id });
    return group;
  });
}

// ---- membership ------------------------------------------------------------------------------------------------

/** Staff an admin may assign (approved users), searched by name or email, with their current group. Admins only. */
export async function listAssignableStaff(db: DbOrTx, query: { q: string; limit: number; offset: number }) {
  const pattern = containsPattern(query.q);
  const where = and(
    eq(users.status, 'approved'),
    query.q ? or(ilike(users.name, pattern), ilike(users.email, pattern)) : undefined,
  );
  const rows = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      groupId: groups.id,
      groupName: groups.name,
    })
    .from(users)
    .leftJoin(groups, eq(users.groupId, groups.id))
    .where(where)
    .orderBy(asc(users.name), asc(users.email))
    .limit(query.limit)
    .offset(query.offset);
  const [total] = await db.select({ n: count() }).from(users).where(where);
  return { rows, total: total?.n ?? 0 };
}

/** Moves people into the group (from wherever they were). Callers check that the actor is an admin. */
export async function addMembers(
  db: Db,
  actor: Actor,
  group: GroupRow,
  userIds: string[],
  who: AuditWho,
): Promise<number> {
  return db.transaction(async (tx) => {
    const staff = (await findAssignable(tx, userIds, 'userIds')).filter((s) => s.groupId !== group.id);
    if (!staff.length) return 0;
    await setGroupOf(
      tx,
      staff.map((s) => s.id),
      group.id,
    );
    for (const s of staff) {
      await recordActivity(
        tx,
        actor,
        'activity.group_member_added',
        { email: s.email, group: group.name },
        { type: 'user', id: s.id },
      );
    }
    await recordMoves(tx, who, staff, group.id);
    return staff.length;
  });
}

async function findMember(tx: DbOrTx, group: GroupRow, userId: string) {
  const [member] = await tx
    .select(trackedColumns)
    .from(users)
    .where(and(eq(users.id, userId), eq(users.groupId, group.id)))
    .limit(1);
  if (!member) throw notFound('groups.not_a_member');
  return member;
}

/** Takes a person out of the group; they then belong to no group. Callers check that the actor is an admin. */
export async function removeMember(
  db: Db,
  actor: Actor,
  group: GroupRow,
  userId: string,
  who: AuditWho,
): Promise<void> {
  await db.transaction(async (tx) => {
    const member = await findMember(tx, group, userId);
    await setGroupOf(tx, [member.id], null);
    await recordActivity(
      tx,
      actor,
      'activity.group_member_removed',
      { email: member.email, group: group.name },
      { type: 'user', id: member.id },
    );
    await recordMoves(tx, who, [member], null);
  });
}

/** Moves a member of `group` to another group. Callers check that the actor is an admin. */
export async function moveMember(
  db: Db,
  actor: Actor,
  group: GroupRow,
  userId: string,
  targetId: string,
  who: AuditWho,
): Promise<GroupRow> {
  return db.transaction(async (tx) => {
    const member = await findMember(tx, group, userId);
    if (targetId === group.id) throw badRequest('groups.already_in_group', 'groupId');
    const [target] = await tx.select().from(groups).where(eq(groups.id, targetId)).limit(1);
    if (!target) throw badRequest('groups.target_not_found', 'groupId');
    await setGroupOf(tx, [member.id], target.id);
    await recordActivity(
      tx,
      actor,
      'activity.group_member_moved',
      { email: member.email, group: group.name, target: target.name },
      { type: 'user', id: member.id },
    );
    await recordMoves(tx, who, [member], target.id);
    return target;
  });
}
