import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';

import type { CloseGroupValues, DocumentClassification } from '#shared/schemas/close-group.ts';

import type { Db, DbOrTx } from '#server/db/client.ts';
import { prepared } from '#server/db/prepared.ts';
import { closeGroupDocuments, closeGroupMembers, closeGroups } from '#server/db/schema/index.ts';
import { badRequest, notFound } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { type AuditWho, recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import { files } from '#server/modules/files/files.view.ts';
import { type FileStore, transactionDroppingFiles } from '#server/modules/files/storage.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { closeGroupsPolicy, eligibleMembers } from './close-groups.policy.ts';

/**
 * Close groups (docs/decisions/007, 105): the groups, their members and time box, and who may see them; listing,
 * creating, changing and deleting a group. Its documents are close-groups.documents.ts.
 */

export const CLOSE_GROUP_AREA = 'close-groups';

export type CloseGroupRow = typeof closeGroups.$inferSelect;
export type CloseGroupDocumentRow = typeof closeGroupDocuments.$inferSelect;

export interface CloseGroupMember {
  id: string;
  name: string;
  email: string;
}
export interface CloseGroupDocument {
  id: string;
  filename: string;
  fileId: string;
  size: number;
  uploadedBy: { id: string; name: string } | null;
  uploadedAt: Date;
  classification: DocumentClassification;
}
/** A close group with its members and documents, ready to present. */
export interface CloseGroupDetail {
  group: CloseGroupRow;
  members: CloseGroupMember[];
  documents: CloseGroupDocument[];
}

/** Is this user one of the close group's members (its requestedBy)? */
async function isCloseGroupMember(db: DbOrTx, closeGroupId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: closeGroupMembers.userId })
    .from(closeGroupMembers)
    .where(and(eq(closeGroupMembers.closeGroupId, closeGroupId), eq(closeGroupMembers.userId, userId)))
    .limit(1);
  return Boolean(row);
}

/** Throws 403 unless the actor may see the close group and its documents (its members and admins: the policy). */
export async function assertCanViewCloseGroup(db: DbOrTx, actor: Actor, closeGroupId: string): Promise<void> {
  const isMember = await isCloseGroupMember(db, closeGroupId, actor.id);
  closeGroupsPolicy.authorize(actor, 'close_groups.view', { isMember });
}

/** Loads members (by name) and documents (newest first) for the given close groups, in two queries. */
async function withDetails(db: DbOrTx, rows: CloseGroupRow[]): Promise<CloseGroupDetail[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const members = await db
    .select({ closeGroupId: closeGroupMembers.closeGroupId, id: users.id, name: users.name, email: users.email })
    .from(closeGroupMembers)
    .innerJoin(users, eq(users.id, closeGroupMembers.userId))
    .where(inArray(closeGroupMembers.closeGroupId, ids))
    .orderBy(asc(users.name), asc(users.email));
  const documents = await db
    .select({
      closeGroupId: closeGroupDocuments.closeGroupId,
      id: closeGroupDocuments.id,
      filename: closeGroupDocuments.filename,
      fileId: closeGroupDocuments.fileId,
      size: files.size,
      uploadedAt: closeGroupDocuments.uploadedAt,
      classification: closeGroupDocuments.classification,
      uploaderId: users.id,
      uploaderName: users.name,
    })
    .from(closeGroupDocuments)
    .innerJoin(files, eq(files.id, closeGroupDocuments.fileId))
    .leftJoin(users, eq(users.id, closeGroupDocuments.uploadedBy))
    .where(inArray(closeGroupDocuments.closeGroupId, ids))
    .orderBy(desc(closeGroupDocuments.uploadedAt), asc(closeGroupDocuments.id));
  return rows.map((group) => ({
    group,
    members: members.filter((m) => m.closeGroupId === group.id).map(({ id, name, email }) => ({ id, name, email })),
    documents: documents
      .filter((d) => d.closeGroupId === group.id)
      .map((d) => ({
        id: d.id,
        filename: d.filename,
        fileId: d.fileId,
        size: d.size,
        uploadedBy: d.uploaderId ? { id: d.uploaderId, name: d.uploaderName ?? '' } : null,
        uploadedAt: d.uploadedAt,
        classification: d.classification,
      })),
  }));
}

