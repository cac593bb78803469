import { and, eq, getTableColumns, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { prepared } from '#server/db/prepared.ts';
import { userDocuments, type UserRow, users } from '#server/db/schema/index.ts';
import { containsPattern } from '#server/lib/search.ts';
import { groups } from '#server/modules/groups/groups.view.ts';

import { administrators } from './users.policy.ts';

/*
 * Read-only user look-ups that other modules (auth, audit) use. They import nothing that writes, so the users service
 * (which records activity) and the modules it calls never form an import cycle.
 */

export interface UserWithGroup {
  user: UserRow;
  group: { id: string; name: string } | null;
}

const userWithGroupById = prepared('user_with_group_by_id', (db) =>
  db
    .select({ user: getTableColumns(users), group: { id: groups.id, name: groups.name } })
    .from(users)
    .leftJoin(groups, eq(users.groupId, groups.id))
    .where(eq(users.id, sql.placeholder('id')))
    .limit(1),
);

/** One user with the group they belong to, or undefined. */
export async function findUserById(db: DbOrTx, id: string): Promise<UserWithGroup | undefined> {
  const [row] = await userWithGroupById(db, { id });
  return row ? { user: row.user, group: row.group?.id ? row.group : null } : undefined;
}

/** Looks a user up by email, case-insensitively. */
export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
    .limit(1);
  return row;
}

/** Name or email contains the text, case-insensitively (trigram indexes users_name_trgm_idx, users_email_trgm_idx). */
export const userMatches = (q: string): SQL =>
  or(ilike(users.name, containsPattern(q)), ilike(users.email, containsPattern(q)))!;

/** The person whose record holds this document file, or null (the download rule of the 'user-documents' area). */
export async function documentOwnerOf(db: DbOrTx, fileId: string): Promise<string | null> {
  const [doc] = await db
    .select({ userId: userDocuments.userId })
    .from(userDocuments)
    .where(eq(userDocuments.fileId, fileId))
    .limit(1);
  return doc?.userId ?? null;
}

/** These people's names and emails. */
export async function namesByIds(db: DbOrTx, ids: string[]): Promise<{ id: string; name: string; email: string }[]> {
  if (!ids.length) return [];
  return db.select({ id: users.id, name: users.name, email: users.email }).from(users).where(inArray(users.id, ids));
}

/** The ids of the approved administrators: whom the portal tells of a security event (decision 115). */
export async function approvedAdminIds(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(administrators(), eq(users.status, 'approved')));
  return rows.map((r) => r.id);
}

/** Keeps a stored file as a document of this person's record. */
export async function insertUserDocument(
  db: DbOrTx,
  values: { userId: string; fileId: string; filename: string; uploadedBy: string },
): Promise<typeof userDocuments.$inferSelect> {
  const [doc] = await db.insert(userDocuments).values(values).returning();
  return doc!;
}

/** Removes a document from this person's record: the removed row, or undefined when it is not theirs. */
export async function deleteUserDocument(
  db: DbOrTx,
  userId: string,
  documentId: string,
): Promise<typeof userDocuments.$inferSelect | undefined> {
  const [doc] = await db
    .delete(userDocuments)
    .where(and(eq(userDocuments.id, documentId), eq(userDocuments.userId, userId)))
    .returning();
  return doc;
}

/** What the mail decision reads of each person (decision 104): their role and stored mail choices. */
export async function mailChoicesOf(
  db: DbOrTx,
  ids: string[],
): Promise<Pick<UserRow, 'id' | 'role' | 'mailPreferences'>[]> {
  if (!ids.length) return [];
  return db
    .select({ id: users.id, role: users.role, mailPreferences: users.mailPreferences })
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
}

/** Puts these people in a group, or in none (the groups module's staff moves; it records the activity). */
export async function setGroupOf(db: DbOrTx, userIds: string[], groupId: string | null): Promise<void> {
  if (!userIds.length) return;
  await db.update(users).set({ groupId }).where(inArray(users.id, userIds));
}

/** The person's stored mail choices, their row locked until the transaction ends (the mail module changes them). */
export async function lockMailPreferences(tx: DbOrTx, userId: string): Promise<UserRow['mailPreferences'] | undefined> {
  const [me] = await tx
    .select({ mailPreferences: users.mailPreferences })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return me?.mailPreferences;
}

/** Keeps the person's mail choices (the mail module checks and logs the change). */
export async function setMailPreferences(
  tx: DbOrTx,
  userId: string,
  mailPreferences: UserRow['mailPreferences'],
): Promise<void> {
  await tx.update(users).set({ mailPreferences }).where(eq(users.id, userId));
}
