import { eq, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';

import type { Role } from '#shared/constants.ts';

import { users } from '#server/db/schema/index.ts';
import { forbidden } from '#server/lib/errors.ts';
import { definePolicy } from '#server/lib/policy.ts';
import { isAdmin } from '#server/lib/roles.policy.ts';
import type { Actor } from '#server/plugins/auth.ts';

/** A profile a rule is asked about: whose it is. */
interface ProfileOf {
  userId: string;
}

/** Who may do what in this module (decision 035). */
export const usersPolicy = definePolicy({
  /**
   * Seeing and editing a profile, its photo included: the owner and admins only ("a user edits only their
   * own profile; an admin may edit anyone's"); colleagues see the directory card instead (decision 005).
   */
  'users.manage_profile': (actor: Actor | null, profile: ProfileOf) =>
    actor && profile.userId && (actor.id === profile.userId || isAdmin(actor))
      ? true
      : forbidden('users.own_profile_only'),
  /** Changing a password with the current one: its owner only (an admin resets it in Manage Users instead). */
  'users.change_password': (actor: Actor | null, profile: ProfileOf) =>
    actor?.id === profile.userId ? true : forbidden('users.own_password_only'),
  /**
   * Changing a password in the portal: only an account whose password the portal keeps; a directory (or single
   * sign-on) account changes it where it lives (decision 062).
   */
  'users.change_password_here': (_actor: Actor | null, account: { authSource: string | undefined }) =>
    account.authSource === undefined || account.authSource === 'local'
      ? true
      : forbidden('users.password_in_directory'),
  /**
   * Downloading a document on a person's record (GET /uploads/user-documents/…): the person themself, and admins
   * (who pass before any area's rule, file-access.ts). `userId` is the record's owner, null when the file is on none.
   */
  'users.download_document': (actor: Actor | null, document: { userId: string | null }) =>
    actor !== null && document.userId === actor.id ? true : forbidden('files.open_forbidden'),
});

/**
 * onRequest guard, after the sign-in hook, for /api/users/:id routes: the owner or an admin. Runs before the body is
 * read or validated, so a stranger gets 403, not a validation message, and no upload is received.
 */
export async function requireProfileOwnerOrAdmin(req: FastifyRequest) {
  const { id } = req.params as { id?: string };
  usersPolicy.authorize(req.actor, 'users.manage_profile', { userId: id ?? '' });
}

/** onRequest guard of PUT /api/users/:id/password: the signed-in owner only. */
export async function requirePasswordOwner(req: FastifyRequest) {
  const { id } = req.params as { id?: string };
  usersPolicy.authorize(req.actor, 'users.change_password', { userId: id ?? '' });
}

/**
 * The accounts that have this role, a filter an admin or a directory reader picked (data, not a permission): the one
 * place a list is narrowed by role in SQL (decision 035).
 */
export const withRole = (role: Role): SQL => eq(users.role, role);

/** The administrators' accounts: the start checks that at least one exists (auth/bootstrap.ts). */
export const administrators = (): SQL => eq(users.role, 'admin');
