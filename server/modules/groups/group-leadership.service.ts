import { and, eq, max } from 'drizzle-orm';
import type { z } from 'zod';
import { DEFAULT_ASSOCIATE_DIRECTOR_DESIGNATION } from '#shared/constants.ts';
import type { directorEntryInput, officeMemberInput } from '#shared/schemas/unit.ts';
import type { Db, Tx } from '#server/db/client.ts';
import { directorEntries, files, officeMembers, users, type GroupRow } from '#server/db/schema/index.ts';
import { badRequest, notFound } from '#server/lib/errors.ts';
import type { Actor } from '#server/plugins/auth.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { deleteStoredFile, saveFileRow, type StoredFile } from '#server/modules/files/storage.ts';
import { DIRECTOR_IMAGES_AREA } from './groups.presenter.ts';
import { listDirectorEntries, type EntryRow, type OfficeRow } from './groups.service.ts';

type EntryInput = z.output<typeof directorEntryInput>;

async function assertUserExists(tx: Tx, userId: string | null) {
  if (!userId) return;
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw badRequest('The chosen user does not exist.', 'user');
}

const entryValues = (input: EntryInput) => ({
  userId: input.user,
  name: input.name,
  // spec §9: default designation Assistant Director.
  designation: input.designation || DEFAULT_ASSOCIATE_DIRECTOR_DESIGNATION,
  from: input.from,
  to: input.to,
  about: input.about,
});

async function reload(db: Db, groupId: string, entryId: string): Promise<EntryRow> {
  const entry = (await listDirectorEntries(db, groupId)).find((e) => e.id === entryId);
  if (!entry) throw notFound('Entry not found.');
  return entry;
}

/** Adds an associate-director history entry (with an optional photo). Callers check that the actor is an admin. */
export async function createDirectorEntry(
  db: Db,
  actor: Actor,
  group: GroupRow,
  input: EntryInput,
  image: StoredFile | null,
) {
  const id = await db.transaction(async (tx) => {
    await assertUserExists(tx, input.user);
    const saved = image ? await saveFileRow(tx, image, actor.id) : null;
    const [entry] = await tx
      .insert(directorEntries)
      .values({ ...entryValues(input), groupId: group.id, imageFileId: saved?.id ?? null })
      .returning({ id: directorEntries.id, name: directorEntries.name });
    await recordActivity(tx, actor, `Added associate director entry to group ${group.name}`, {
      type: 'director-entry',
      id: entry!.id,
    });
    return entry!.id;
  });
  return reload(db, group.id, id);
}

/**
 * Replaces an entry's fields; a new image replaces the old one, `removeImage` drops it. Callers check that the actor
 * is an admin.
 */
export async function updateDirectorEntry(
  db: Db,
  actor: Actor,
  group: GroupRow,
  entryId: string,
  input: EntryInput,
  image: StoredFile | null,
  removeImage: boolean,
) {
  const dropped = await db.transaction(async (tx) => {
    const [found] = await tx
      .select()
      .from(directorEntries)
      .where(and(eq(directorEntries.id, entryId), eq(directorEntries.groupId, group.id)))
      .limit(1);
    if (!found) throw notFound('Entry not found.');
    await assertUserExists(tx, input.user);
    const saved = image ? await saveFileRow(tx, image, actor.id) : null;
    const imageFileId = saved ? saved.id : removeImage ? null : found.imageFileId;
    await tx
      .update(directorEntries)
      .set({ ...entryValues(input), imageFileId })
      .where(eq(directorEntries.id, entryId));
    const old = found.imageFileId && found.imageFileId !== imageFileId ? found.imageFileId : null;
    if (old) await tx.delete(files).where(eq(files.id, old));
    await recordActivity(tx, actor, `Updated associate director entry of group ${group.name}`, {
      type: 'director-entry',
      id: entryId,
    });
    return old;
  });
  if (dropped) await deleteStoredFile(DIRECTOR_IMAGES_AREA, dropped);
  return reload(db, group.id, entryId);
}

/** Deletes an entry and its photo. Callers check that the actor is an admin. */
export async function deleteDirectorEntry(db: Db, actor: Actor, group: GroupRow, entryId: string): Promise<void> {
  const imageId = await db.transaction(async (tx) => {
    const [found] = await tx
      .delete(directorEntries)
      .where(and(eq(directorEntries.id, entryId), eq(directorEntries.groupId, group.id)))
      .returning();
    if (!found) throw notFound('Entry not found.');
    if (found.imageFileId) await tx.delete(files).where(eq(files.id, found.imageFileId));
    await recordActivity(tx, actor, `Deleted associate director entry of group ${group.name}`, {
      type: 'director-entry',
      id: entryId,
    });
    return found.imageFileId;
  });
  if (imageId) await deleteStoredFile(DIRECTOR_IMAGES_AREA, imageId);
}

type OfficeInput = z.output<typeof officeMemberInput>;

/** Adds a row to the O/o Group Leader table, at the end. Callers check canManageGroup. */
export async function createOfficeMember(
  db: Db,
  actor: Actor,
  group: GroupRow,
  input: OfficeInput,
): Promise<OfficeRow> {
  return db.transaction(async (tx) => {
    const [last] = await tx
      .select({ n: max(officeMembers.position) })
      .from(officeMembers)
      .where(eq(officeMembers.groupId, group.id));
    const [row] = await tx
      .insert(officeMembers)
      .values({ ...input, groupId: group.id, position: (last?.n ?? -1) + 1 })
      .returning();
    await recordActivity(tx, actor, `Added ${row!.name} to the office of group ${group.name}`, {
      type: 'office-member',
      id: row!.id,
    });
    return row!;
  });
}

/** Edits an office row. Callers check canManageGroup. */
export async function updateOfficeMember(
  db: Db,
  actor: Actor,
  group: GroupRow,
  memberId: string,
  input: OfficeInput,
): Promise<OfficeRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(officeMembers)
      .set(input)
      .where(and(eq(officeMembers.id, memberId), eq(officeMembers.groupId, group.id)))
      .returning();
    if (!row) throw notFound('Office member not found.');
    await recordActivity(tx, actor, `Updated ${row.name} in the office of group ${group.name}`, {
      type: 'office-member',
      id: row.id,
    });
    return row;
  });
}

/** Removes an office row. Callers check canManageGroup. */
export async function deleteOfficeMember(db: Db, actor: Actor, group: GroupRow, memberId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(officeMembers)
      .where(and(eq(officeMembers.id, memberId), eq(officeMembers.groupId, group.id)))
      .returning();
    if (!row) throw notFound('Office member not found.');
    await recordActivity(tx, actor, `Removed ${row.name} from the office of group ${group.name}`, {
      type: 'office-member',
      id: row.id,
    });
  });
}
