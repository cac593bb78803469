import type { Role } from '#shared/constants.ts';

import type { UserRow } from '#server/db/schema/index.ts';
import { badRequest, conflict } from '#server/lib/errors.ts';
import { definePolicy } from '#server/lib/policy.ts';
import { adminsOnly, isAdmin } from '#server/lib/roles.policy.ts';
import type { Actor } from '#server/plugins/auth.ts';

/** A person's account as Manage Users changes it. */
type Account = Pick<UserRow, 'id' | 'name' | 'role'>;

/** Who may do what in this module (decision 035). */
export const adminPolicy = definePolicy({
  /** Approving, rejecting and managing staff accounts (spec §5 Admin): admins. */
  'people.administer': adminsOnly,
  /**
   * Giving an account another role: admins, but not their own role, so the portal never loses its last administrator
   * by accident.
   */
  'people.change_role': (actor: Actor | null, change: { user: Account; role: Role }) => {
    if (!isAdmin(actor)) return adminsOnly(actor);
    return change.user.id === actor.id && changesRole(change.user, change.role)
      ? badRequest('admin.own_role', 'role')
      : true;
  },
  /**
   * Withdrawing a clearance for Confidential and Secret letters (decision 020): not while the person holds such a letter
   * (`held`, counted by the service), unless their role sees every letter anyway (directors and admins, spec §6), so
   * no letter is left with someone who may no longer see it.
   */
  'people.withdraw_clearance': (actor: Actor | null, account: { user: Account; held: number }) => {
    if (!isAdmin(actor)) return adminsOnly(actor);
    const { user, held } = account;
    if (!held || user.role === 'director' || user.role === 'admin') return true;
    return conflict('admin.holds_classified', undefined, { name: user.name, count: held });
  },
});

/** Does this change give the account another role? (The activity log says so; data, not a permission.) */
export const changesRole = (user: Pick<UserRow, 'role'>, role: Role): boolean => user.role !== role;
