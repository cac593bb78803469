import { conflict, forbidden } from '#server/lib/errors.ts';
import { definePolicy } from '#server/lib/policy.ts';
import { adminsOnly, isAdmin } from '#server/lib/roles.policy.ts';
import type { Actor } from '#server/plugins/auth.ts';

/**
 * Who may sign in how (decision 062), whose password the portal may reset by mail (decision 077), and who links
 * accounts to single sign-on (decision 090).
 */
export const authPolicy = definePolicy({
  /**
   * Signing in with the portal's own password, the password already checked: everyone, except that LDAP_ONLY leaves
   * it to admins alone (the first admin, a break-glass account for when the directory is down).
   */
  'auth.local_password_sign_in': (actor: Actor | null, how: { ldapOnly: boolean }) =>
    !how.ldapOnly || isAdmin(actor) ? true : forbidden('auth.local_sign_in_off'),
  /**
   * "Forgot password": a link only for an account whose password the portal keeps. A directory or single sign-on
   * account is told where its password lives by mail, never on the screen (decision 094; the codes word the mail's
   * reason where a caller needs one).
   */
  'auth.reset_password_by_mail': (_actor: Actor | null, account: { authSource: 'local' | 'directory' | 'sso' }) =>
    account.authSource === 'local'
      ? true
      : conflict(account.authSource === 'directory' ? 'auth.reset_use_directory' : 'auth.reset_use_sso'),
  /**
   * Seeing the single sign-on link requests, approving or dismissing one, and removing an account's link: admins, who
   * approve accounts (decision 090). A link decides who signs in as whom.
   */
  'auth.link_sso': adminsOnly,
});
