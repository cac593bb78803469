import { and, eq, ne, type SQL } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';
import type { CloseGroupStatus } from '#shared/schemas/close-group.ts';

import { users } from '#server/db/schema/index.ts';
import { forbidden } from '#server/lib/errors.ts';
import { type Decision, definePolicy } from '#server/lib/policy.ts';
import { adminsOnly, isAdmin } from '#server/lib/roles.policy.ts';
import type { Actor } from '#server/plugins/auth.ts';

/**
 * Where a close group stands against its duration on `today`. Both ends count as inside: a group of 1 to 30 June
 * is open all day on 30 June (docs/decisions/007).
 */
export function closeGroupStatus(
  duration: { durationFrom: string; durationTo: string },
  today = todayInIndia(),
): CloseGroupStatus {
  if (today < duration.durationFrom) return 'upcoming';
  if (today > duration.durationTo) return 'ended';
  return 'active';
}

/** A close group as the rules see it: its duration, and whether the asker is one of its members (the service loads it). */
export interface CloseGroupFacts {
  isMember: boolean;
}
/** A close group's time box on a day (today in India unless given). */
export interface TimeBox {
  durationFrom: string;
  durationTo: string;
  today?: string;
}

/** The people Requested By may name, as a WHERE condition on users: approved staff (a pending account cannot join). */
export const eligibleMembers = (): SQL => and(eq(users.status, 'approved'), ne(users.role, 'pending_director'))!;

/** Rename and delete: the document's uploader or an admin (issue 8, Privacy). */
const uploaderOrAdmin = (actor: Actor | null, document: { uploadedBy: string | null }) =>
  actor !== null && ((document.uploadedBy !== null && document.uploadedBy === actor.id) || isAdmin(actor));

/** Who may do what in this module (decision 035). */
export const closeGroupsPolicy = definePolicy({
  /** Creating, editing and deleting close groups, and listing them all: admins. */
  'close_groups.administer': adminsOnly,

  /** Seeing a close group and its documents (and downloading them): its members and admins (issue 8, Privacy). */
  'close_groups.view': (actor: Actor | null, group: CloseGroupFacts): Decision =>
    actor !== null && (group.isMember || isAdmin(actor)) ? true : forbidden('close_groups.not_a_member'),

  /**
   * Adding, renaming or deleting documents today: members only between the group's From and To dates (both
   * included); admins are never held (docs/decisions/007).
   */
  'close_groups.write': (actor: Actor | null, box: TimeBox): Decision => {
    if (isAdmin(actor)) return true;
    const status = closeGroupStatus(box, box.today);
    if (status === 'ended') return forbidden('close_groups.ended', { endDate: box.durationTo });
    if (status === 'upcoming') return forbidden('close_groups.upcoming', { startDate: box.durationFrom });
    return true;
  },

  /** Renaming a document: its uploader or an admin. */
  'close_groups.rename_document': (actor: Actor | null, document: { uploadedBy: string | null }): Decision =>
    uploaderOrAdmin(actor, document) ? true : forbidden('close_groups.rename_uploader_only'),

  /** Deleting a document: its uploader or an admin. */
  'close_groups.delete_document': (actor: Actor | null, document: { uploadedBy: string | null }): Decision =>
    uploaderOrAdmin(actor, document) ? true : forbidden('close_groups.delete_uploader_only'),
});