// Latest-ending first: running and recent groups lead, long-finished ones sink.
const listOrder = [desc(closeGroups.durationTo), desc(closeGroups.createdAt), asc(closeGroups.id)];

/** A page of a list; without one the whole list is answered. */
export interface Page {
  limit: number;
  offset: number;
}

/** Every close group (a page of them when asked), with the total. Callers check that the actor is an admin. */
export async function listCloseGroups(db: Db, page?: Page) {
  const query = db
    .select()
    .from(closeGroups)
    .orderBy(...listOrder);
  const rows = page ? await query.limit(page.limit).offset(page.offset) : await query;
  let total = rows.length;
  if (page) [{ total } = { total: 0 }] = await db.select({ total: count() }).from(closeGroups);
  return { items: await withDetails(db, rows), total };
}

/**
 * The close groups the actor belongs to (the user id comes from the token, spec §6). An admin sees every close group,
 * since an admin may read and tidy any of them (docs/decisions/007).
 */
export async function listCloseGroupsOf(db: Db, actor: Actor, page?: Page) {
  if (closeGroupsPolicy.allows(actor, 'close_groups.administer')) return listCloseGroups(db, page);
  const mine = eq(closeGroupMembers.userId, actor.id);
  const query = db
    .select({ group: closeGroups })
    .from(closeGroups)
    .innerJoin(closeGroupMembers, eq(closeGroupMembers.closeGroupId, closeGroups.id))
    .where(mine)
    .orderBy(...listOrder);
  const rows = page ? await query.limit(page.limit).offset(page.offset) : await query;
  let total = rows.length;
  if (page) [{ total } = { total: 0 }] = await db.select({ total: count() }).from(closeGroupMembers).where(mine);
  return {
    items: await withDetails(
      db,
      rows.map((r) => r.group),
    ),
    total,
  };
}

/**
 * The close groups a person is a member of (spec §3 User: closeGroup), latest-ending first, without their documents.
 * Callers check that the actor may read this person's record (the person or an admin).
 */
export async function listCloseGroupsOfUser(db: DbOrTx, userId: string): Promise<CloseGroupRow[]> {
  return (await closeGroupsOfUser(db, { userId })).map((r) => r.group);
}

// Read with every profile: built once (db/prepared.ts).
const closeGroupsOfUser = prepared('close_groups_of_user', (db) =>
  db
    .select({ group: closeGroups })
    .from(closeGroups)
    .innerJoin(closeGroupMembers, eq(closeGroupMembers.closeGroupId, closeGroups.id))
    .where(eq(closeGroupMembers.userId, sql.placeholder('userId')))
    .orderBy(...listOrder),
);

/** One close group with members and documents, or 404. Callers check who may see it. */
export async function findCloseGroup(db: DbOrTx, id: string): Promise<CloseGroupDetail> {
  const [row] = await db.select().from(closeGroups).where(eq(closeGroups.id, id)).limit(1);
  if (!row) throw notFound('close_groups.not_found');
  const [detail] = await withDetails(db, [row]);
  return detail!;
}

/** Requested By must name approved staff: a typo'd, pending or deactivated account cannot join. */
async function assertMembersExist(db: DbOrTx, ids: string[]): Promise<void> {
  const found = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), eligibleMembers()));
  if (found.length !== ids.length) {
    throw badRequest('close_groups.members_not_found', 'requestedBy');
  }
}

const columnsOf = (values: CloseGroupValues) => ({
  groupName: values.groupName,
  groupPurpose: values.groupPurpose,
  durationFrom: values.groupDuration.from,
  durationTo: values.groupDuration.to,
  adminRemarks: values.adminRemarks,
});

/**
 * Records in the audit trail who a write gave or took a close group's documents from (decision 069): one
 * `close_group_members_changed` event naming the members added and removed, with their names as they are now. A
 * write that changes no one records nothing.
 */
