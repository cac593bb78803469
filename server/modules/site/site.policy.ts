import { definePolicy } from '#server/lib/policy.ts';
import { adminsOnly } from '#server/lib/roles.policy.ts';

/** Who may do what in this module (decision 035). */
export const sitePolicy = definePolicy({
  /** Editing the site pages and reading and answering feedback: admins. */
  'site.administer': adminsOnly,
});
