import { and, asc, count, eq, getTableColumns, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';

import type { Role, UserStatus } from '#shared/constants.ts';
import type { updateProfileInput } from '#shared/schemas/user.ts';

import type { PasswordPolicy } from '#server/config.ts';
import type { Db, DbOrTx } from '#server/db/client.ts';
import { prepared } from '#server/db/prepared.ts';
import { userDocuments, type UserRow, users } from '#server/db/schema/index.ts';
import { badRequest, notFound } from '#server/lib/errors.ts';
import { hashPassword, passwordMatches } from '#server/lib/passwords.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import {
  type FileStore,
  saveFileRow,
  type StoredFile,
  transactionDroppingFiles,
} from '#server/modules/files/storage.ts';
import { groups } from '#server/modules/groups/groups.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { assertPasswordNotRecent, setPassword } from './password-policy.ts';
import { withRole } from './users.policy.ts';
import { userMatches, type UserWithGroup } from './users.queries.ts';

export interface UserDocument {
  id: string;
  userId: string;
  fileId: string;
  filename: string;
  createdAt: Date;
}

export interface UserFilter {
  role?: Role;
  groupId?: string;
  /** Only accounts in this state; undefined means every state. */
  status?: UserStatus;
  q?: string;
}

/** What the staff directory shows of a person (presentDirectoryUser): a search reads these columns only. */
const directoryColumns = {
  id: users.id,
  email: users.email,
  role: users.role,
  photoFileId: users.photoFileId,
  name: users.name,
  designation: users.designation,
  cadre: users.cadre,
  intercom: users.intercom,
};
export interface DirectoryUserRow {
  user: Pick<UserRow, keyof typeof directoryColumns>;
  group: { id: string; name: string } | null;
}

/**
 * Users matching the filter, by name, with their groups; `total` counts every match when a page is asked for.
 * Searches run in the database (trigram indexes on name and email). Callers decide who may list whom.
 */
export async function searchUsers(
  db: DbOrTx,
  filter: UserFilter,
  page?: { limit: number; offset: number },
): Promise<{ rows: UserWithGroup[]; total: number }> {
  return (await findUsers(db, filter, page, getTableColumns(users))) as { rows: UserWithGroup[]; total: number };
}

/** searchUsers for the staff directory: the same matches, with only the columns a directory card shows. */
export async function searchDirectory(
  db: DbOrTx,
  filter: UserFilter,
  page?: { limit: number; offset: number },
): Promise<{ rows: DirectoryUserRow[]; total: number }> {
  return (await findUsers(db, filter, page, directoryColumns)) as { rows: DirectoryUserRow[]; total: number };
}

async function findUsers(
  db: DbOrTx,
  filter: UserFilter,
  page: { limit: number; offset: number } | undefined,
  columns: Partial<ReturnType<typeof getTableColumns<typeof users>>>,
) {
  const conditions: SQL[] = [];
  if (filter.status) conditions.push(eq(users.status, filter.status));
  if (filter.role) conditions.push(withRole(filter.role));
  if (filter.groupId) conditions.push(eq(users.groupId, filter.groupId));
  if (filter.q) conditions.push(userMatches(filter.q));
  const where = conditions.length ? and(...conditions) : undefined;
  const query = db
    .select({ user: columns as typeof directoryColumns, group: { id: groups.id, name: groups.name } })
    .from(users)
    .leftJoin(groups, eq(users.groupId, groups.id))
    .where(where)
    .orderBy(asc(users.name), asc(users.id));
  const found = page ? await query.limit(page.limit).offset(page.offset) : await query;
  const rows = found.map((r) => ({ user: r.user, group: r.group?.id ? r.group : null }));
  let total = rows.length;
  if (page && !(page.offset === 0 && rows.length < page.limit)) {
    [{ total } = { total: 0 }] = await db.select({ total: count() }).from(users).where(where);
  }
  return { rows, total };
}

/** The documents kept on these users' records, oldest first, by user id. */
export async function listUserDocuments(db: DbOrTx, userIds: string[]): Promise<Map<string, UserDocument[]>> {
  const byUser = new Map<string, UserDocument[]>(userIds.map((id) => [id, []]));
  if (!userIds.length) return byUser;
  for (const row of await documentsOfUsers(db, { userIds })) byUser.get(row.userId)?.push(row);
  return byUser;
}

// Read with every profile: built once (db/prepared.ts), the ids as one array parameter.
const documentsOfUsers = prepared('user_documents_of_users', (db) =>
  db
    .select({
      id: userDocuments.id,
      userId: userDocuments.userId,
      fileId: userDocuments.fileId,
      filename: userDocuments.filename,
      createdAt: userDocuments.createdAt,
    })
    .from(userDocuments)
    .where(sql`${userDocuments.userId} = any(${sql.placeholder('userIds')}::uuid[])`)
    .orderBy(asc(userDocuments.createdAt), asc(userDocuments.id)),
);

type ProfileUpdate = z.output<typeof updateProfileInput>;

