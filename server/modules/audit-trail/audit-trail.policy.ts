import { forbidden } from '#server/lib/errors.ts';
import { definePolicy } from '#server/lib/policy.ts';
import { adminsOnly, isDirectorOrAdmin } from '#server/lib/roles.policy.ts';
import type { Actor } from '#server/plugins/auth.ts';

/** Who may do what with the audit trail (decisions 035 and 069). */
export const auditTrailPolicy = definePolicy({
  /** Writing a checkpoint on demand: admins, who keep the portal running. */
  'audit.checkpoint': adminsOnly,
  /**
   * Reading the trail (Admin → Audit Trail, its CSV): admins and directors. A director answers for the lab's classified
   * material and reads who saw it; they change nothing of the trail (decision 069).
   */
  'audit.read': (actor: Actor | null) => (isDirectorOrAdmin(actor) ? true : forbidden('audit.read_forbidden')),
});
