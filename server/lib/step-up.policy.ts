import { STEP_UP_CLASSIFICATION_NAMES } from '#server/config.ts';
import { unauthorized } from '#server/lib/errors.ts';
import type { Decision } from '#server/lib/policy.ts';
import type { Actor } from '#server/plugins/auth.ts';

/**
 * The fresh check before classified material (decisions 066 and 095), one rule for every kind of item: opening an item
 * of a classification that STEP_UP_CLASSIFICATIONS guards (Secret by default) needs a sign-in or a check within the
 * last STEP_UP_MINUTES, whoever opens it. Else 401 `auth.step_up_required` (app.ts's error handler adds the methods).
 * The modules' policies name it for their items (letters.policy 'letters.open', close-groups.policy
 * 'close_groups.open'), after their rule of who may see the item, so that nobody learns an item's classification from
 * this refusal. An actor built outside a request (a job, the demo) has no session and opens nothing for a person.
 */
export function freshCheck(actor: Actor | null, classification: string): Decision {
  const session = actor?.session;
  if (!session) return true;
  if (!(session.stepUp.classifications as readonly string[]).includes(classification)) return true;
  return Date.now() <= session.stepUp.freshUntil.getTime() ? true : unauthorized('auth.step_up_required');
}

/** The classifications this actor may not open now without a fresh check (the search leaves their files' text out). */
export const staleClassifications = (actor: Actor | null): string[] =>
  STEP_UP_CLASSIFICATION_NAMES.filter((classification) => freshCheck(actor, classification) !== true);
