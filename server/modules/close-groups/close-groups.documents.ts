import { and, eq } from 'drizzle-orm';

import { type DocumentClassification, renamedFilename } from '#shared/schemas/close-group.ts';

import type { Db, DbOrTx } from '#server/db/client.ts';
import { closeGroupDocuments, closeGroups, type FileRow } from '#server/db/schema/index.ts';
import { badRequest, notFound } from '#server/lib/errors.ts';
import { activityWord } from '#server/modules/audit/activity-words.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { type AuditWho, recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import { renameStoredFile } from '#server/modules/files/files.queries.ts';
import {
  type FileStore,
  saveFileRow,
  type StoredFile,
  transactionDroppingFiles,
} from '#server/modules/files/storage.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { closeGroupsPolicy } from './close-groups.policy.ts';
import { assertCanViewCloseGroup, type CloseGroupDocumentRow, type CloseGroupRow } from './close-groups.service.ts';

/**
 * A close group's documents (docs/decisions/072, 105): adding one, renaming it, deleting it and changing its
 * classification, each under the group's lock. The groups themselves, their members and lists are
 * close-groups.service.ts.
 */

/** The close group row, locked for this transaction, or 404. */
async function lockCloseGroup(tx: DbOrTx, id: string): Promise<CloseGroupRow> {
  const [group] = await tx.select().from(closeGroups).where(eq(closeGroups.id, id)).limit(1).for('update');
  if (!group) throw notFound('close_groups.not_found');
  return group;
}

/** The close group row without details, or 404 (the cheap check before an upload is read). */
export async function findCloseGroupRow(db: DbOrTx, id: string): Promise<CloseGroupRow> {
  const [group] = await db.select().from(closeGroups).where(eq(closeGroups.id, id)).limit(1);
  if (!group) throw notFound('close_groups.not_found');
  return group;
}

/**
 * Adds an uploaded file to a close group with its classification (decision 072). Membership and the time box are
 * checked again here, under the group's lock, so a group deleted, closed or left meanwhile refuses the file. The
 * caller discards the file on failure.
 */
export async function addCloseGroupDocument(
  db: Db,
  actor: Actor,
  closeGroupId: string,
  file: StoredFile,
  classification: DocumentClassification = 'Unclassified',
) {
  return db.transaction(async (tx) => {
    const group = await lockCloseGroup(tx, closeGroupId);
    await assertCanViewCloseGroup(tx, actor, closeGroupId); // membership may have changed since the route looked
    closeGroupsPolicy.authorize(actor, 'close_groups.write', group);
    const fileRow: FileRow = await saveFileRow(tx, file, actor.id);
    const [doc] = await tx
      .insert(closeGroupDocuments)
      .values({ closeGroupId, fileId: fileRow.id, filename: file.originalName, uploadedBy: actor.id, classification })
      .returning();
    await recordActivity(
      tx,
      actor,
      'activity.close_group_document_uploaded',
      { file: doc!.filename, group: group.groupName },
      { type: 'close_group_document', id: doc!.id },
    );
    return doc!;
  });
}

/**
 * The document, which must belong to this close group and be one the actor may see (a Confidential or Secret one
 * when cleared: close_groups.see_document), or 404.
 */
async function findDocument(
  tx: DbOrTx,
  actor: Actor,
  closeGroupId: string,
  documentId: string,
): Promise<CloseGroupDocumentRow> {
  const [doc] = await tx
    .select()
    .from(closeGroupDocuments)
    .where(and(eq(closeGroupDocuments.id, documentId), eq(closeGroupDocuments.closeGroupId, closeGroupId)))
    .limit(1)
    .for('update');
  if (!doc) throw notFound('close_groups.document_not_found');
  closeGroupsPolicy.authorize(actor, 'close_groups.see_document', doc);
  return doc;
}

