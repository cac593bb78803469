import { and, eq } from 'drizzle-orm';
import type { CloseGroupStatus } from '#shared/schemas/close-group.ts';
import { formatDate, todayInIndia } from '#shared/format.ts';
import type { DbOrTx } from '#server/db/client.ts';
import { closeGroupDocuments, closeGroupMembers, type FileRow } from '#server/db/schema/index.ts';
import { forbidden } from '#server/lib/errors.ts';
import type { Actor } from '#server/plugins/auth.ts';
import { definePolicy } from '#server/lib/policy.ts';
import { adminsOnly } from '#server/lib/roles.policy.ts';

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

/** Is this user one of the close group's members (its requestedBy)? */
export async function isCloseGroupMember(db: DbOrTx, closeGroupId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: closeGroupMembers.userId })
    .from(closeGroupMembers)
    .where(and(eq(closeGroupMembers.closeGroupId, closeGroupId), eq(closeGroupMembers.userId, userId)))
    .limit(1);
  return Boolean(row);
}

/**
 * May the actor see the close group and its documents? Its members and admins only (issue 8, Privacy); throws 403
 * for anyone else.
 */
export async function assertCanViewCloseGroup(db: DbOrTx, actor: Actor, closeGroupId: string): Promise<void> {
  if (actor.role === 'admin') return;
  if (!(await isCloseGroupMember(db, closeGroupId, actor.id)))
    throw forbidden('You are not a member of this close group.');
}

/** Why a member may not change documents today, or null when the close group is open to them. Admins are never held. */
export function timeBoxRefusal(
  actor: Actor,
  group: { durationFrom: string; durationTo: string },
  today = todayInIndia(),
): string | null {
  if (actor.role === 'admin') return null;
  const status = closeGroupStatus(group, today);
  if (status === 'ended') {
    return `This close group ended on ${formatDate(group.durationTo)}. Its documents can be read but not added, renamed or deleted.`;
  }
  if (status === 'upcoming') {
    return `This close group starts on ${formatDate(group.durationFrom)}. Documents can be added, renamed or deleted from that day.`;
  }
  return null;
}

/** Throws 403 with the time-box reason when a member may not change documents today. */
export function assertWithinTimeBox(actor: Actor, group: { durationFrom: string; durationTo: string }): void {
  const refusal = timeBoxRefusal(actor, group);
  if (refusal) throw forbidden(refusal);
}

/** Rename and delete: the document's uploader or an admin (issue 8, Privacy). */
export const canChangeDocument = (actor: Actor, document: { uploadedBy: string | null }) =>
  actor.role === 'admin' || (document.uploadedBy !== null && document.uploadedBy === actor.id);

/**
 * Download rule for files of area 'close-groups' (registered with files.policy.ts): a member of the close group that
 * holds the document. Admins pass before this is asked. A link alone is useless to anyone else.
 */
export async function canDownloadCloseGroupFile(db: DbOrTx, actor: Actor, file: FileRow): Promise<boolean> {
  const [row] = await db
    .select({ closeGroupId: closeGroupDocuments.closeGroupId })
    .from(closeGroupDocuments)
    .innerJoin(
      closeGroupMembers,
      and(eq(closeGroupMembers.closeGroupId, closeGroupDocuments.closeGroupId), eq(closeGroupMembers.userId, actor.id)),
    )
    .where(eq(closeGroupDocuments.fileId, file.id))
    .limit(1);
  return Boolean(row);
}

/** Who may do what in this module (decision 035). */
export const closeGroupsPolicy = definePolicy({
  /** Creating, editing and deleting close groups, and listing them all: admins. */
  'close_groups.administer': adminsOnly,
});
