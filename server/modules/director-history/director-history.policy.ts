import { definePolicy } from '#server/lib/policy.ts';
import { adminsOnly } from '#server/lib/roles.policy.ts';

/** Who may do what in this module (decision 035). */
export const directorHistoryPolicy = definePolicy({
  /** Writing the lab's and the groups' director histories: admins. */
  'director_history.edit': adminsOnly,
});
