import type { StepUpMethod } from '#shared/schemas/auth.ts';

import { STEP_UP_CLASSIFICATION_NAMES } from '#server/config.ts';
import { AppError } from '#server/lib/errors.ts';
import type { Decision } from '#server/lib/policy.ts';
import type { Actor, ActorSession } from '#server/plugins/auth.ts';

/**
 * How a person may give the step-up: their second factors (and a recovery code while one is left) when they have
 * any, else their password (the portal's, or the directory's), else `sign_in` (an SSO account without a factor signs
 * in again). Worked out with the session (server/plugins/auth.ts), from facts its one query reads (decision 104).
 */
export function stepUpMethodsOf(facts: {
  authSource: string;
  kinds: readonly string[];
  recovery: boolean;
}): StepUpMethod[] {
  if (!facts.kinds.length) return facts.authSource === 'sso' ? ['sign_in'] : ['password'];
  const methods: StepUpMethod[] = [];
  if (facts.kinds.includes('totp')) methods.push('totp');
  if (facts.kinds.includes('passkey')) methods.push('passkey');
  if (facts.recovery) methods.push('recovery');
  return methods;
}

/** The 401 `auth.step_up_required`, with the ways this session's person may give the check (the web's dialog offers them). */
export const stepUpRequired = (session: ActorSession) =>
  new AppError(401, 'auth.step_up_required', undefined, undefined, { methods: session.stepUp.methods });

/**
 * The step-up before classified material (decisions 066 and 095), one rule for every kind of item: opening an item
 * of a classification that STEP_UP_CLASSIFICATIONS guards (Secret by default) needs a sign-in or a check within the
 * last STEP_UP_MINUTES, whoever opens it. Else 401 `auth.step_up_required` with the session's methods (stepUpRequired).
 * The modules' policies name it for their items (letters.policy 'letters.open', close-groups.policy
 * 'close_groups.open'), after their rule of who may see the item, so that nobody learns an item's classification from
 * this refusal. An actor built outside a request (a job, the demo) has no session and opens nothing for a person.
 */
export function stepUpCheck(actor: Actor | null, classification: string): Decision {
  const session = actor?.session;
  if (!session) return true;
  if (!(session.stepUp.classifications as readonly string[]).includes(classification)) return true;
  return Date.now() <= session.stepUp.freshUntil.getTime() ? true : stepUpRequired(session);
}

/** The classifications this actor may not open now without a step-up (the search leaves their files' text out). */
export const staleClassifications = (actor: Actor | null): string[] =>
  STEP_UP_CLASSIFICATION_NAMES.filter((classification) => stepUpCheck(actor, classification) !== true);
