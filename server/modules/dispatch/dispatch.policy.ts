import { type SQL, sql } from 'drizzle-orm';

import { dispatches, type EfileRow } from '#server/db/schema/index.ts';
import { AppError, forbidden } from '#server/lib/errors.ts';
import { type Decision, definePolicy } from '#server/lib/policy.ts';
import { efilesPolicy } from '#server/modules/efiles/efiles.policy.ts';
import { isClearedForClassified } from '#server/modules/letters/letters.policy.ts';
import type { Actor } from '#server/plugins/auth.ts';

/** What e-files' `efiles.act` asks of the actor and the file (efiles.access.ts loads it). */
interface ActFacts {
  file: Pick<EfileRow, 'createdBy' | 'classification' | 'state' | 'holderId'>;
  holds: boolean;
  received: boolean;
  copy: boolean;
}

/**
 * Who dispatches and who reads the register (decision 120). The portal has no dispatch-section role (the spec's roles
 * are employee, director, associate director and admin): the letter leaves the lab from the file it is in, so
 * - dispatching a signed correspondence item is for the file's holder (or their delegate, decision 078) acting on it:
 *   received, open, not parked (the e-files' `efiles.act`); the item must be a PDF whose signatures verify;
 * - the register is the lab's outward register: every signed-in member of staff reads it, the dispatches of
 *   Confidential and Secret files only those cleared for such material (the PDF itself stays behind its file's rule).
 */
export const dispatchPolicy = definePolicy({
  'dispatch.send': (actor: Actor | null, facts: ActFacts): Decision => {
    if (!actor || !facts.holds) return forbidden('dispatch.not_holder');
    try {
      efilesPolicy.authorize(actor, 'efiles.act', facts);
      return true;
    } catch (err) {
      return err instanceof AppError ? err : forbidden('dispatch.not_holder');
    }
  },

  /** A PDF that is signed and whose every signature verifies, nothing changed after: pdfsig's "valid". */
  'dispatch.signed_pdf': (
    _actor: Actor | null,
    { pdf, signed, valid }: { pdf: boolean; signed: boolean; valid: boolean },
  ): Decision => {
    if (!pdf || !signed) return new AppError(422, 'dispatch.not_signed_pdf');
    return valid ? true : new AppError(422, 'dispatch.signature_invalid');
  },
});

/** The register's rows this reader sees, as a WHERE condition on `dispatches`. */
export function visibleDispatches(actor: Actor): SQL {
  return isClearedForClassified(actor)
    ? sql`true`
    : sql`${dispatches.classification} not in ('Confidential', 'Secret')`;
}
