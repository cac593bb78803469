import { and, eq, inArray, sql } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { closeGroupDocuments, closeGroupMembers, type FileRow } from '#server/db/schema/index.ts';
import type { RecordedFile } from '#server/modules/files/file-access.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { closeGroupsPolicy } from './close-groups.policy.ts';

/**
 * Who reads a close-group document's file, and how the reads are recorded: the area's download rule and recorded
 * files (registered with app.fileAccess by close-groups.routes.ts), and the documents the search leaves out.
 */

/**
 * Download rule for files of area 'close-groups' (registered with file-access.ts, for admins too): whoever may see
 * the close group that holds the document (its members, and admins), a Confidential or Secret document only when
 * cleared or its uploader (close_groups.see_document), and then one of a classification STEP_UP_CLASSIFICATIONS guards
 * only within a step-up (close_groups.open, decision 095: its 401 is thrown, after the rules that hide the
 * document). A link alone is useless to anyone else.
 */
export async function canDownloadCloseGroupFile(db: DbOrTx, actor: Actor, file: FileRow): Promise<boolean> {
  const [row] = await db
    .select({
      memberId: closeGroupMembers.userId,
      uploadedBy: closeGroupDocuments.uploadedBy,
      classification: closeGroupDocuments.classification,
    })
    .from(closeGroupDocuments)
    .leftJoin(
      closeGroupMembers,
      and(eq(closeGroupMembers.closeGroupId, closeGroupDocuments.closeGroupId), eq(closeGroupMembers.userId, actor.id)),
    )
    .where(eq(closeGroupDocuments.fileId, file.id))
    .limit(1);
  if (!row) return false;
  const sees =
    closeGroupsPolicy.allows(actor, 'close_groups.view', { isMember: row.memberId !== null }) &&
    closeGroupsPolicy.allows(actor, 'close_groups.see_document', row);
  if (!sees) return false;
  closeGroupsPolicy.authorize(actor, 'close_groups.open', row);
  return true;
}

/**
 * The close-groups area's recorded files (app.fileAccess, decision 070): every document, whatever its classification,
 * recorded as `document_downloaded` with it; a PDF of one Restricted or above is watermarked (decision 071).
 */
export async function recordedCloseGroupFile(db: DbOrTx, file: FileRow): Promise<RecordedFile | null> {
  const [doc] = await db
    .select({
      id: closeGroupDocuments.id,
      filename: closeGroupDocuments.filename,
      classification: closeGroupDocuments.classification,
    })
    .from(closeGroupDocuments)
    .where(eq(closeGroupDocuments.fileId, file.id))
    .limit(1);
  if (!doc) return null;
  return {
    object: { type: 'close_group_document', id: doc.id, label: doc.filename },
    classification: doc.classification,
    action: 'document_downloaded',
    watermark: doc.classification !== 'Unclassified',
  };
}

/**
 * The documents of the actor's close groups that they may not see (close_groups.see_document: Confidential and Secret
 * ones, for a member not cleared who did not upload them), for the portal search (decision 072). None for those
 * cleared.
 */
export async function hiddenCloseGroupDocuments(db: DbOrTx, actor: Actor): Promise<string[]> {
  const classified = ['Confidential', 'Secret'] as const;
  const hides = classified.filter(
    (classification) =>
      !closeGroupsPolicy.allows(actor, 'close_groups.see_document', { uploadedBy: null, classification }),
  );
  if (!hides.length) return [];
  const rows = await db
    .select({ id: closeGroupDocuments.id })
    .from(closeGroupDocuments)
    .innerJoin(
      closeGroupMembers,
      and(eq(closeGroupMembers.closeGroupId, closeGroupDocuments.closeGroupId), eq(closeGroupMembers.userId, actor.id)),
    )
    .where(
      and(
        inArray(closeGroupDocuments.classification, hides),
        sql`${closeGroupDocuments.uploadedBy} is distinct from ${actor.id}`,
      ),
    );
  return rows.map((r) => r.id);
}
