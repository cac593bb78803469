import { and, asc, desc, eq, inArray, lt } from 'drizzle-orm';

import type { AcknowledgementSettings } from '#shared/schemas/acknowledgements.ts';

import type { Db, DbOrTx, Tx } from '#server/db/client.ts';
import { groupItems, type GroupRow, groups } from '#server/db/schema/index.ts';
import { notFound } from '#server/lib/errors.ts';
import { countWhere } from '#server/lib/paging.ts';
import {
  applyAcknowledgementSettings,
  withItemAcknowledgements,
} from '#server/modules/acknowledgements/acknowledgements.service.ts';
import { activityWord } from '#server/modules/audit/activity-words.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { files } from '#server/modules/files/files.view.ts';
import {
  type FileStore,
  saveFileRow,
  type StoredFile,
  transactionDroppingFiles,
} from '#server/modules/files/storage.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { type GroupItemField, KIND_OF } from './groups.presenter.ts';
import type { ItemRow } from './groups.service.ts';

/** Name and description; notices and circulars also carry 'valid until' (null: no expiry). */
export type GroupItemData = { name: string; description: string; validUntil?: string | null };

/** 'projects' → 'project', a coded word of the activity log (decision 060). */
const singular = (field: GroupItemField) => activityWord(KIND_OF[field]);

/** One list of a group (notices, circulars or a file kind), newest first, a page at a time. Callers check canViewGroup. */
export async function listGroupItems(
  db: DbOrTx,
  groupId: string,
  field: GroupItemField,
  page: { limit: number; offset: number },
): Promise<ItemRow[]> {
  const rows = await db
    .select({ item: groupItems, fileName: files.originalName })
    .from(groupItems)
    .leftJoin(files, eq(groupItems.fileId, files.id))
    .where(and(eq(groupItems.groupId, groupId), eq(groupItems.kind, KIND_OF[field])))
    .orderBy(desc(groupItems.createdAt), desc(groupItems.id))
    .limit(page.limit)
    .offset(page.offset);
  return withItemAcknowledgements(
    db,
    'group',
    rows.map((r) => ({ ...r.item, fileName: r.fileName })),
  );
}

/** How many items one list of a group holds (group_items_group_kind_idx). Callers check canViewGroup. */
export const countGroupItems = (db: DbOrTx, groupId: string, field: GroupItemField) =>
  countWhere(db, groupItems, and(eq(groupItems.groupId, groupId), eq(groupItems.kind, KIND_OF[field])));

/** Adds a notice, circular or file to a group, with its stored file, in one transaction. Callers check canManageGroup. */
export async function createGroupItem(
  db: Db,
  actor: Actor,
  group: GroupRow,
  field: GroupItemField,
  input: GroupItemData,
  file: StoredFile,
  acknowledgement?: AcknowledgementSettings,
): Promise<ItemRow> {
  const created = await db.transaction(async (tx) => {
    const saved = await saveFileRow(tx, file, actor.id);
    const [item] = await tx
      .insert(groupItems)
      .values({
        groupId: group.id,
        kind: KIND_OF[field],
        name: input.name,
        description: input.description,
        validUntil: 'validUntil' in input ? (input.validUntil ?? null) : null,
        fileId: saved.id,
      })
      .returning();
    await recordActivity(
      tx,
      actor,
      'activity.group_item_added',
      { kind: singular(field), name: item!.name, group: group.name },
      { type: 'group-item', id: item!.id },
    );
    await acknowledgementOf(tx, actor, group, item!, acknowledgement);
    return { ...item!, fileName: saved.originalName };
  });
  return (await withItemAcknowledgements(db, 'group', [created]))[0]!;
}

/** A notice's or circular's acknowledgement settings, inside its write (decision 074). */
async function acknowledgementOf(
  tx: Tx,
  actor: Actor,
  group: GroupRow,
  item: { id: string; kind: string; name: string },
  settings: AcknowledgementSettings | undefined,
) {
  if (item.kind !== 'notice' && item.kind !== 'circular') return;
  await applyAcknowledgementSettings(
    tx,
    actor,
    { owner: { type: 'group', groupId: group.id }, itemId: item.id, kind: item.kind, name: item.name },
    settings,
  );
}

async function findItem(tx: DbOrTx, group: GroupRow, field: GroupItemField, itemId: string) {
  const [row] = await tx
    .select({ item: groupItems, fileName: files.originalName })
    .from(groupItems)
    .leftJoin(files, eq(groupItems.fileId, files.id))
    .where(and(eq(groupItems.id, itemId), eq(groupItems.groupId, group.id), eq(groupItems.kind, KIND_OF[field])))
    .limit(1);
  if (!row) throw notFound('groups.item_not_found');
  return row;
}

/**
 * Edits name and description, and replaces the file when a new one is sent (the old one is deleted once the change
 * is committed). Callers check canManageGroup.
 */
