import { definePolicy } from '#server/lib/policy.ts';
import { adminsOnly } from '#server/lib/roles.policy.ts';

/** Who may do what in this module (decision 035). */
export const auditPolicy = definePolicy({
  /** Reading the activity log (spec §5 Logs): admins. */
  'activity_log.view': adminsOnly,
});
