import { and, desc, eq, gt, gte, isNull, sql } from 'drizzle-orm';

import type { StepUpInput } from '#shared/schemas/auth.ts';

import type { LdapConfig } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { type SecondFactorKind, sessions } from '#server/db/schema/index.ts';
import { AppError, badRequest, conflict, notFound, unauthorized } from '#server/lib/errors.ts';
import { passwordMatches } from '#server/lib/passwords.ts';
import type { RequestClient } from '#server/lib/request-client.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { type AuditWho, recordAudit, whoAt } from '#server/modules/audit-trail/audit-trail.ts';
import { auditingProof } from '#server/modules/audit-trail/sign-in-events.ts';
import { userObject } from '#server/modules/audit-trail/user-changes.ts';
import { confirmedFactorKinds } from '#server/modules/mfa/factors.queries.ts';
import { type FactorDeps, verifySecondFactorCode } from '#server/modules/mfa/mfa.service.ts';
import { findUserById } from '#server/modules/users/users.queries.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { throttleKeyOf } from './auth.service.ts';
import { verifyDirectoryPassword } from './directory.ts';
import type { Throttle } from './throttle.ts';

/**
 * The step-up before classified letters (docs/decisions/066): a signed-in person proves again who
 * they are, with their second factor where they have one, else their password, and their session's `verified_at`
 * moves to now. letters.policy.ts 'letters.open' asks for it; the web's dialog (web/components/step-up-dialog.tsx)
 * gives it and retries the refused request.
 */

/** Is this error a wrong password (counted by the sign-in throttle as a failure)? */
const isWrongPassword = (err: unknown) => err instanceof AppError && err.code === 'auth.step_up_wrong_password';

/** What the step-up works with (plain values its route gives, decision 104). */
export type StepUpDeps = FactorDeps & { throttle: Throttle; ldap: LdapConfig | undefined };

/**
 * Checks the answer of the signed-in actor (POST /api/auth/step-up) and, when it is right, marks their session proven
 * now (and with which second factor, when one was used) with its activity row and the audit trail's `step_up`, in one
 * transaction; a wrong answer is the trail's `step_up_failed`. Returns the new proof time. Wrong answers are throttled like sign-ins: a password as the account's (throttle.passwordCheck, the
 * browser's device cookie keeping its allowance), a code by the second factor's own check (verifySecondFactorCode).
 */
export async function confirmIdentity(
  deps: StepUpDeps,
  client: RequestClient,
  actor: Actor,
  input: StepUpInput,
  from: { address: string; deviceCookie?: string | undefined },
): Promise<Date> {
  const { db } = deps;
  if (!actor.session) throw unauthorized('auth.session_expired');
  const user = (await findUserById(db, actor.id))?.user;
  if (!user) throw unauthorized('auth.session_expired');
  const kinds = new Set(await confirmedFactorKinds(db, actor.id));
  let factor: SecondFactorKind | null = null;
  if (input.password) {
    // The second factor where the person has one (decision 066): a password alone is not enough then.
    if (kinds.size) throw badRequest('auth.step_up_use_factor', 'password');
    // A directory account's password is the directory's (a bind as the person; decision 062); without the directory
    // configured any more, it signs in again.
    if (user.authSource === 'directory' && !deps.ldap) throw conflict('auth.step_up_sign_in_again');
    if (user.authSource === 'sso' || (user.authSource === 'local' && !user.passwordHash)) {
      throw conflict('auth.step_up_sign_in_again');
    }
    const password = input.password;
    const passwordIsRight = () =>
      user.authSource === 'directory'
        ? verifyDirectoryPassword(deps.ldap, user, password)
        : passwordMatches(user.passwordHash, password);
    await auditingProof(db, client, actor, 'step_up_failed', 'password', () =>
      deps.throttle.passwordCheck(
        // A directory account's failures count against its entry, as at sign-in (decision 094).
        { account: throttleKeyOf({ ...user, email: actor.email }), ...from },
        async () => {
          if (!(await passwordIsRight())) throw badRequest('auth.step_up_wrong_password', 'password');
        },
        isWrongPassword,
      ),
    );
  } else {
    if (!kinds.size) throw badRequest('auth.step_up_no_factor', 'code');
    factor = await auditingProof(db, client, actor, 'step_up_failed', 'code', () =>
      verifySecondFactorCode(deps, actor.id, input.code ?? '', from.address),
    );
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(sessions)
      .set({ verifiedAt: sql`now()`, ...(factor ? { secondFactor: factor } : {}) })
      .where(and(eq(sessions.id, actor.session!.id), isNull(sessions.endedAt)))
      .returning({ verifiedAt: sessions.verifiedAt });
    if (!row) throw unauthorized('auth.session_expired');
    await recordActivity(
      tx,
      actor,
      factor ? 'activity.identity_confirmed_code' : 'activity.identity_confirmed_password',
      undefined,
      { type: 'user', id: actor.id },
    );
    await recordAudit(tx, whoAt(client, actor), {
      action: 'step_up',
      object: userObject(actor),
      outcome: 'success',
      details: { method: factor ?? 'password' },
    });
    return row.verifiedAt;
  });
}

/**
 * The person's live sessions (My Account → Security), newest first: not ended, not expired, and begun after their
 * last "sign out of all devices" or password change (users.sessions_valid_after).
 */
export async function listLiveSessions(db: Db, actor: Actor) {
  return db
    .select(sessionColumns)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.userId, actor.id),
        isNull(sessions.endedAt),
        gt(sessions.expiresAt, sql`now()`),
        gte(sessions.createdAt, users.sessionsValidAfter),
      ),
    )
    .orderBy(desc(sessions.createdAt));
}

// Not the SSO ID token, which no screen shows.
const sessionColumns = {
  id: sessions.id,
  userId: sessions.userId,
  method: sessions.method,
  secondFactor: sessions.secondFactor,
  verifiedAt: sessions.verifiedAt,
  createdAt: sessions.createdAt,
  expiresAt: sessions.expiresAt,
  endedAt: sessions.endedAt,
  address: sessions.address,
  userAgent: sessions.userAgent,
};

/**
 * Ends one of the actor's own sessions ("Sign out" of a row in My Account → Security) with its activity row and the
 * audit trail's `sign_out`; another person's session, or one already ended, is not found. Returns whether it was the
 * session of this request.
 */
export async function endOwnSession(db: Db, actor: Actor, id: string, who: AuditWho): Promise<{ current: boolean }> {
  return db.transaction(async (tx) => {
    const [ended] = await tx
      .update(sessions)
      .set({ endedAt: new Date() })
      .where(and(eq(sessions.id, id), eq(sessions.userId, actor.id), isNull(sessions.endedAt)))
      .returning({ id: sessions.id, address: sessions.address });
    if (!ended) throw notFound('auth.session_not_found');
    await recordActivity(
      tx,
      actor,
      'activity.session_ended',
      { address: ended.address || '—' },
      {
        type: 'user',
        id: actor.id,
      },
    );
    await recordAudit(tx, who, {
      action: 'sign_out',
      object: userObject(actor),
      outcome: 'success',
      details: { sessions: 'one', address: ended.address || null },
    });
    return { current: ended.id === actor.session?.id };
  });
}
