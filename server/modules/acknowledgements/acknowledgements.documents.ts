import { eq, sql } from 'drizzle-orm';

import type { AcknowledgedDocumentJson, AcknowledgedDocumentKind } from '#shared/schemas/acknowledgements.ts';

import { acknowledgementRequests } from '#server/db/schema/index.ts';
import { filesAs } from '#server/modules/files/files.view.ts';
import { fileUrl } from '#server/modules/files/storage-areas.ts';
import { groupItems, groupsAs } from '#server/modules/groups/groups.view.ts';
import { labItems, labs } from '#server/modules/labs/labs.view.ts';

/**
 * The notice or circular behind a request, read beside the request in the same query (its lab or group item, the
 * item's file and owner). A request has exactly one of the two items (a CHECK of the table).
 */

const ownerGroup = groupsAs('owner_group');
const itemFile = filesAs('item_file');

/** Columns of the document, for a select that joins `withDocument`. */
export const documentColumns = {
  labItemId: labItems.id,
  groupItemId: groupItems.id,
  labKind: labItems.kind,
  groupKind: groupItems.kind,
  name: sql<string>`coalesce(${labItems.name}, ${groupItems.name})`,
  description: sql<string>`coalesce(${labItems.description}, ${groupItems.description})`,
  fileId: sql<string | null>`coalesce(${labItems.fileId}, ${groupItems.fileId})`,
  fileName: itemFile.originalName,
  labId: labs.id,
  labName: labs.name,
  groupId: ownerGroup.id,
  groupName: ownerGroup.name,
};
/** What documentColumns read: one of the two items' sides is null. */
export interface DocumentColumns {
  labItemId: string | null;
  groupItemId: string | null;
  labKind: string | null;
  groupKind: string | null;
  name: string;
  description: string;
  fileId: string | null;
  fileName: string | null;
  labId: string | null;
  labName: string | null;
  groupId: string | null;
  groupName: string | null;
}

/** Joins a select from acknowledgement_requests to its document (documentColumns). */
// NOTE: any: drizzle's select builders differ in type by what they joined before; these joins need only the table.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function withDocument<Q extends { leftJoin: (...args: any[]) => any }>(query: Q): Q {
  return query
    .leftJoin(labItems, eq(labItems.id, acknowledgementRequests.labItemId))
    .leftJoin(groupItems, eq(groupItems.id, acknowledgementRequests.groupItemId))
    .leftJoin(labs, eq(labs.id, labItems.labId))
    .leftJoin(ownerGroup, eq(ownerGroup.id, groupItems.groupId))
    .leftJoin(itemFile, sql`${itemFile.id} = coalesce(${labItems.fileId}, ${groupItems.fileId})`) as Q;
}

/** The storage area a document's file is served from (labs.presenter.ts AREA_OF, groups.presenter.ts). */
const areaOf = (d: DocumentColumns) =>
  d.labItemId ? (d.labKind === 'circular' ? 'circulars' : 'notices') : 'group-files';

/** Row -> the document's JSON. */
export function presentDocument(d: DocumentColumns): AcknowledgedDocumentJson {
  const kind = (d.labKind ?? d.groupKind) as AcknowledgedDocumentKind;
  return {
    _id: (d.labItemId ?? d.groupItemId)!,
    kind,
    name: d.name,
    description: d.description,
    fileUrl: fileUrl(areaOf(d), d.fileId),
    fileName: d.fileName,
    owner: d.labItemId
      ? { type: 'lab', _id: d.labId!, name: d.labName! }
      : { type: 'group', _id: d.groupId!, name: d.groupName! },
  };
}
