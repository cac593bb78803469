import { and, asc, eq } from 'drizzle-orm';
import type { z } from 'zod';

import type { Role } from '#shared/constants.ts';
import type { approveUserInput } from '#shared/schemas/auth.ts';

import type { MailConfig, PasswordPolicy } from '#server/config.ts';
import type { Db, Tx } from '#server/db/client.ts';
import { type UserRow, users } from '#server/db/schema/index.ts';
import { badRequest, conflict, notFound } from '#server/lib/errors.ts';
import { countWhere } from '#server/lib/paging.ts';
import { hashPassword } from '#server/lib/passwords.ts';
import { accessChanges, roleWord } from '#server/modules/audit/activity-words.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import type { AuditWho } from '#server/modules/audit-trail/audit-trail.ts';
import { recordUserChanges } from '#server/modules/audit-trail/user-changes.ts';
import {
  type FileStore,
  saveFileRow,
  type StoredFile,
  transactionDroppingFiles,
} from '#server/modules/files/storage.ts';
import { findGroupById } from '#server/modules/groups/groups.queries.ts';
import { firstLabId, labExists } from '#server/modules/labs/labs.queries.ts';
import { countClassifiedHeldBy } from '#server/modules/letters/letters.queries.ts';
import { queueMail } from '#server/modules/mail/mail.outbox.ts';
import { setPassword } from '#server/modules/users/password-policy.ts';
import { deleteUserDocument, insertUserDocument } from '#server/modules/users/users.queries.ts';
import type { UserDocument } from '#server/modules/users/users.service.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { adminPolicy, changesRole } from './admin.policy.ts';

/** Users waiting for approval, oldest first. Callers check that the actor is an admin. */
export async function listPendingUsers(db: Db, page: { limit: number; offset: number }): Promise<UserRow[]> {
  return db
    .select()
    .from(users)
    .where(eq(users.status, 'pending'))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** How many users wait for approval (the users_status_idx index). Callers check that the actor is an admin. */
export const countPendingUsers = (db: Db) => countWhere(db, users, eq(users.status, 'pending'));

/**
 * Approves a pending user into a group of the lab with the role the admin chose (it overrides the requested one,
 * spec §4), and tells them by mail when the portal sends mail. Callers check that the actor is an admin.
 */
export async function approveUser(
  db: Db,
  actor: Actor,
  userId: string,
  input: z.output<typeof approveUserInput>,
  who: AuditWho,
  mail: MailConfig | null = null,
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).limit(1).for('update');
    if (!user) throw notFound('users.not_found');
    if (user.status !== 'pending') throw conflict('admin.not_pending');
    const group = await findGroupById(tx, input.groupId);
    if (!group) throw badRequest('admin.group_not_found', 'groupId');
    let labId = input.labId ?? group.labId;
    if (input.labId) {
      if (!(await labExists(tx, input.labId))) throw badRequest('admin.lab_not_found', 'labId');
    }
    if (!labId) {
      labId = await firstLabId(tx);
    }
    const [approved] = await tx
      .update(users)
      .set({
        status: 'approved',
        statusReason: null,
        role: input.role,
        groupId: group.id,
        labId,
        approvedAt: new Date(),
        approvedBy: actor.id,
      })
      .where(and(eq(users.id, userId), eq(users.status, 'pending')))
      .returning();
    await recordActivity(
      tx,
      actor,
      'activity.user_approved',
      { email: user.email, role: roleWord(input.role), group: group.name },
      { type: 'user', id: user.id },
    );
    await recordUserChanges(tx, who, user, approved!);
    await queueMail(tx, mail, user, 'account_approved', { name: user.name, role: input.role, group: group.name });
    return approved!;
  });
}

/** A user row locked for this transaction, or 404. */
async function lockUser(tx: Tx, userId: string): Promise<UserRow> {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).limit(1).for('update');
  if (!user) throw notFound('users.not_found');
  return user;
}

/**
 * Refuses a pending registration with a reason, which the person is told when they try to sign in (decision 005) and
 * by mail when the portal sends mail. Callers check that the actor is an admin.
 */
export async function rejectUser(
  db: Db,
  actor: Actor,
  userId: string,
  reason: string,
  who: AuditWho,
  mail: MailConfig | null = null,
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, userId);
    if (user.status !== 'pending') throw conflict('admin.not_pending');
    const [rejected] = await tx
      .update(users)
      .set({ status: 'rejected', statusReason: reason, sessionsValidAfter: new Date() })
      .where(eq(users.id, userId))
      .returning();
    await recordActivity(
      tx,
      actor,
      'activity.user_rejected',
      { email: user.email, reason },
      { type: 'user', id: user.id },
    );
    await recordUserChanges(tx, who, user, rejected!, { reason });
    await queueMail(tx, mail, user, 'account_rejected', { name: user.name, reason });
    return rejected!;
  });
}

/**
 * Manage Users: gives an approved or deactivated account another role and group. An admin may not change their own
 * role, so the portal never loses its last administrator by accident. Callers check that the actor is an admin.
 */
