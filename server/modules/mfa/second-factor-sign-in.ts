import type { SecondFactorKind } from '#server/db/schema/index.ts';
import { unauthorized } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { recordAudit, whoAt } from '#server/modules/audit-trail/audit-trail.ts';
import { auditSignedIn } from '#server/modules/audit-trail/sign-in-events.ts';
import { userObject } from '#server/modules/audit-trail/user-changes.ts';
import { presentUser } from '#server/modules/users/users.presenter.ts';
import { findUserById } from '#server/modules/users/users.queries.ts';
import type { SignInContext } from '#server/plugins/auth.ts';

import type { SecondFactorTicket } from './ticket.ts';

/**
 * Starts the session of a sign-in whose ticket (verifyTicket) and second factor `kind` have been checked: the
 * ticket's first factor, this second one, the ticket's session id (a used ticket cannot start another); the audit
 * trail's `second_factor` and `sign_in` in the same transaction. Answers
 * {token, user} as completeSignIn does (the route sets the download cookie, withTokenCookie). Callers add what else they answer (the recovery codes of a first enrolment).
 */
export async function finishSecondFactor(
  ctx: SignInContext,
  userId: string,
  ticket: SecondFactorTicket,
  kind: SecondFactorKind,
) {
  const found = await findUserById(ctx.db, userId);
  if (!found) throw unauthorized('auth.second_factor_ticket_invalid');
  let token: string;
  try {
    token = await ctx.db.transaction(async (tx) => {
      await recordActivity(tx, found.user, 'activity.signed_in');
      if (kind === 'recovery') await recordActivity(tx, found.user, 'activity.signed_in_recovery_code');
      await recordAudit(tx, whoAt(ctx.client, found.user), {
        action: 'second_factor',
        object: userObject(found.user),
        outcome: 'success',
        details: { method: kind },
      });
      await auditSignedIn(tx, ctx.client, found.user, { method: ticket.method, secondFactor: kind });
      return ctx.tokens.startSession(tx, found.user, ctx.client, {
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
  return { token, user: presentUser(found.user, found.group) };
}

function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; i++) {
    if (e.code === '23505') return true;
    e = e.cause as typeof e;
  }
  return false;
}
