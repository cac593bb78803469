import { definePolicy } from '#server/lib/policy.ts';
import { adminsOnly } from '#server/lib/roles.policy.ts';

/** Who may do what in this module (decision 035). */
export const adminPolicy = definePolicy({
  /** Approving, rejecting and managing staff accounts (spec §5 Admin): admins. */
  'people.administer': adminsOnly,
});