export async function updateUserAccess(
  db: Db,
  actor: Actor,
  userId: string,
  input: { role: Exclude<Role, 'pending_director'>; groupId: string | null },
  who: AuditWho,
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, userId);
    if (user.status === 'pending' || user.status === 'rejected') {
      throw conflict('admin.approve_first');
    }
    adminPolicy.authorize(actor, 'people.change_role', { user, role: input.role });
    let group: { id: string; name: string } | undefined;
    if (input.groupId) {
      group = await findGroupById(tx, input.groupId);
      if (!group) throw badRequest('admin.group_not_found', 'groupId');
    }
    if (!changesRole(user, input.role) && user.groupId === (group?.id ?? null)) return user;
    const [saved] = await tx
      .update(users)
      .set({ role: input.role, groupId: group?.id ?? null })
      .where(eq(users.id, userId))
      .returning();
    const changes = accessChanges(
      changesRole(user, input.role) ? { from: user.role, to: input.role } : null,
      user.groupId !== (group?.id ?? null) ? (group?.name ?? null) : undefined,
    );
    await recordActivity(
      tx,
      actor,
      'activity.user_access_changed',
      { email: user.email, changes },
      {
        type: 'user',
        id: user.id,
      },
    );
    await recordUserChanges(tx, who, user, saved!);
    return saved!;
  });
}

/**
 * Clears an account for Confidential and Secret letters, or withdraws the clearance (decision 020; Manage Users). A
 * clearance cannot be withdrawn while the person holds such a letter: it must be closed or marked on first, so no
 * letter is left with someone who may no longer see it. Callers check that the actor is an admin.
 */
export async function setClassifiedClearance(
  db: Db,
  actor: Actor,
  userId: string,
  cleared: boolean,
  who: AuditWho,
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, userId);
    if (user.classifiedClearance === cleared) return user;
    if (!cleared) {
      const held = await countClassifiedHeldBy(tx, userId);
      adminPolicy.authorize(actor, 'people.withdraw_clearance', { user, held });
    }
    const [saved] = await tx
      .update(users)
      .set({ classifiedClearance: cleared })
      .where(eq(users.id, userId))
      .returning();
    await recordActivity(
      tx,
      actor,
      cleared ? 'activity.user_cleared' : 'activity.user_clearance_withdrawn',
      { email: user.email },
      { type: 'user', id: user.id },
    );
    await recordUserChanges(tx, who, user, saved!);
    return saved!;
  });
}

/**
 * Stops an approved account: it can no longer sign in and every token it holds stops working at once. An admin may
 * not deactivate themself. Callers check that the actor is an admin.
 */
export async function deactivateUser(
  db: Db,
  actor: Actor,
  userId: string,
  reason: string,
  who: AuditWho,
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, userId);
    if (user.id === actor.id) throw badRequest('admin.own_deactivation');
    if (user.status !== 'approved') throw conflict('admin.not_active');
    const [saved] = await tx
      .update(users)
      .set({ status: 'deactivated', statusReason: reason || null, sessionsValidAfter: new Date() })
      .where(eq(users.id, userId))
      .returning();
    await recordActivity(
      tx,
      actor,
      reason ? 'activity.user_deactivated_reason' : 'activity.user_deactivated',
      reason ? { email: user.email, reason } : { email: user.email },
      { type: 'user', id: user.id },
    );
    await recordUserChanges(tx, who, user, saved!, { reason });
    return saved!;
  });
}

/** Lets a deactivated account sign in again (with a fresh sign-in). Callers check that the actor is an admin. */
export async function reactivateUser(db: Db, actor: Actor, userId: string, who: AuditWho): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, userId);
    if (user.status !== 'deactivated') throw conflict('admin.not_deactivated');
    const [saved] = await tx
      .update(users)
      .set({ status: 'approved', statusReason: null })
      .where(eq(users.id, userId))
      .returning();
    await recordActivity(tx, actor, 'activity.user_reactivated', { email: user.email }, { type: 'user', id: user.id });
    await recordUserChanges(tx, who, user, saved!);
    return saved!;
  });
}

/**
 * Sets a new password an admin chose for a user, and ends every session that user has. Callers check that the actor
 * is an admin.
 */
export async function resetUserPassword(
  db: Db,
  policy: PasswordPolicy,
  actor: Actor,
  userId: string,
  newPassword: string,
): Promise<UserRow> {
  const passwordHash = await hashPassword(newPassword);
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, userId);
    // Kept in the person's history; never compared, so an admin learns nothing of the person's earlier passwords.
    const saved = await setPassword(tx, policy, user, passwordHash);
    await recordActivity(
      tx,
      actor,
      'activity.user_password_reset',
      { email: user.email },
      { type: 'user', id: user.id },
    );
    return saved;
  });
}

/**
 * Keeps an uploaded document on a user's record. The stored file is the caller's until this succeeds (they discard
 * it on failure). Callers check that the actor is an admin.
 */
export async function addUserDocument(db: Db, actor: Actor, userId: string, file: StoredFile): Promise<UserDocument> {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, userId);
    const row = await saveFileRow(tx, file, actor.id);
    const doc = await insertUserDocument(tx, {
      userId,
      fileId: row.id,
      filename: file.originalName,
      uploadedBy: actor.id,
    });
    await recordActivity(
      tx,
      actor,
      'activity.user_document_added',
      { file: file.originalName, email: user.email },
      { type: 'user', id: userId },
    );
    return doc!;
  });
}

/** Removes a document from a user's record, and its file. Callers check that the actor is an admin. */
export async function removeUserDocument(
  db: Db,
  store: FileStore,
  actor: Actor,
  userId: string,
  documentId: string,
): Promise<void> {
  await transactionDroppingFiles(db, store, async (tx, dropFiles) => {
    const user = await lockUser(tx, userId);
    const doc = await deleteUserDocument(tx, userId, documentId);
    if (!doc) throw notFound('admin.document_not_found');
    await dropFiles([doc.fileId]);
    await recordActivity(
      tx,
      actor,
      'activity.user_document_removed',
      { file: doc.filename, email: user.email },
      { type: 'user', id: userId },
    );
  });
}
