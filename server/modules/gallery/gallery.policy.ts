import { definePolicy } from '#server/lib/policy.ts';
import { adminsOnly } from '#server/lib/roles.policy.ts';

/** Who may do what in this module (decision 035). */
export const galleryPolicy = definePolicy({
  /** Adding, captioning and removing the lab's photos: admins. */
  'gallery.edit': adminsOnly,
});
