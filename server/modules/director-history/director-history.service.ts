import { and, desc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';

import type { MessageCode, MessageParams } from '#shared/messages/index.ts';
import type { directorEntryInput } from '#shared/schemas/unit.ts';

import type { Db, DbOrTx, Tx } from '#server/db/client.ts';
import { prepared } from '#server/db/prepared.ts';
import { directorEntries } from '#server/db/schema/index.ts';
import { badRequest, notFound } from '#server/lib/errors.ts';
import { type ActivityCode, recordActivity } from '#server/modules/audit/audit.service.ts';
import {
  type FileStore,
  saveFileRow,
  type StoredFile,
  transactionDroppingFiles,
  type TransactionRunner,
} from '#server/modules/files/storage.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

/**
 * Director history, one service for both owners: the lab's directors (default designation Director) and a
 * group's associate directors (default Assistant Director, spec §9). Entries live in `director_entries` with either
 * `lab_id` or `group_id`; their images in the `directors` area.
 */
export const DIRECTOR_IMAGES_AREA = 'directors';

export type DirectorFields = z.output<typeof directorEntryInput>;

export type DirectorEntryWithUser = typeof directorEntries.$inferSelect & {
  user: { id: string; name: string; photoFileId: string | null; about: string } | null;
};

/** Whose history: the lab's or a group's, with the words and the transaction that owner uses. */
export interface DirectorHistoryOwner {
  kind: 'lab' | 'group';
  id: string;
  /** The designation an entry gets when none is given (spec §9). */
  defaultDesignation: string;
  /** The 404 of an entry that is not this owner's. */
  notFoundMessage: MessageCode;
  /** The activity log's words for a write: its code and parameters, and the record type. */
  activity: (
    action: 'added' | 'updated' | 'deleted',
    entry: { name: string | null; from: string },
    userName: string,
  ) => { code: ActivityCode; params?: MessageParams; type: string };
  /** The owner's transaction (the lab's also tells every node its cached reads changed); a plain one by default. */
  transaction?: TransactionRunner;
}

const ownerColumn = (owner: Pick<DirectorHistoryOwner, 'kind'>) =>
  owner.kind === 'lab' ? directorEntries.labId : directorEntries.groupId;

/** The select of entries with their linked users, newest first. */
const entriesWhere = (db: DbOrTx, where: SQL | undefined) =>
  db
    .select({
      ...getTableColumns(directorEntries),
      user: { id: users.id, name: users.name, photoFileId: users.photoFileId, about: users.about },
    })
    .from(directorEntries)
    .leftJoin(users, eq(directorEntries.userId, users.id))
    .where(where)
    .orderBy(desc(directorEntries.from), desc(directorEntries.createdAt));

type EntryRow = Awaited<ReturnType<typeof entriesWhere>>[number];
const withUser = (rows: EntryRow[]): DirectorEntryWithUser[] =>
  rows.map((row) => ({ ...row, user: row.user?.id ? row.user : null }));

/** Entries with their linked users (null where none), newest first. */
const selectEntries = async (db: DbOrTx, where: SQL | undefined) => withUser(await entriesWhere(db, where));

// The two owners' histories are read on every lab-home load and group page: built once (db/prepared.ts).
const entriesOf = {
  lab: prepared('director_entries_of_lab', (db) => entriesWhere(db, eq(directorEntries.labId, sql.placeholder('id')))),
  group: prepared('director_entries_of_group', (db) =>
    entriesWhere(db, eq(directorEntries.groupId, sql.placeholder('id'))),
  ),
};

/** The history, newest first, with each linked user's name, photo and about. Public. */
export const listDirectorEntries = async (db: DbOrTx, owner: Pick<DirectorHistoryOwner, 'kind' | 'id'>) =>
  withUser(await entriesOf[owner.kind](db, { id: owner.id }));

const findEntry = async (db: DbOrTx, id: string) => (await selectEntries(db, eq(directorEntries.id, id)))[0]!;

async function lockEntry(tx: Tx, owner: DirectorHistoryOwner, entryId: string) {
  const [entry] = await tx
    .select()
    .from(directorEntries)
    .where(and(eq(directorEntries.id, entryId), eq(ownerColumn(owner), owner.id)))
    .limit(1)
    .for('update');
  if (!entry) throw notFound(owner.notFoundMessage);
  return entry;
}

/** The linked user's name (for the activity log); a user id that names nobody is refused. */
async function checkUser(tx: Tx, userId: string | null): Promise<string> {
  if (!userId) return '';
  const [user] = await tx.select({ name: users.name }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw badRequest('director_history.user_not_found', 'user');
  return user.name;
}

const entryValues = (owner: DirectorHistoryOwner, input: DirectorFields) => ({
  userId: input.user,
  name: input.name,
  designation: input.designation || owner.defaultDesignation,
  from: input.from,
  to: input.to,
  about: input.about,
});

async function logWrite(
  tx: Tx,
  actor: Actor,
  owner: DirectorHistoryOwner,
  action: 'added' | 'updated' | 'deleted',
  entry: { id: string; name: string | null; from: string },
  userName = '',
) {
  const { code, params, type } = owner.activity(action, entry, userName);
  await recordActivity(tx, actor, code, params, { type, id: entry.id });
}

/** A write of the owner's history in the owner's transaction; files dropped in it go after the commit. */
const ownerWrite = <T>(
  db: Db,
  store: FileStore,
  owner: DirectorHistoryOwner,
  work: Parameters<typeof transactionDroppingFiles<T>>[2],
) => transactionDroppingFiles(db, store, work, owner.transaction);

const ownerValue = (owner: DirectorHistoryOwner) =>
  owner.kind === 'lab' ? { labId: owner.id } : { groupId: owner.id };

/** Adds an entry (with an optional image). Callers check that the actor is an admin. */
export async function createDirectorEntry(
  db: Db,
  store: FileStore,
  actor: Actor,
  owner: DirectorHistoryOwner,
  input: DirectorFields,
  image: StoredFile | null,
): Promise<DirectorEntryWithUser> {
  const id = await ownerWrite(db, store, owner, async (tx) => {
    const userName = await checkUser(tx, input.user);
    const fileRow = image ? await saveFileRow(tx, image, actor.id) : null;
    const [entry] = await tx
      .insert(directorEntries)
      .values({ ...entryValues(owner, input), ...ownerValue(owner), imageFileId: fileRow?.id ?? null })
      .returning();
    await logWrite(tx, actor, owner, 'added', entry!, userName);
    return entry!.id;
  });
  return findEntry(db, id);
}

/**
 * Replaces an entry's fields; a new image replaces the old one, `removeImage` drops it (the old file goes after the
 * commit). Callers check that the actor is an admin.
 */
export async function updateDirectorEntry(
  db: Db,
  store: FileStore,
  actor: Actor,
  owner: DirectorHistoryOwner,
  entryId: string,
  input: DirectorFields,
  image: StoredFile | null,
  removeImage = false,
): Promise<DirectorEntryWithUser> {
  await ownerWrite(db, store, owner, async (tx, dropFiles) => {
    const entry = await lockEntry(tx, owner, entryId);
    const userName = await checkUser(tx, input.user);
    const fileRow = image ? await saveFileRow(tx, image, actor.id) : null;
    const imageFileId = fileRow ? fileRow.id : removeImage ? null : entry.imageFileId;
    await tx
      .update(directorEntries)
      .set({ ...entryValues(owner, input), imageFileId })
      .where(eq(directorEntries.id, entry.id));
    if (entry.imageFileId !== imageFileId) await dropFiles([entry.imageFileId]);
    await logWrite(tx, actor, owner, 'updated', { ...entry, name: input.name }, userName);
  });
  return findEntry(db, entryId);
}

/** Deletes an entry and its image. Callers check that the actor is an admin. */
export async function deleteDirectorEntry(
  db: Db,
  store: FileStore,
  actor: Actor,
  owner: DirectorHistoryOwner,
  entryId: string,
): Promise<void> {
  await ownerWrite(db, store, owner, async (tx, dropFiles) => {
    const entry = await lockEntry(tx, owner, entryId);
    await tx.delete(directorEntries).where(eq(directorEntries.id, entry.id));
    await dropFiles([entry.imageFileId]);
    await logWrite(tx, actor, owner, 'deleted', entry);
  });
}
