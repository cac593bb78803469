import { todayInIndia } from '#shared/format.ts';
import type { CloseGroupDocumentJson, CloseGroupJson } from '#shared/schemas/close-group.ts';

import { fileUrl } from '#server/modules/files/storage-areas.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { closeGroupsPolicy, closeGroupStatus } from './close-groups.policy.ts';
import { CLOSE_GROUP_AREA, type CloseGroupDetail, type CloseGroupDocument } from './close-groups.service.ts';

/** A document as JSON for this actor (spec §3 Close group documents). */
export function presentCloseGroupDocument(
  doc: CloseGroupDocument,
  actor: Actor,
  group: { durationFrom: string; durationTo: string },
  today = todayInIndia(),
): CloseGroupDocumentJson {
  return {
    _id: doc.id,
    filename: doc.filename,
    url: fileUrl(CLOSE_GROUP_AREA, doc.fileId)!,
    size: doc.size,
    uploadedBy: doc.uploadedBy ? { _id: doc.uploadedBy.id, name: doc.uploadedBy.name } : null,
    uploadedAt: doc.uploadedAt.toISOString(),
    classification: doc.classification,
    // Rename and delete have the same rule (the uploader or an admin), within the time box.
    canChange:
      closeGroupsPolicy.allows(actor, 'close_groups.rename_document', { uploadedBy: doc.uploadedBy?.id ?? null }) &&
      closeGroupsPolicy.allows(actor, 'close_groups.write', { ...group, today }),
  };
}

/** The one place a close group becomes JSON (spec §3 Close group), with what this actor may do in it today. */
export function presentCloseGroup({ group, members, documents }: CloseGroupDetail, actor: Actor): CloseGroupJson {
  const today = todayInIndia();
  return {
    _id: group.id,
    groupName: group.groupName,
    groupPurpose: group.groupPurpose,
    groupDuration: { from: group.durationFrom, to: group.durationTo },
    requestedBy: members.map((m) => ({ _id: m.id, name: m.name, email: m.email })),
    adminRemarks: group.adminRemarks,
    status: closeGroupStatus(group, today),
    canUpload: closeGroupsPolicy.allows(actor, 'close_groups.write', { ...group, today }),
    // A Confidential or Secret document only for those cleared for it (decision 072): the others never learn of it.
    documents: documents
      .filter((d) =>
        closeGroupsPolicy.allows(actor, 'close_groups.see_document', {
          uploadedBy: d.uploadedBy?.id ?? null,
          classification: d.classification,
        }),
      )
      .map((d) => presentCloseGroupDocument(d, actor, group, today)),
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
  };
}
