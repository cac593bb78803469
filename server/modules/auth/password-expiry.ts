import type { LoginJson, PasswordChangeStepJson } from '#shared/schemas/auth.ts';

import type { UserRow } from '#server/db/schema/index.ts';
import { badRequest, forbidden, unauthorized } from '#server/lib/errors.ts';
import { isUuid } from '#server/lib/ids.ts';
import { hashPassword, passwordMatches } from '#server/lib/passwords.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { assertPasswordNotRecent, passwordExpired, setPassword } from '#server/modules/users/password-policy.ts';
import { findUserById } from '#server/modules/users/users.queries.ts';
import { refusalFor, type SignInContext } from '#server/plugins/auth.ts';

import { completeSignIn } from './sign-in.ts';

// An expired portal password changed at sign-in (decision 117, PASSWORD_MAX_AGE_DAYS): the password was right, so the
// answer is a step, as a second factor's is (decision 064), carrying a ticket to the change; the change then goes on
// with the sign-in (a second factor if the person needs one, else the session).

const TICKET_LIFETIME = '10m';

interface PasswordChangeTicket {
  purpose: 'password-change';
  sub: string;
  /** The account's sessions version: the change (or an admin's reset) voids the ticket. */
  sv: number;
}

/** The step of a person whose portal password is too old, or null: the sign-in goes on. */
export function expiredPasswordStep(ctx: SignInContext, user: UserRow): PasswordChangeStepJson | null {
  const policy = ctx.config.passwords;
  if (!passwordExpired(policy, user)) return null;
  const ticket: PasswordChangeTicket = {
    purpose: 'password-change',
    sub: user.id,
    sv: user.sessionsValidAfter.getTime(),
  };
  return {
    code: 'auth.password_expired',
    ticket: ctx.tokens.sign(ticket, { expiresIn: TICKET_LIFETIME }),
    days: policy.maxAgeDays!,
  };
}

/**
 * POST /api/auth/expired-password: the ticket's person chooses a new password (not the current one; under
 * PASSWORD_HISTORY none of the recent ones), which is set with its activity row in one transaction; the sign-in then
 * goes on. 401 `auth.password_change_ticket_invalid` for a ticket not ours, expired or used.
 */
export async function changeExpiredPassword(
  ctx: SignInContext,
  ticket: string,
  newPassword: string,
): Promise<LoginJson> {
  const invalid = () => unauthorized('auth.password_change_ticket_invalid');
  let payload: Partial<PasswordChangeTicket>;
  try {
    payload = ctx.tokens.verify<PasswordChangeTicket>(ticket);
  } catch {
    throw invalid();
  }
  if (payload.purpose !== 'password-change' || !isUuid(payload.sub)) throw invalid();
  const user = (await findUserById(ctx.db, payload.sub))?.user;
  if (!user || user.sessionsValidAfter.getTime() !== payload.sv || user.authSource !== 'local') throw invalid();
  const refusal = refusalFor(user);
  if (refusal) throw forbidden(refusal.code, refusal.params, { status: refusal.status });
  if (await passwordMatches(user.passwordHash, newPassword)) throw badRequest('users.new_password_same', 'newPassword');
  await assertPasswordNotRecent(ctx.db, ctx.config.passwords, user, newPassword);
  const passwordHash = await hashPassword(newPassword);
  const saved = await ctx.db.transaction(async (tx) => {
    const row = await setPassword(tx, ctx.config.passwords, user, passwordHash);
    await recordActivity(tx, user, 'activity.own_password_changed', undefined, { type: 'user', id: user.id });
    return row;
  });
  return completeSignIn(ctx, saved, 'password');
}