async function recordMembershipChange(
  tx: DbOrTx,
  who: AuditWho,
  group: { id: string; groupName: string },
  before: string[],
  after: string[],
): Promise<void> {
  const added = after.filter((id) => !before.includes(id));
  const removed = before.filter((id) => !after.includes(id));
  if (!added.length && !removed.length) return;
  const people = await tx
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(inArray(users.id, [...added, ...removed]));
  const named = (ids: string[]) => ids.map((id) => ({ _id: id, name: people.find((p) => p.id === id)?.name ?? '' }));
  await recordAudit(tx, who, {
    action: 'close_group_members_changed',
    object: { type: 'close_group', id: group.id, label: group.groupName },
    outcome: 'success',
    details: { added: named(added), removed: named(removed) },
  });
}

/** Creates a close group with its members. Callers check that the actor is an admin. */
export async function createCloseGroup(
  db: Db,
  actor: Actor,
  who: AuditWho,
  values: CloseGroupValues,
): Promise<CloseGroupDetail> {
  return db.transaction(async (tx) => {
    await assertMembersExist(tx, values.requestedBy);
    const [group] = await tx
      .insert(closeGroups)
      .values({ ...columnsOf(values), createdBy: actor.id })
      .returning();
    await tx
      .insert(closeGroupMembers)
      .values(values.requestedBy.map((userId) => ({ closeGroupId: group!.id, userId })));
    const target = { type: 'close_group', id: group!.id };
    await recordActivity(tx, actor, 'activity.close_group_created', { group: group!.groupName }, target);
    await recordMembershipChange(tx, who, group!, [], values.requestedBy);
    return findCloseGroup(tx, group!.id);
  });
}

/**
 * Replaces a close group's fields and members; moving the end date later is how an admin extends the time box.
 * Callers check that the actor is an admin.
 */
export async function updateCloseGroup(
  db: Db,
  actor: Actor,
  who: AuditWho,
  id: string,
  values: CloseGroupValues,
): Promise<CloseGroupDetail> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(closeGroups).where(eq(closeGroups.id, id)).limit(1).for('update');
    if (!before) throw notFound('close_groups.not_found');
    await assertMembersExist(tx, values.requestedBy);
    const members = await tx
      .select({ userId: closeGroupMembers.userId })
      .from(closeGroupMembers)
      .where(eq(closeGroupMembers.closeGroupId, id));
    await tx.update(closeGroups).set(columnsOf(values)).where(eq(closeGroups.id, id));
    await tx.delete(closeGroupMembers).where(eq(closeGroupMembers.closeGroupId, id));
    await tx.insert(closeGroupMembers).values(values.requestedBy.map((userId) => ({ closeGroupId: id, userId })));
    const extended = values.groupDuration.to > before.durationTo;
    await recordActivity(
      tx,
      actor,
      extended ? 'activity.close_group_extended' : 'activity.close_group_updated',
      extended ? { group: values.groupName, toDate: values.groupDuration.to } : { group: values.groupName },
      { type: 'close_group', id },
    );
    await recordMembershipChange(
      tx,
      who,
      { id, groupName: values.groupName },
      members.map((m) => m.userId),
      values.requestedBy,
    );
    return findCloseGroup(tx, id);
  });
}

/** Deletes a close group, its documents and their files (rows in the transaction, bytes after it commits). Admins only. */
export async function deleteCloseGroup(
  db: Db,
  store: FileStore,
  actor: Actor,
  who: AuditWho,
  id: string,
): Promise<void> {
  await transactionDroppingFiles(db, store, async (tx, dropFiles) => {
    const [group] = await tx.select().from(closeGroups).where(eq(closeGroups.id, id)).limit(1).for('update');
    if (!group) throw notFound('close_groups.not_found');
    const members = await tx
      .select({ userId: closeGroupMembers.userId })
      .from(closeGroupMembers)
      .where(eq(closeGroupMembers.closeGroupId, id));
    await recordMembershipChange(
      tx,
      who,
      group,
      members.map((m) => m.userId),
      [],
    );
    const docs = await tx
      .select({ fileId: closeGroupDocuments.fileId })
      .from(closeGroupDocuments)
      .where(eq(closeGroupDocuments.closeGroupId, id));
    await tx.delete(closeGroups).where(eq(closeGroups.id, id)); // members and document rows cascade
    const ids = docs.map((d) => d.fileId);
    await dropFiles(ids);
    await recordActivity(
      tx,
      actor,
      'activity.close_group_deleted',
      { group: group.groupName, n: ids.length },
      { type: 'close_group', id },
    );
  });
}
