import { type SQL, sql } from 'drizzle-orm';

import type { Role } from '#shared/constants.ts';

import { forbidden } from '#server/lib/errors.ts';
import type { Decision } from '#server/lib/policy.ts';
import type { Actor } from '#server/plugins/auth.ts';

/**
 * The rules that follow from a role alone, for the modules' policies to name (decision 035): the one place outside
 * a module's policy where a role is compared.
 */
export const isAdmin = (actor: Actor | null): actor is Actor & { role: 'admin' } => actor?.role === 'admin';

/** Directors and admins: they see every group, every letter (spec §6). */
export const isDirectorOrAdmin = (actor: Actor | null): actor is Actor & { role: 'director' | 'admin' } =>
  actor?.role === 'director' || actor?.role === 'admin';

export const hasRole = <R extends Role>(actor: Actor | null, roles: readonly R[]): actor is Actor & { role: R } =>
  actor !== null && (roles as readonly Role[]).includes(actor.role);

/** A rule for an action only admins take: allowed, or the generic 403. */
export const adminsOnly = (actor: Actor | null): Decision => (isAdmin(actor) ? true : forbidden());

/**
 * The same rules for statements that choose people in SQL (a role column, e.g. `r.role`): whether that person holds
 * `role`. Kept here so that a role compared in SQL is a policy's too (decision 035).
 */
export const hasRoleSql = (roleColumn: SQL, role: Role): SQL => sql`${roleColumn} = ${role}`;
