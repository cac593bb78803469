import { eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.ts';
import { prepared } from '#server/db/prepared.ts';
import { directorEntries, groupItems, groups, type GroupRow } from '#server/db/schema/index.ts';
import { forbidden, notFound } from '#server/lib/errors.ts';
import { isUuid } from '#server/lib/ids.ts';
import type { Actor } from '#server/plugins/auth.ts';
import { todayInIndia } from '#shared/format.ts';
import { definePolicy } from '#server/lib/policy.ts';
import { adminsOnly } from '#server/lib/roles.policy.ts';

/** Spec §2 Group page, to the letter: what a signed-in outsider is told. */
export const ACCESS_DENIED =
  'Access Denied. You are not authorized to view this group. You are not a member of this group.';
export const NOT_A_MANAGER =
  "You are not authorized to manage this group. Only an administrator or the group's current associate director may.";

/** The group, or 404 'Group not found.' (a malformed id is simply not found). */
export async function findGroupOr404(db: DbOrTx, id: string): Promise<GroupRow> {
  if (!isUuid(id)) throw notFound('Group not found.');
  const group = await findGroupById(db, id);
  if (!group) throw notFound('Group not found.');
  return group;
}

const groupById = prepared('group_by_id', (db) =>
  db
    .select()
    .from(groups)
    .where(eq(groups.id, sql.placeholder('id')))
    .limit(1),
);

/** The group with this id (a UUID), or undefined. */
export async function findGroupById(db: DbOrTx, id: string): Promise<GroupRow | undefined> {
  return (await groupById(db, { id }))[0];
}

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

/** The id the group's current director entry names while in office (decision 006), or null. */
const inOffice = (entry: { userId: string | null; to: string | null } | undefined): string | null =>
  !entry?.userId || (entry.to && entry.to < todayInIndia()) ? null : entry.userId;

/**
 * The user id of the group's current associate director while in office: the entry with no end date (else the
 * latest), counted only while its end date has not passed and it names a user (decision 006).
 */
export async function currentManagerId(db: DbOrTx, groupId: string): Promise<string | null> {
  const [entry] = await currentEntryOf(db, { groupId });
  return inOffice(entry);
}

/** A column of the group's current director entry, as a subquery of a read of `groups`. */
const currentEntryColumn = (column: SQL) =>
  sql`(select ${column} from ${directorEntries} where ${directorEntries.groupId} = ${groups.id}
    order by ${currentEntryFirst} limit 1)`;

// The group page's one read (issue 12): the group row with its current director entry, instead of two round trips.
const groupWithDirector = prepared('group_with_current_director', (db) =>
  db
    .select({
      group: getTableColumns(groups),
      directorId: sql<string | null>`${currentEntryColumn(sql`${directorEntries.userId}`)}`,
      directorTo: sql<string | null>`${currentEntryColumn(sql`${directorEntries.to}::text`)}`,
    })
    .from(groups)
    .where(eq(groups.id, sql.placeholder('id')))
    .limit(1),
);

/** The group and its current associate director (currentManagerId's rule) in one read; 404 as findGroupOr404. */
export async function findGroupAndManagerOr404(
  db: DbOrTx,
  id: string,
): Promise<{ group: GroupRow; managerId: string | null }> {
  if (!isUuid(id)) throw notFound('Group not found.');
  const [row] = await groupWithDirector(db, { id });
  if (!row) throw notFound('Group not found.');
  return { group: row.group, managerId: inOffice({ userId: row.directorId, to: row.directorTo }) };
}

/**
 * Is this person, as they are on this request, the leader the group's current entry names? The entry must name them,
 * and their current role must be associate_director in that very group (decision 030): the entry is what an admin
 * wrote into the history, the role and group what an admin decided about the person now, and both must agree. So a
 * role or group change ends the rights at once, on every node, as the actor is read afresh on every request.
 */
const leads = (actor: Actor, groupId: string, managerId: string | null): boolean =>
  managerId !== null && managerId === actor.id && actor.role === 'associate_director' && actor.groupId === groupId;

/**
 * The groups this person currently leads as associate director (decision 030): at most their own group, when they are
 * an associate director and its current entry names them (the rule of canManageGroup).
 */
export async function groupsLedBy(db: DbOrTx, actor: Actor): Promise<string[]> {
  if (actor.role !== 'associate_director' || !actor.groupId) return [];
  return leads(actor, actor.groupId, await currentManagerId(db, actor.groupId)) ? [actor.groupId] : [];
}

/** The groups this person currently leads, for rules evaluated in SQL such as the portal search (groupsLedBy). */
export const managedGroupIds = (db: DbOrTx, actor: Actor): Promise<string[]> => groupsLedBy(db, actor);

/** May this person edit the group's information, notices, files and office? Admins, and its current associate director. */
export async function canManageGroup(db: DbOrTx, actor: Actor, groupId: string): Promise<boolean> {
  if (actor.role === 'admin') return true;
  if (actor.role !== 'associate_director' || actor.groupId !== groupId) return false;
  return mayManageGroup(actor, groupId, await currentManagerId(db, groupId));
}

/** canManageGroup's rule, given the group's current associate director. */
export const mayManageGroup = (actor: Actor, groupId: string, managerId: string | null): boolean =>
  actor.role === 'admin' || leads(actor, groupId, managerId);

/**
 * May this person see the group page? Spec §6: role director or admin, or a member of the group (its current
 * associate director is one: decision 030).
 */
export async function canViewGroup(_db: DbOrTx, actor: Actor, groupId: string): Promise<boolean> {
  return mayViewGroup(actor, groupId);
}

/** canViewGroup's rule. */
export const mayViewGroup = (actor: Actor, groupId: string): boolean =>
  actor.role === 'admin' || actor.role === 'director' || actor.groupId === groupId;

/**
 * The groups whose pages this person may see (the rule of canViewGroup for every group at once): null for directors
 * and admins (every group), else their own group.
 */
export async function viewableGroupIds(_db: DbOrTx, actor: Actor): Promise<string[] | null> {
  if (actor.role === 'admin' || actor.role === 'director') return null;
  return actor.groupId ? [actor.groupId] : [];
}

/** Throws the spec's Access Denied (403) unless canViewGroup. */
export async function assertCanViewGroup(db: DbOrTx, actor: Actor, groupId: string): Promise<void> {
  if (!(await canViewGroup(db, actor, groupId))) throw forbidden(ACCESS_DENIED);
}

/** Throws 403 unless canManageGroup. */
export async function assertCanManageGroup(db: DbOrTx, actor: Actor, groupId: string): Promise<void> {
  if (!(await canManageGroup(db, actor, groupId))) throw forbidden(NOT_A_MANAGER);
}

/**
 * Download rule for the private 'group-files' area (group notices, circulars and the five file kinds): whoever may
 * view the group that owns the file. Admins are let through before this runs (files.policy.ts).
 */
export async function canOpenGroupFile(db: DbOrTx, actor: Actor, fileId: string): Promise<boolean> {
  const [item] = await db
    .select({ groupId: groupItems.groupId })
    .from(groupItems)
    .where(eq(groupItems.fileId, fileId))
    .limit(1);
  if (!item) return false;
  return canViewGroup(db, actor, item.groupId);
}

/** Who may do what in this module (decision 035). */
export const groupsPolicy = definePolicy({
  /** Creating, deleting and staffing groups (spec §5 Groups): admins. */
  'groups.administer': adminsOnly,
});
