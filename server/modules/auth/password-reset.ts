import { randomUUID } from 'node:crypto';

import { and, eq, isNull } from 'drizzle-orm';

import type { Config, PasswordPolicy } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { passwordResetTokens, sessions, type UserRow, users } from '#server/db/schema/index.ts';
import { badRequest } from '#server/lib/errors.ts';
import { hashPassword } from '#server/lib/passwords.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { type AuditWho, recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import { queueMail } from '#server/modules/mail/mail.outbox.ts';
import { assertPasswordNotRecent, setPassword } from '#server/modules/users/password-policy.ts';
import { findUserByEmail } from '#server/modules/users/users.queries.ts';

import { authPolicy } from './auth.policy.ts';
import { RESET_LINK_MINUTES, resetToken, resetTokenHash } from './reset-token.ts';

/**
 * "Forgot password" for the portal's own accounts (decision 077): a link by mail, with a token that
 * works once, for 30 minutes, and is stored hashed (reset-token.ts). The answer to a request is the same whether or
 * not the email is an account's, and comes no sooner than RESET_ANSWER_MS (the route waits). A reset ends every
 * session of the account and uses up its other links. Both steps go to the audit trail and the activity log.
 */

/** The shortest time a request is answered in, so that a known email and an unknown one take as long. */
export const RESET_ANSWER_MS = 250;

/** Accounts a link may be sent to: approved, or still waiting (who may have forgotten the password they registered with). */
const mayReset = (user: UserRow) => user.status === 'approved' || user.status === 'pending';

/**
 * A request for a link (POST /api/auth/forgot-password; anyone). For a local account that may sign in (or waits for
 * approval), a token row and its mail in one transaction, every earlier link of the account ended in it (one link at
 * a time, decision 094); for a directory or single sign-on account that may sign in, a mail saying where its password
 * lives (auth.policy.ts), never the screen; for any other email nothing but the audit trail's note. The caller answers
 * the same whichever it was.
 */
export async function requestPasswordReset(
  db: Db,
  config: Pick<Config, 'mail' | 'jwtSecret'>,
  email: string,
  who: AuditWho,
): Promise<void> {
  const user = await findUserByEmail(db, email);
  if (user && mayReset(user) && !authPolicy.allows(null, 'auth.reset_password_by_mail', user)) {
    return tellWherePasswordLives(db, config, user, who);
  }
  if (!user || !mayReset(user)) {
    // Said nowhere but in the audit trail, where a run of such requests shows someone trying addresses.
    await recordAudit(db, who, {
      action: 'password_reset_requested',
      // As a refused sign-in is recorded (audit-trail/sign-in-events.ts): the account, else the login typed.
      object: user
        ? { type: 'user', id: user.id, label: user.email }
        : { type: 'login', id: email.trim().toLowerCase(), label: email },
      outcome: 'refused',
      details: { login: email, reason: user ? `account ${user.status}` : 'no such account' },
    });
    return;
  }
  const resetId = randomUUID();
  await db.transaction(async (tx) => {
    // One link at a time (decision 094): a new one ends every earlier one, whose mail is then not sent either.
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
    await tx.insert(passwordResetTokens).values({
      id: resetId,
      userId: user.id,
      tokenHash: resetTokenHash(resetToken(config.jwtSecret, resetId)),
      expiresAt: new Date(Date.now() + RESET_LINK_MINUTES * 60_000),
    });
    await queueMail(tx, config.mail, user, 'password_reset', { name: user.name, resetId });
    await recordActivity(tx, user, 'activity.password_reset_requested', undefined, { type: 'user', id: user.id });
    await recordAudit(
      tx,
      { ...who, actor: { id: user.id, name: user.name, role: user.role } },
      {
        action: 'password_reset_requested',
        object: { type: 'user', id: user.id, label: user.email },
        outcome: 'success',
      },
    );
  });
}