/**
 * Saves the sections of a profile that were sent (spec §7 PUT /api/users/{id}). Email, role, status and password are
 * never changed here. Callers check that the actor is the owner or an admin (users.policy.ts).
 */
export async function updateProfile(db: Db, actor: Actor, userId: string, input: ProfileUpdate): Promise<UserRow> {
  const { personalDetails: p, professionalDetails: q, employmentPeriod: e, socialLinks: s } = input;
  const changes: Partial<UserRow> = {
    ...(p && {
      name: p.name,
      dob: p.dob,
      mobile: p.mobile,
      address: p.address,
      gender: p.gender,
      maritalStatus: p.maritalStatus,
      bloodGroup: p.bloodGroup,
      emergencyName: p.emergencyContact.name,
      emergencyRelationship: p.emergencyContact.relationship,
      emergencyMobile: p.emergencyContact.mobile,
    }),
    ...(q && {
      cadre: q.cadre,
      designation: q.designation,
      intercom: q.intercom,
      internetEmail: q.internetEmail,
      dronaEmail: q.dronaEmail,
      pis: q.pis,
      aebasId: q.aebasId,
      joiningDate: q.joiningDate,
      skills: q.skills,
      qualifications: q.qualifications,
    }),
    ...(input.about !== undefined && { about: input.about }),
    ...(e && { employmentFrom: e.from, employmentTo: e.to }),
    ...(s && { linkedin: s.linkedin, twitter: s.twitter, facebook: s.facebook, github: s.github }),
  };
  if (!Object.keys(changes).length) {
    const [current] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!current) throw notFound('users.not_found');
    return current;
  }
  return db.transaction(async (tx) => {
    // The update locks the row; a profile never changes the email the activity names.
    const [saved] = await tx.update(users).set(changes).where(eq(users.id, userId)).returning();
    if (!saved) throw notFound('users.not_found');
    await recordActivity(
      tx,
      actor,
      actor.id === userId ? 'activity.own_profile_updated' : 'activity.profile_updated',
      actor.id === userId ? undefined : { email: saved.email },
      { type: 'user', id: userId },
    );
    return saved;
  });
}

/**
 * Makes an uploaded image the user's profile photo and removes the one it replaces. The stored file is the caller's
 * until this succeeds (they discard it on failure). Callers check that the actor is the owner or an admin.
 */
export async function setProfilePhoto(
  db: Db,
  store: FileStore,
  actor: Actor,
  userId: string,
  file: StoredFile,
): Promise<UserRow> {
  return transactionDroppingFiles(db, store, async (tx, dropFiles) => {
    const [current] = await tx.select().from(users).where(eq(users.id, userId)).limit(1).for('update');
    if (!current) throw notFound('users.not_found');
    const row = await saveFileRow(tx, file, actor.id);
    const [updated] = await tx.update(users).set({ photoFileId: row.id }).where(eq(users.id, userId)).returning();
    await dropFiles([current.photoFileId]);
    await recordActivity(
      tx,
      actor,
      actor.id === userId ? 'activity.own_photo_changed' : 'activity.photo_changed',
      actor.id === userId ? undefined : { email: current.email },
      { type: 'user', id: userId },
    );
    return updated!;
  });
}

/**
 * Changes the actor's own password after checking the current one, and ends every earlier session
 * (users.sessions_valid_after). Returns the row, from which the caller issues the one new token.
 */
export async function changeOwnPassword(
  db: Db,
  policy: PasswordPolicy,
  actor: Actor,
  currentPassword: string,
  newPassword: string,
): Promise<UserRow> {
  const [user] = await db.select().from(users).where(eq(users.id, actor.id)).limit(1);
  if (!user) throw notFound('users.not_found');
  if (!(await passwordMatches(user.passwordHash, currentPassword)))
    throw badRequest('users.current_password_wrong', 'currentPassword');
  await assertPasswordNotRecent(db, policy, user, newPassword);
  const passwordHash = await hashPassword(newPassword);
  return db.transaction(async (tx) => {
    const saved = await setPassword(tx, policy, user, passwordHash);
    await recordActivity(tx, actor, 'activity.own_password_changed', undefined, { type: 'user', id: actor.id });
    return saved;
  });
}

/**
 * Keeps the language the person chose in the portal (PUT /api/users/me/language, decision 102): their mail is written
 * in it, and the portal opens in it at their next sign-in. The web sends only a switch the person makes. A choice is
 * written (and logged) when it changes the language or is the person's first; the signed-in person sets their own.
 */
export async function setOwnLanguage(db: Db, actor: Actor, language: 'en' | 'hi'): Promise<void> {
  await db.transaction(async (tx) => {
    const [changed] = await tx
      .update(users)
      .set({ language, languageChosenAt: new Date() })
      .where(and(eq(users.id, actor.id), or(sql`${users.language} <> ${language}`, isNull(users.languageChosenAt))))
      .returning({ id: users.id });
    if (!changed) return;
    await recordActivity(
      tx,
      actor,
      language === 'hi' ? 'activity.language_chosen_hi' : 'activity.language_chosen_en',
      undefined,
      { type: 'user', id: actor.id },
    );
  });
}
