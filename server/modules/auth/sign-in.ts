import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import type { SecondFactorMethod, SecondFactorStepJson } from '#shared/schemas/auth.ts';

import type { SecondFactorKind, SessionMethod, UserRow } from '#server/db/schema/index.ts';
import { unauthorized } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { auditWho, recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import { userObject } from '#server/modules/audit-trail/user-changes.ts';
import { confirmedFactorKinds } from '#server/modules/mfa/factors.queries.ts';
import { secondFactorRequired } from '#server/modules/mfa/mfa.policy.ts';
import { recoveryCodesLeft } from '#server/modules/mfa/recovery-codes.ts';
import { type SecondFactorTicket, signTicket } from '#server/modules/mfa/ticket.ts';
import { presentUser } from '#server/modules/users/users.presenter.ts';
import { findUserById } from '#server/modules/users/users.queries.ts';
import { type SessionStart, setTokenCookie } from '#server/plugins/auth.ts';

import { auditSignedIn } from './sign-in-audit.ts';

/**
 * What a person who must have a second factor and has none may set up at sign-in (decision 064): a passkey first,
 * the stronger (decision 065), then an authenticator app.
 */
export const ENROLMENT_METHODS: SecondFactorMethod[] = ['passkey', 'totp'];

/**
 * The end of every way in (the portal's password, the lab's directory, single sign-on): the person has proven the
 * first factor and their account may sign in. Starts the session with its activity row in one transaction, sets the
 * download cookie, and answers what `POST /api/auth/login` answers: the token and the user (spec §7).
 *
 * The audit trail's `sign_in` is written in the session's transaction (a second-factor step starts none: its event comes
 * with finishSecondFactor).
 *
 * Where the installation requires a second factor of this person (MFA_REQUIRED_ROLES, MFA_FOR_CLEARED), or they set one
 * up of their own accord, and this sign-in has not passed one, no session starts: the answer is the second-factor step, a code and a 5-minute ticket
 * (decision 064), and finishSecondFactor starts the session once a factor is passed. A factor never replaces the
 * first one: every way in comes through here first.
 */
export async function completeSignIn(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  method: SessionMethod,
  start: Omit<SessionStart, 'method'> = {},
) {
  // Asked of everyone the installation requires it of, and of everyone who set one up of their own accord: a factor
  // someone chose protects their account as much as one that was required.
  if (
    !start.secondFactor &&
    (secondFactorRequired(app.config, user) || (await confirmedFactorKinds(app.db, user.id)).length > 0)
  ) {
    return secondFactorStep(app, user, method, start.ssoIdToken);
  }
  const token = await app.db.transaction(async (tx) => {
    await recordActivity(tx, user, 'activity.signed_in');
    await auditSignedIn(tx, req, user, { method, secondFactor: start.secondFactor ?? null });
    return app.startSession(tx, user, req, { method, ...start });
  });
  const found = await findUserById(app.db, user.id);
  setTokenCookie(req, reply, token);
  return { token, user: presentUser(user, found?.group ?? null) };
}

/**
 * The second-factor step of a sign-in: `auth.second_factor_required` with the methods the person has (their factors'
 * kinds, and 'recovery' while they have unused recovery codes), or `auth.second_factor_enrolment_required` with the
 * methods they may set up; and the ticket that carries the first factor to the next request.
 */
export async function secondFactorStep(
  app: FastifyInstance,
  user: UserRow,
  method: SessionMethod,
  ssoIdToken?: string | null,
): Promise<SecondFactorStepJson> {
  const ticket = signTicket(app, user, method, ssoIdToken);
  const kinds = await confirmedFactorKinds(app.db, user.id);
  if (kinds.length === 0) return { code: 'auth.second_factor_enrolment_required', ticket, methods: ENROLMENT_METHODS };
  const recovery: SecondFactorMethod[] = (await recoveryCodesLeft(app.db, user.id)) > 0 ? ['recovery'] : [];
  return { code: 'auth.second_factor_required', ticket, methods: [...kinds, ...recovery] };
}

/**
 * Starts the session of a sign-in whose ticket (verifyTicket) and second factor `kind` have been checked: the
 * ticket's first factor, this second one, the ticket's session id (a used ticket cannot start another); the audit
 * trail's `second_factor` and `sign_in` in the same transaction. Answers
 * {token, user} as completeSignIn does. Callers add what else they answer (the recovery codes of a first enrolment).
 */
export async function finishSecondFactor(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: string,
  ticket: SecondFactorTicket,
  kind: SecondFactorKind,
) {
  const found = await findUserById(app.db, userId);
  if (!found) throw unauthorized('auth.second_factor_ticket_invalid');
  let token: string;
  try {
    token = await app.db.transaction(async (tx) => {
      await recordActivity(tx, found.user, 'activity.signed_in');
      if (kind === 'recovery') await recordActivity(tx, found.user, 'activity.signed_in_recovery_code');
      await recordAudit(tx, auditWho(req, found.user), {
        action: 'second_factor',
        object: userObject(found.user),
        outcome: 'success',
        details: { method: kind },
      });
      await auditSignedIn(tx, req, found.user, { method: ticket.method, secondFactor: kind });
      return app.startSession(tx, found.user, req, {
        id: ticket.sid,
        method: ticket.method,
        secondFactor: kind,
        ssoIdToken: ticket.ssoIdToken ?? null,
      });
    });
  } catch (err) {
    // Two requests with one ticket: the second finds its session id taken.
    if (isUniqueViolation(err)) throw unauthorized('auth.second_factor_ticket_invalid');
    throw err;
  }
  setTokenCookie(req, reply, token);
  return { token, user: presentUser(found.user, found.group) };
}

function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; i++) {
    if (e.code === '23505') return true;
    e = e.cause as typeof e;
  }
  return false;
}