export async function updateGroupItem(
  db: Db,
  store: FileStore,
  actor: Actor,
  group: GroupRow,
  field: GroupItemField,
  itemId: string,
  input: GroupItemData,
  file: StoredFile | null,
  acknowledgement?: AcknowledgementSettings,
): Promise<ItemRow> {
  const updated = await transactionDroppingFiles(db, store, async (tx, dropFiles) => {
    const found = await findItem(tx, group, field, itemId);
    let fileId = found.item.fileId;
    let fileName = found.fileName;
    if (file) {
      const saved = await saveFileRow(tx, file, actor.id);
      fileId = saved.id;
      fileName = saved.originalName;
    }
    const [item] = await tx
      .update(groupItems)
      .set({
        name: input.name,
        description: input.description,
        ...('validUntil' in input ? { validUntil: input.validUntil ?? null } : {}),
        fileId,
      })
      .where(eq(groupItems.id, itemId))
      .returning();
    if (file) await dropFiles([found.item.fileId]);
    await recordActivity(
      tx,
      actor,
      'activity.group_item_updated',
      { kind: singular(field), name: item!.name, group: group.name },
      { type: 'group-item', id: itemId },
    );
    await acknowledgementOf(tx, actor, group, item!, acknowledgement);
    return { ...item!, fileName };
  });
  return (await withItemAcknowledgements(db, 'group', [updated]))[0]!;
}

/**
 * Deletes a notice, circular or file and its stored file; a notice's or circular's acknowledgement request and rows
 * go with it (cascade), and their bell notices (migration 0028). Callers check canManageGroup.
 */
export async function deleteGroupItem(
  db: Db,
  store: FileStore,
  actor: Actor,
  group: GroupRow,
  field: GroupItemField,
  itemId: string,
): Promise<void> {
  await transactionDroppingFiles(db, store, async (tx, dropFiles) => {
    const found = await findItem(tx, group, field, itemId);
    await tx.delete(groupItems).where(eq(groupItems.id, itemId));
    await dropFiles([found.item.fileId]);
    await recordActivity(
      tx,
      actor,
      'activity.group_item_deleted',
      { kind: singular(field), name: found.item.name, group: group.name },
      { type: 'group-item', id: itemId },
    );
  });
}

/** How many groups the achievements list pages through (listAchievements). Anyone may call it. */
export const countAchievementGroups = (db: DbOrTx) => countWhere(db, groups, undefined);

const ACHIEVEMENT_FIELDS = ['projects', 'patents', 'technologies', 'courses', 'publications'] as const;

/**
 * Every group (a page of them, by name) with its projects, patents, technologies, courses and publications, for the
 * lab home's Product & Achievements tab. Anyone may call it (decision 006).
 */
export async function listAchievements(db: DbOrTx, page: { limit: number; offset: number }) {
  const groupRows = await db
    .select({ id: groups.id, name: groups.name })
    .from(groups)
    .orderBy(asc(groups.name), asc(groups.id))
    .limit(page.limit)
    .offset(page.offset);
  if (!groupRows.length) return [];
  const items = await db
    .select({
      id: groupItems.id,
      groupId: groupItems.groupId,
      kind: groupItems.kind,
      name: groupItems.name,
      description: groupItems.description,
      fileId: groupItems.fileId,
    })
    .from(groupItems)
    .where(
      and(
        inArray(
          groupItems.groupId,
          groupRows.map((g) => g.id),
        ),
        inArray(
          groupItems.kind,
          ACHIEVEMENT_FIELDS.map((f) => KIND_OF[f]),
        ),
      ),
    )
    .orderBy(desc(groupItems.createdAt), desc(groupItems.id));
  return groupRows.map((g) => ({
    ...g,
    lists: Object.fromEntries(
      ACHIEVEMENT_FIELDS.map((f) => [f, items.filter((i) => i.groupId === g.id && i.kind === KIND_OF[f])]),
    ) as Record<(typeof ACHIEVEMENT_FIELDS)[number], typeof items>,
  }));
}

/**
 * Group notices and circulars whose 'valid until' date has passed (the Archive, decision 019), with the group's
 * name, latest expiry first. `groupIds` null means every group. Callers pass only groups the actor may view.
 */
export async function listExpiredGroupDocuments(db: DbOrTx, groupIds: string[] | null, today: string) {
  if (groupIds && !groupIds.length) return [];
  const rows = await db
    .select({ item: groupItems, fileName: files.originalName, groupName: groups.name })
    .from(groupItems)
    .innerJoin(groups, eq(groups.id, groupItems.groupId))
    .leftJoin(files, eq(groupItems.fileId, files.id))
    .where(
      and(
        inArray(groupItems.kind, ['notice', 'circular']),
        lt(groupItems.validUntil, today),
        groupIds ? inArray(groupItems.groupId, groupIds) : undefined,
      ),
    )
    .orderBy(desc(groupItems.validUntil), desc(groupItems.createdAt), desc(groupItems.id));
  return rows.map((r) => ({ ...r.item, fileName: r.fileName, groupName: r.groupName }));
}
