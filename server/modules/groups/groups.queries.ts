import { asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { prepared } from '#server/db/prepared.ts';
import { groupItems, type GroupRow, groups } from '#server/db/schema/index.ts';
import { notFound } from '#server/lib/errors.ts';
import { isUuid } from '#server/lib/ids.ts';
import {
  currentGroupEntry,
  currentGroupEntryColumn,
} from '#server/modules/director-history/director-history.queries.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { groupsPolicy, leadableGroupOf, leadsGroup } from './groups.policy.ts';

/**
 * The facts the groups policy decides on, read from the database: the group, and its current associate director
 * (decision 006). The rules themselves are in groups.policy.ts.
 */

/** The group, or 404 'Group not found.' (a malformed id is simply not found). */
export async function findGroupOr404(db: DbOrTx, id: string): Promise<GroupRow> {
  if (!isUuid(id)) throw notFound('groups.not_found');
  const group = await findGroupById(db, id);
  if (!group) throw notFound('groups.not_found');
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

/** The id the group's current director entry names while in office (decision 006), or null. */
const inOffice = (entry: { userId: string | null; to: string | null } | undefined): string | null =>
  !entry?.userId || (entry.to && entry.to < todayInIndia()) ? null : entry.userId;

/**
 * The user id of the group's current associate director while in office: the entry with no end date (else the
 * latest), counted only while its end date has not passed and it names a user (decision 006).
 */
export async function currentManagerId(db: DbOrTx, groupId: string): Promise<string | null> {
  return inOffice(await currentGroupEntry(db, groupId));
}

// The group page's one read: the group row with its current director entry, instead of two round trips.
const groupWithDirector = prepared('group_with_current_director', (db) =>
  db
    .select({
      group: getTableColumns(groups),
      directorId: sql<string | null>`${currentGroupEntryColumn(groups.id, 'userId')}`,
      directorTo: sql<string | null>`${currentGroupEntryColumn(groups.id, 'to')}`,
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
  if (!isUuid(id)) throw notFound('groups.not_found');
  const [row] = await groupWithDirector(db, { id });
  if (!row) throw notFound('groups.not_found');
  return { group: row.group, managerId: inOffice({ userId: row.directorId, to: row.directorTo }) };
}

/**
 * The facts 'groups.manage' needs about this group for this person: the current associate director, read only when
 * the person could be it (an associate director of this very group); nobody else's rights depend on it.
 */
async function manageFacts(db: DbOrTx, actor: Actor, groupId: string) {
  const managerId = leadableGroupOf(actor) === groupId ? await currentManagerId(db, groupId) : null;
  return { groupId, managerId };
}

/**
 * The groups this person currently leads as associate director (decision 030): at most their own group, when they are
 * an associate director and its current entry names them.
 */
export async function groupsLedBy(db: DbOrTx, actor: Actor): Promise<string[]> {
  const groupId = leadableGroupOf(actor);
  if (!groupId) return [];
  return leadsGroup(actor, await manageFacts(db, actor, groupId)) ? [groupId] : [];
}

/** The groups this person currently leads, for rules evaluated in SQL such as the portal search (groupsLedBy). */
export const managedGroupIds = (db: DbOrTx, actor: Actor): Promise<string[]> => groupsLedBy(db, actor);

/** May this person edit the group's information, notices, files and office? 'groups.manage' on the loaded facts. */
export async function canManageGroup(db: DbOrTx, actor: Actor, groupId: string): Promise<boolean> {
  return groupsPolicy.allows(actor, 'groups.manage', await manageFacts(db, actor, groupId));
}

/** Throws 403 unless the person may manage the group ('groups.manage'). */
export async function assertCanManageGroup(db: DbOrTx, actor: Actor, groupId: string): Promise<void> {
  groupsPolicy.authorize(actor, 'groups.manage', await manageFacts(db, actor, groupId));
}

/**
 * Download rule for the private 'group-files' area (group notices, circulars and the five file kinds): whoever may
 * view the group that owns the file. Admins are let through before this runs (file-access.ts).
 */
export async function canOpenGroupFile(db: DbOrTx, actor: Actor, fileId: string): Promise<boolean> {
  const [item] = await db
    .select({ groupId: groupItems.groupId })
    .from(groupItems)
    .where(eq(groupItems.fileId, fileId))
    .limit(1);
  return item ? groupsPolicy.allows(actor, 'groups.view', { groupId: item.groupId }) : false;
}

/** These groups' names (decision 103: other modules read groups through these functions). */
export async function groupNamesByIds(db: DbOrTx, ids: string[]): Promise<{ id: string; name: string }[]> {
  if (!ids.length) return [];
  return db.select({ id: groups.id, name: groups.name }).from(groups).where(inArray(groups.id, ids));
}

/** These groups (or every group), id and name, in the order of their names. */
export async function groupNamesByName(db: DbOrTx, ids: string[] | 'all'): Promise<{ id: string; name: string }[]> {
  if (ids !== 'all' && !ids.length) return [];
  return db
    .select({ id: groups.id, name: groups.name })
    .from(groups)
    .where(ids === 'all' ? undefined : inArray(groups.id, ids))
    .orderBy(asc(groups.name));
}
