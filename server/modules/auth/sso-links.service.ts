import { and, asc, eq } from 'drizzle-orm';

import type { Db, DbOrTx, Tx } from '#server/db/client.ts';
import { ssoLinkRequests, type UserRow, users } from '#server/db/schema/index.ts';
import { conflict, notFound } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { type AuditWho, recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import { userObject } from '#server/modules/audit-trail/user-changes.ts';
import { registrationReceivers } from '#server/modules/mail/mail.policy.ts';
import { notify } from '#server/modules/notifications/notifications.service.ts';
import type { Actor } from '#server/plugins/auth.ts';

/**
 * Single sign-on links an administrator makes, refuses or removes (decision 090). A first single sign-on whose email
 * is an unlinked account's, but which the provider did not verify, may not link itself (decision 063): it leaves a
 * request here, which an admin approves (the account is linked) or dismisses.
 */

/** What the provider said of the person, and the account with that email. */
export interface SsoLinkWish {
  issuer: string;
  subject: string;
  email: string;
  name: string | null;
  userId: string;
}

/**
 * Records (or renews) the request of a provider identity to be linked to an account, in the caller's transaction, and
 * tells the admins under the bell (once per request: a repeat sign-in only moves its time).
 */
export async function requestSsoLink(tx: DbOrTx, wish: SsoLinkWish): Promise<void> {
  const [row] = await tx
    .insert(ssoLinkRequests)
    .values(wish)
    .onConflictDoUpdate({
      target: [ssoLinkRequests.issuer, ssoLinkRequests.subject],
      set: { email: wish.email, name: wish.name, userId: wish.userId, requestedAt: new Date() },
    })
    .returning({ id: ssoLinkRequests.id });
  const admins = await tx.select({ id: users.id }).from(users).where(registrationReceivers());
  // One notice per admin and request (notify ignores a repeat of the same cause).
  await notify(
    tx,
    {
      userIds: admins.map((a) => a.id),
      kind: 'sso_link_requested',
      subjectType: 'user',
      subjectId: wish.userId,
      sourceIds: [row!.id],
    },
    null,
  );
}

/**
 * The audit trail's event of an account's link made or removed (decision 090), in the write's transaction: its issuer
 * before and after (`from`, `to`, as the other access changes of decision 069) and the provider's subject.
 */
export async function recordSsoLinkChange(
  tx: DbOrTx,
  who: AuditWho,
  account: Pick<UserRow, 'id' | 'name' | 'email'>,
  change: { from: string | null; to: string | null; subject: string; via?: 'single_sign_on' },
): Promise<void> {
  await recordAudit(tx, who, {
    action: 'sso_link_changed',
    object: userObject(account),
    outcome: 'success',
    details: change,
  });
}

/** A waiting request with its account, as the approvals screen lists it. */
export interface SsoLinkRequestRow {
  id: string;
  issuer: string;
  email: string;
  name: string | null;
  requestedAt: Date;
  account: Pick<UserRow, 'id' | 'name' | 'email' | 'role' | 'status'>;
}

/** Every waiting request, oldest first (a lab has a handful). Callers check that the actor is an admin. */
export async function listSsoLinkRequests(db: DbOrTx): Promise<SsoLinkRequestRow[]> {
  return db
    .select({
      id: ssoLinkRequests.id,
      issuer: ssoLinkRequests.issuer,
      email: ssoLinkRequests.email,
      name: ssoLinkRequests.name,
      requestedAt: ssoLinkRequests.requestedAt,
      account: { id: users.id, name: users.name, email: users.email, role: users.role, status: users.status },
    })
    .from(ssoLinkRequests)
    .innerJoin(users, eq(users.id, ssoLinkRequests.userId))
    .orderBy(asc(ssoLinkRequests.requestedAt), asc(ssoLinkRequests.id));
}

/** A request locked for this transaction, or 404. */
async function lockRequest(tx: Tx, requestId: string) {
  const [request] = await tx
    .select()
    .from(ssoLinkRequests)
    .where(eq(ssoLinkRequests.id, requestId))
    .limit(1)
    .for('update');
  if (!request) throw notFound('admin.sso_request_not_found');
  return request;
}

/** An account row locked for this transaction, or 404. */
async function lockAccount(tx: Tx, userId: string): Promise<UserRow> {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).limit(1).for('update');
  if (!user) throw notFound('users.not_found');
  return user;
}

/**
 * Approves a request: links its account to the provider identity, only while the account is linked to none and no
 * other account has that identity (409 otherwise, the request kept), and deletes the request. Activity log and audit
 * trail in the same transaction. Callers check that the actor is an admin.
 */
export async function approveSsoLink(db: Db, actor: Actor, requestId: string, who: AuditWho): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const request = await lockRequest(tx, requestId);
    const account = await lockAccount(tx, request.userId);
    if (account.ssoSubject !== null) throw conflict('admin.sso_already_linked');
    const [holder] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.ssoIssuer, request.issuer), eq(users.ssoSubject, request.subject)))
      .limit(1);
    if (holder) throw conflict('admin.sso_identity_taken');
    // The identity's unique index (users_sso_idx) settles two approvals of one identity at once: the second waits on
    // the first's request row lock, then finds no request.
    const [linked] = await tx
      .update(users)
      .set({ ssoIssuer: request.issuer, ssoSubject: request.subject, updatedAt: new Date() })
      .where(eq(users.id, account.id))
      .returning();
    await tx.delete(ssoLinkRequests).where(eq(ssoLinkRequests.id, request.id));
    await recordActivity(
      tx,
      actor,
      'activity.sso_linked',
      { issuer: request.issuer, email: account.email },
      { type: 'user', id: account.id },
    );
    await recordSsoLinkChange(tx, who, account, { from: null, to: request.issuer, subject: request.subject });
    return linked!;
  });
}

/** Dismisses a request (deletes it); the activity log names it. Callers check that the actor is an admin. */
export async function dismissSsoLink(db: Db, actor: Actor, requestId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const request = await lockRequest(tx, requestId);
    const [account] = await tx.select({ email: users.email }).from(users).where(eq(users.id, request.userId)).limit(1);
    await tx.delete(ssoLinkRequests).where(eq(ssoLinkRequests.id, request.id));
    await recordActivity(
      tx,
      actor,
      'activity.sso_link_dismissed',
      { issuer: request.issuer, email: account?.email ?? request.email },
      { type: 'user', id: request.userId },
    );
  });
}

/**
 * Removes an account's single sign-on link (linked wrongly, or the person left): the provider identity no longer signs
 * in to it, and every session of the account ends (one begun by the wrong person among them). Its password, if any,
 * still works. Callers check that the actor is an admin.
 */
export async function removeSsoLink(db: Db, actor: Actor, userId: string, who: AuditWho): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const account = await lockAccount(tx, userId);
    if (account.ssoIssuer === null || account.ssoSubject === null) throw conflict('admin.sso_not_linked');
    const [unlinked] = await tx
      .update(users)
      .set({ ssoIssuer: null, ssoSubject: null, sessionsValidAfter: new Date(), updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning();
    await recordActivity(
      tx,
      actor,
      'activity.sso_unlinked',
      { issuer: account.ssoIssuer, email: account.email },
      { type: 'user', id: userId },
    );
    await recordSsoLinkChange(tx, who, account, { from: account.ssoIssuer, to: null, subject: account.ssoSubject });
    return unlinked!;
  });
}