/**
 * The group, locked, and a document of it the actor may act on by `rule`. Membership is checked again under the lock
 * (it may have changed since the route looked), then the document (findDocument), `rule` on it, and the group's time
 * box (close_groups.write).
 */
async function lockDocument(
  tx: DbOrTx,
  actor: Actor,
  closeGroupId: string,
  documentId: string,
  rule: 'close_groups.rename_document' | 'close_groups.delete_document' | 'close_groups.classify_document',
): Promise<{ group: CloseGroupRow; doc: CloseGroupDocumentRow }> {
  const group = await lockCloseGroup(tx, closeGroupId);
  await assertCanViewCloseGroup(tx, actor, closeGroupId);
  const doc = await findDocument(tx, actor, closeGroupId, documentId);
  closeGroupsPolicy.authorize(actor, rule, doc);
  closeGroupsPolicy.authorize(actor, 'close_groups.write', group);
  return { group, doc };
}

/** Renames a document: its uploader (while a member, within the time box) or an admin. */
export async function renameCloseGroupDocument(
  db: Db,
  actor: Actor,
  closeGroupId: string,
  documentId: string,
  newFilename: string,
) {
  return db.transaction(async (tx) => {
    const { group, doc } = await lockDocument(tx, actor, closeGroupId, documentId, 'close_groups.rename_document');
    const filename = renamedFilename(doc.filename, newFilename);
    if (filename === doc.filename) throw badRequest('close_groups.new_filename_same', 'newFilename');
    const [renamed] = await tx
      .update(closeGroupDocuments)
      .set({ filename })
      .where(eq(closeGroupDocuments.id, documentId))
      .returning();
    // The download carries the new name too.
    await renameStoredFile(tx, doc.fileId, filename);
    await recordActivity(
      tx,
      actor,
      'activity.close_group_document_renamed',
      { file: doc.filename, name: filename, group: group.groupName },
      { type: 'close_group_document', id: documentId },
    );
    return renamed!;
  });
}

/** Deletes a document and its file: its uploader (while a member, within the time box) or an admin. */
export async function deleteCloseGroupDocument(
  db: Db,
  store: FileStore,
  actor: Actor,
  closeGroupId: string,
  documentId: string,
): Promise<void> {
  await transactionDroppingFiles(db, store, async (tx, dropFiles) => {
    const { group, doc } = await lockDocument(tx, actor, closeGroupId, documentId, 'close_groups.delete_document');
    await tx.delete(closeGroupDocuments).where(eq(closeGroupDocuments.id, documentId));
    await dropFiles([doc.fileId]);
    await recordActivity(
      tx,
      actor,
      'activity.close_group_document_deleted',
      { file: doc.filename, group: group.groupName },
      { type: 'close_group_document', id: documentId },
    );
  });
}

/**
 * Changes a document's classification (decision 072): its uploader (while a member, within the time box) or an admin.
 * The same classification again changes nothing and writes nothing.
 */
export async function classifyCloseGroupDocument(
  db: Db,
  actor: Actor,
  who: AuditWho,
  closeGroupId: string,
  documentId: string,
  classification: DocumentClassification,
): Promise<void> {
  await db.transaction(async (tx) => {
    const { group, doc } = await lockDocument(tx, actor, closeGroupId, documentId, 'close_groups.classify_document');
    if (doc.classification === classification) return;
    await tx.update(closeGroupDocuments).set({ classification }).where(eq(closeGroupDocuments.id, documentId));
    await recordActivity(
      tx,
      actor,
      'activity.close_group_document_classified',
      { file: doc.filename, classification: activityWord(classification), group: group.groupName },
      { type: 'close_group_document', id: documentId },
    );
    await recordAudit(tx, who, {
      action: 'classification_changed',
      object: { type: 'close_group_document', id: documentId, label: doc.filename },
      classification,
      outcome: 'success',
      details: { from: doc.classification, to: classification, closeGroup: group.groupName },
    });
  });
}
