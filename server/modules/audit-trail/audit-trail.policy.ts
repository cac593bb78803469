import { definePolicy } from '#server/lib/policy.ts';
import { adminsOnly } from '#server/lib/roles.policy.ts';

/** Who may do what with the audit trail (issue 31, decision 035). */
export const auditTrailPolicy = definePolicy({
  /** Writing a checkpoint on demand (POST /api/audit/checkpoints, decision 068): admins. */
  'audit.checkpoint': adminsOnly,
});