/**
 * "Forgot password" of a directory or single sign-on account (decision 094): the mail says where its password lives,
 * in the person's language; the screen says what it says to everyone. With an activity row and the audit trail's
 * event (refused: the portal keeps no password of it), in one transaction.
 */
async function tellWherePasswordLives(
  db: Db,
  config: Pick<Config, 'mail'>,
  user: UserRow,
  who: AuditWho,
): Promise<void> {
  const where = user.authSource === 'sso' ? 'sso' : 'directory';
  await db.transaction(async (tx) => {
    await queueMail(tx, config.mail, user, 'password_elsewhere', { name: user.name, where });
    const told = where === 'sso' ? 'activity.password_reset_told_sso' : 'activity.password_reset_told_directory';
    await recordActivity(tx, user, told, undefined, { type: 'user', id: user.id });
    await recordAudit(
      tx,
      { ...who, actor: { id: user.id, name: user.name, role: user.role } },
      {
        action: 'password_reset_requested',
        object: { type: 'user', id: user.id, label: user.email },
        outcome: 'refused',
        details: {
          login: user.email,
          reason: `password kept by the ${where === 'sso' ? 'single sign-on' : 'directory'}`,
        },
      },
    );
  });
}

/**
 * A new password with a mailed link's token (POST /api/auth/reset-password; anyone holding the link). The token must
 * be one of a local account that may still sign in, unused and unexpired; then the password changes, every session of
 * the account ends, and every link of the account is used up, in one transaction. Answers the account.
 */
export async function resetPasswordWithLink(
  db: Db,
  policy: PasswordPolicy,
  token: string,
  password: string,
  who: AuditWho,
): Promise<UserRow> {
  const tokenHash = resetTokenHash(token);
  const usable = async (tx: Db | Parameters<Parameters<Db['transaction']>[0]>[0], lock: boolean) => {
    const query = tx
      .select({ reset: passwordResetTokens, user: users })
      .from(passwordResetTokens)
      .innerJoin(users, eq(users.id, passwordResetTokens.userId))
      .where(eq(passwordResetTokens.tokenHash, tokenHash))
      .limit(1);
    const [found] = lock ? await query.for('update') : await query;
    const ok =
      found &&
      !found.reset.usedAt &&
      found.reset.expiresAt.getTime() > Date.now() &&
      found.user.authSource === 'local' &&
      mayReset(found.user);
    return { found, ok };
  };
  const first = await usable(db, false);
  if (!first.ok) {
    const user = first.found?.user;
    await recordAudit(db, user ? { ...who, actor: { id: user.id, name: user.name, role: user.role } } : who, {
      action: 'password_reset',
      object: user ? { type: 'user', id: user.id, label: user.email } : null,
      outcome: 'refused',
      details: { reason: !first.found ? 'unknown link' : first.found.reset.usedAt ? 'link used' : 'link expired' },
    });
    throw badRequest('auth.reset_link_invalid');
  }
  await assertPasswordNotRecent(db, policy, first.found!.user, password, 'password');
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    // Again under the row's lock: of two uses of one link at once, one resets and the other is refused.
    const { found, ok } = await usable(tx, true);
    if (!ok || !found) throw badRequest('auth.reset_link_invalid');
    const now = new Date();
    const saved = await setPassword(tx, policy, found.user, passwordHash, now);
    await tx
      .update(sessions)
      .set({ endedAt: now })
      .where(and(eq(sessions.userId, found.user.id), isNull(sessions.endedAt)));
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(and(eq(passwordResetTokens.userId, found.user.id), isNull(passwordResetTokens.usedAt)));
    await recordActivity(tx, found.user, 'activity.password_reset_by_link', undefined, {
      type: 'user',
      id: found.user.id,
    });
    await recordAudit(
      tx,
      { ...who, actor: { id: found.user.id, name: found.user.name, role: found.user.role } },
      {
        action: 'password_reset',
        object: { type: 'user', id: found.user.id, label: found.user.email },
        outcome: 'success',
      },
    );
    return saved;
  });
}
