import type { Role } from '#shared/constants.ts';

import type { Config } from '#server/config.ts';
import { forbidden, notFound } from '#server/lib/errors.ts';
import { definePolicy } from '#server/lib/policy.ts';
import { isAdmin } from '#server/lib/roles.policy.ts';
import { stepUpRequired } from '#server/lib/step-up.policy.ts';
import type { Actor } from '#server/plugins/auth.ts';

/** What an installation chose (MFA_REQUIRED_ROLES, MFA_FOR_CLEARED; README "Configuration"). */
export type SecondFactorSettings = Pick<Config, 'mfaRequiredRoles' | 'mfaForCleared'>;

/** A person the requirement is asked about: a user row (`classifiedClearance`) or an Actor (`cleared`). */
export interface SecondFactorSubject {
  role: Role;
  classifiedClearance?: boolean;
  cleared?: boolean;
}

/**
 * Must this person pass a second factor to sign in (decision 064)? Their role is one of
 * MFA_REQUIRED_ROLES, or MFA_FOR_CLEARED=true and they are cleared for classified letters. Local and directory
 * accounts alike. Two comparisons and a flag: it runs on every signed-in request (server/plugins/auth.ts).
 */
export function secondFactorRequired(config: SecondFactorSettings, user: SecondFactorSubject): boolean {
  if (config.mfaForCleared && (user.cleared ?? user.classifiedClearance)) return true;
  return config.mfaRequiredRoles.length > 0 && config.mfaRequiredRoles.includes(user.role);
}

/** A person's factors as a rule sees them: whose, whether any is confirmed, and whether this session passed one. */
interface OwnFactors {
  /** Does the person already have a confirmed factor? */
  hasFactor: boolean;
}

/** Who may do what with second factors (decision 035). */
export const mfaPolicy = definePolicy({
  /**
   * Adding, removing or renewing one's own factors while signed in: in a session that passed a second factor, or by
   * someone who has none yet (enrolment). A session that skipped it (begun before the installation required one) must
   * pass it first, so a stolen session cannot swap the owner's authenticator.
   */
  'mfa.manage_own': (actor: Actor | null, own: OwnFactors) =>
    actor && (!own.hasFactor || actor.session?.secondFactor) ? true : forbidden('auth.second_factor_required'),
  /**
   * Adding or removing a factor or a passkey, or making new recovery codes, in a session (decision 094): a sign-in or a
   * step-up ("Confirm it is you": a current code, else the password) within STEP_UP_MINUTES, as before a guarded
   * letter (decision 066), so that a session left open cannot swap or strip the owner's factors. Else 401
   * `auth.step_up_required` with the session's methods (the web's dialog gives the check and retries).
   */
  'mfa.change_factors': (actor: Actor | null) => {
    const session = actor?.session;
    if (!session) return true;
    return Date.now() <= session.stepUp.freshUntil.getTime() ? true : stepUpRequired(session);
  },
  /** A factor of this person's (a stranger's factor is "not found", not "forbidden": its id says nothing). */
  'mfa.own_factor': (actor: Actor | null, factor: { userId: string }) =>
    actor?.id === factor.userId ? true : notFound('auth.second_factor_not_found'),
  /**
   * Resetting someone's second factor: admins, for another person only. Nobody resets their own without a factor:
   * a recovery code signs them in, then they set up a new one (decision 065).
   */
  'mfa.reset_other': (actor: Actor | null, person: { userId: string }) => {
    if (!isAdmin(actor)) return forbidden();
    return actor.id === person.userId ? forbidden('auth.second_factor_reset_own') : true;
  },
});
