import { and, eq, ne, type SQL } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';
import type { CloseGroupStatus } from '#shared/schemas/close-group.ts';

import { forbidden, notFound } from '#server/lib/errors.ts';
import { type Decision, definePolicy } from '#server/lib/policy.ts';
import { adminsOnly, isAdmin } from '#server/lib/roles.policy.ts';
import { stepUpCheck } from '#server/lib/step-up.policy.ts';
import { isClearedForClassified } from '#server/modules/letters/letters.policy.ts';
import { users } from '#server/modules/users/users.view.ts';
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

/**
 * A close-group document's classification (decision 072): Confidential and Secret ones follow the
 * letters' clearance rule (letters.policy isClearedForClassified: directors and admins, and those an admin has
 * cleared), inside the close group's own rule (its members, and admins): a member who is not cleared does not see
 * them at all, in the list, the search or by link, unless they uploaded it. Unclassified and Restricted ones are seen
 * by every member; Restricted and above are watermarked when downloaded as PDF (decision 071).
 */
const CLEARED_ONLY: readonly string[] = ['Confidential', 'Secret'];

/** A document as the rules see it. */
export interface DocumentFacts {
  uploadedBy: string | null;
  classification: string;
}

/** Rename and delete: the document's uploader or an admin (decision 007, Privacy). */
const uploaderOrAdmin = (actor: Actor | null, document: { uploadedBy: string | null }) =>
  actor !== null && ((document.uploadedBy !== null && document.uploadedBy === actor.id) || isAdmin(actor));

/** Who may do what in this module (decision 035). */
export const closeGroupsPolicy = definePolicy({
  /** Creating, editing and deleting close groups, and listing them all: admins. */
  'close_groups.administer': adminsOnly,

  /** Seeing a close group and its documents (and downloading them): its members and admins (decision 007, Privacy). */
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

  /**
   * Seeing a document of a close group the actor may see (`close_groups.view`): a Confidential or Secret one only when
   * they are cleared, uploaded it, or are an admin. Else 404: its existence is not disclosed (decision 072).
   */
  'close_groups.see_document': (actor: Actor | null, document: DocumentFacts): Decision => {
    if (!CLEARED_ONLY.includes(document.classification)) return true;
    if (actor && (isAdmin(actor) || document.uploadedBy === actor.id || isClearedForClassified(actor))) return true;
    return notFound('close_groups.document_not_found');
  },

  /**
   * Opening a document the actor may see (`close_groups.see_document`): its file, its PDF, its preview. One of a
   * classification STEP_UP_CLASSIFICATIONS guards (Secret by default) needs a sign-in or a check within the last
   * STEP_UP_MINUTES, admins included: the letters' rule (decisions 066 and 095). Else 401 `auth.step_up_required`.
   */
  'close_groups.open': (actor: Actor | null, document: { classification: string }): Decision =>
    stepUpCheck(actor, document.classification),

  /** Changing a document's classification: its uploader or an admin (within the time box: `close_groups.write`). */
  'close_groups.classify_document': (actor: Actor | null, document: { uploadedBy: string | null }): Decision =>
    uploaderOrAdmin(actor, document) ? true : forbidden('close_groups.classify_uploader_only'),

  /** Renaming a document: its uploader or an admin. */
  'close_groups.rename_document': (actor: Actor | null, document: { uploadedBy: string | null }): Decision =>
    uploaderOrAdmin(actor, document) ? true : forbidden('close_groups.rename_uploader_only'),

  /** Deleting a document: its uploader or an admin. */
  'close_groups.delete_document': (actor: Actor | null, document: { uploadedBy: string | null }): Decision =>
    uploaderOrAdmin(actor, document) ? true : forbidden('close_groups.delete_uploader_only'),
});
