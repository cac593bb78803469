import type { SecondFactorMethod, SecondFactorStepJson } from '#shared/schemas/auth.ts';

import type { SessionMethod, UserRow } from '#server/db/schema/index.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { auditSignedIn } from '#server/modules/audit-trail/sign-in-events.ts';
import { confirmedFactorKinds } from '#server/modules/mfa/factors.queries.ts';
import { secondFactorRequired } from '#server/modules/mfa/mfa.policy.ts';
import { recoveryCodesLeft } from '#server/modules/mfa/recovery-codes.ts';
import { signTicket } from '#server/modules/mfa/ticket.ts';
import { presentUser } from '#server/modules/users/users.presenter.ts';
import { findUserById } from '#server/modules/users/users.queries.ts';
import type { SessionStart, SignInContext } from '#server/plugins/auth.ts';

/**
 * What a person who must have a second factor and has none may set up at sign-in (decision 064): a passkey first,
 * the stronger (decision 065), then an authenticator app.
 */
export const ENROLMENT_METHODS: SecondFactorMethod[] = ['passkey', 'totp'];

/**
 * The end of every way in (the portal's password, the lab's directory, single sign-on): the person has proven the
 * first factor and their account may sign in. Starts the session with its activity row in one transaction and answers
 * what `POST /api/auth/login` answers: the token and the user (spec §7); the route sets the download cookie
 * (withTokenCookie).
 *
 * The audit trail's `sign_in` is written in the session's transaction (a second-factor step starts none: its event comes
 * with finishSecondFactor).
 *
 * Where the installation requires a second factor of this person (MFA_REQUIRED_ROLES, MFA_FOR_CLEARED), or they set one
 * up of their own accord, and this sign-in has not passed one, no session starts: the answer is the second-factor step, a code and a 5-minute ticket
 * (decision 064), and finishSecondFactor (mfa/second-factor-sign-in.ts) starts the session once a factor is passed. A factor never replaces the
 * first one: every way in comes through here first.
 */
export async function completeSignIn(
  ctx: SignInContext,
  user: UserRow,
  method: SessionMethod,
  start: Omit<SessionStart, 'method'> = {},
) {
  // Asked of everyone the installation requires it of, and of everyone who set one up of their own accord: a factor
  // someone chose protects their account as much as one that was required.
  if (
    !start.secondFactor &&
    (secondFactorRequired(ctx.config, user) || (await confirmedFactorKinds(ctx.db, user.id)).length > 0)
  ) {
    return secondFactorStep(ctx, user, method, start.ssoIdToken);
  }
  const token = await ctx.db.transaction(async (tx) => {
    await recordActivity(tx, user, 'activity.signed_in');
    await auditSignedIn(tx, ctx.client, user, { method, secondFactor: start.secondFactor ?? null });
    return ctx.tokens.startSession(tx, user, ctx.client, { method, ...start });
  });
  const found = await findUserById(ctx.db, user.id);
  return { token, user: presentUser(user, found?.group ?? null) };
}

/**
 * The second-factor step of a sign-in: `auth.second_factor_required` with the methods the person has (their factors'
 * kinds, and 'recovery' while they have unused recovery codes), or `auth.second_factor_enrolment_required` with the
 * methods they may set up; and the ticket that carries the first factor to the next request.
 */
export async function secondFactorStep(
  ctx: Pick<SignInContext, 'db' | 'tokens'>,
  user: UserRow,
  method: SessionMethod,
  ssoIdToken?: string | null,
): Promise<SecondFactorStepJson> {
  const ticket = signTicket(ctx.tokens, user, method, ssoIdToken);
  const kinds = await confirmedFactorKinds(ctx.db, user.id);
  if (kinds.length === 0) return { code: 'auth.second_factor_enrolment_required', ticket, methods: ENROLMENT_METHODS };
  const recovery: SecondFactorMethod[] = (await recoveryCodesLeft(ctx.db, user.id)) > 0 ? ['recovery'] : [];
  return { code: 'auth.second_factor_required', ticket, methods: [...kinds, ...recovery] };
}
