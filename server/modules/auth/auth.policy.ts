import { forbidden } from '#server/lib/errors.ts';
import { definePolicy } from '#server/lib/policy.ts';
import { isAdmin } from '#server/lib/roles.policy.ts';
import type { Actor } from '#server/plugins/auth.ts';

/** Who may sign in how (decision 062). */
export const authPolicy = definePolicy({
  /**
   * Signing in with the portal's own password, the password already checked: everyone, except that LDAP_ONLY leaves
   * it to admins alone (the first admin, a break-glass account for when the directory is down).
   */
  'auth.local_password_sign_in': (actor: Actor | null, how: { ldapOnly: boolean }) =>
    !how.ldapOnly || isAdmin(actor) ? true : forbidden('auth.local_sign_in_off'),
});
