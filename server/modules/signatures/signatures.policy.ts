import { forbidden } from '#server/lib/errors.ts';
import { definePolicy } from '#server/lib/policy.ts';
import { adminsOnly } from '#server/lib/roles.policy.ts';
import type { Actor } from '#server/plugins/auth.ts';

/**
 * Who does what with signatures (decision 123): the list of trusted roots is the admins'; a stored PDF's signatures
 * are checked for whoever may open the file (its area's own rule, app.fileAccess), so there is no rule of its own.
 */
export const signaturesPolicy = definePolicy({
  'signatures.roots': (actor: Actor | null) => (adminsOnly(actor) === true ? true : forbidden()),
});
