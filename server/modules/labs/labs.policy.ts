import { definePolicy } from '#server/lib/policy.ts';
import { adminsOnly } from '#server/lib/roles.policy.ts';

/** Who may do what in this module (decision 035). */
export const labsPolicy = definePolicy({
  /** Creating the lab and editing its information and lists: admins. */
  'lab.edit': adminsOnly,
});
