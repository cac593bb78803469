import { and, asc, desc, eq, getTableColumns, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { z } from 'zod';

import { DEFAULT_DIRECTOR_DESIGNATION } from '#shared/constants.ts';
import { todayInIndia } from '#shared/format.ts';
import type { MessageCode, MessageParams } from '#shared/messages/index.ts';
import type { AcknowledgementSettings, ItemAcknowledgementJson } from '#shared/schemas/acknowledgements.ts';
import type { createLabInput, labDocumentInput, labProductInput, updateLabInput } from '#shared/schemas/lab.ts';

import type { Db, DbOrTx, Tx } from '#server/db/client.ts';
import { contactInfos, labItems, type LabRow, labs, officeMembers } from '#server/db/schema/index.ts';
import { conflict, notFound } from '#server/lib/errors.ts';
import {
  applyAcknowledgementSettings,
  withItemAcknowledgements,
} from '#server/modules/acknowledgements/acknowledgements.service.ts';
import { activityWord } from '#server/modules/audit/activity-words.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import {
  type DirectorEntryWithUser,
  type DirectorHistoryOwner,
  listDirectorEntries,
} from '#server/modules/director-history/director-history.service.ts';
import { files } from '#server/modules/files/files.view.ts';
import {
  type FileStore,
  saveFileRow,
  type StoredFile,
  transactionDroppingFiles,
} from '#server/modules/files/storage.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { labWrite } from './labs.cache.ts';

export type LabItemKind = (typeof labItems.$inferSelect)['kind'];
type ItemFields = z.output<typeof labDocumentInput> | z.output<typeof labProductInput>;

/** The single lab, or undefined before one is created (spec §3: only one lab exists). */
export async function findOnlyLab(db: DbOrTx): Promise<LabRow | undefined> {
  const [lab] = await db.select().from(labs).orderBy(asc(labs.createdAt)).limit(1);
  return lab;
}

/** Every lab (there is at most one). Public. */
export async function listLabs(db: DbOrTx): Promise<LabRow[]> {
  return db.select().from(labs).orderBy(asc(labs.createdAt));
}

/** The lab with this id, or a 404 'Lab not found.' */
export async function requireLab(db: DbOrTx, id: string): Promise<LabRow> {
  const [lab] = await db.select().from(labs).where(eq(labs.id, id)).limit(1);
  if (!lab) throw notFound('labs.not_found');
  return lab;
}

const itemColumns = { ...getTableColumns(labItems), fileName: files.originalName };
export type LabItemWithFile = typeof labItems.$inferSelect & {
  fileName: string | null;
  /** A notice's or circular's acknowledgement request (decision 074), when loaded. */
  acknowledgement?: ItemAcknowledgementJson | null;
};

/** The current director: the entry without an end date (the latest such), else the latest entry (decision 010). */
export function currentDirectorOf<T extends { to: string | null }>(newestFirst: T[]): T | undefined {
  return newestFirst.find((d) => d.to === null) ?? newestFirst[0];
}

export interface LabRecord {
  lab: LabRow;
  contacts: (typeof contactInfos.$inferSelect)[];
  office: (typeof officeMembers.$inferSelect)[];
  directors: DirectorEntryWithUser[];
  currentDirectorId: string | null;
  items: LabItemWithFile[];
  today: string;
}

/** Everything the lab home and the admin panel show of the lab (GET /api/labs/{id}). Public. */
export async function loadLabRecord(db: DbOrTx, lab: LabRow): Promise<LabRecord> {
  const [contacts, office, directors, items] = await Promise.all([
    db.select().from(contactInfos).where(eq(contactInfos.labId, lab.id)).orderBy(asc(contactInfos.position)),
    db.select().from(officeMembers).where(eq(officeMembers.labId, lab.id)).orderBy(asc(officeMembers.position)),
    listDirectorEntries(db, { kind: 'lab', id: lab.id }),
    db
      .select(itemColumns)
      .from(labItems)
      .leftJoin(files, eq(labItems.fileId, files.id))
      .where(eq(labItems.labId, lab.id))
      .orderBy(desc(labItems.createdAt), desc(labItems.id)),
  ]);
  return {
    lab,
    contacts,
    office,
    directors,
    currentDirectorId: currentDirectorOf(directors)?.id ?? null,
    items: await withItemAcknowledgements(db, 'lab', items),
    today: todayInIndia(),
  };
}

/**
 * The lab's notices and circulars, newest first. With `currentOnly`, items whose 'valid until' date has passed are
 * left out (News Flash and the latest box); the Notices & Circular tab lists them all. Public.
 */
export async function listLabDocuments(
  db: DbOrTx,
  labId: string,
  opts: { currentOnly?: boolean; limit?: number; today?: string } = {},
): Promise<LabItemWithFile[]> {
  const today = opts.today ?? todayInIndia();
  const current = opts.currentOnly ? or(isNull(labItems.validUntil), gte(labItems.validUntil, today)) : undefined;
  const kinds = ['notice', 'circular'] as const;
  // One query per kind so a limit applies to each list (the latest box shows the newest few of each).
  const perKind = await Promise.all(
    kinds.map((kind) => {
      const query = db
        .select(itemColumns)
        .from(labItems)
        .leftJoin(files, eq(labItems.fileId, files.id))
        .where(and(eq(labItems.labId, labId), eq(labItems.kind, kind), current))
        .orderBy(desc(labItems.createdAt), desc(labItems.id));
      return opts.limit ? query.limit(opts.limit) : query;
    }),
  );
  return withItemAcknowledgements(db, 'lab', perKind.flat());
}

/**
 * The lab's notices and circulars whose 'valid until' date has passed (the Archive, decision 019), latest expiry
 * first. Public.
 */
export async function listExpiredLabDocuments(db: DbOrTx, labId: string, today: string): Promise<LabItemWithFile[]> {
  return db
    .select(itemColumns)
    .from(labItems)
    .leftJoin(files, eq(labItems.fileId, files.id))
    .where(
      and(eq(labItems.labId, labId), inArray(labItems.kind, ['notice', 'circular']), lt(labItems.validUntil, today)),
    )
    .orderBy(desc(labItems.validUntil), desc(labItems.createdAt), desc(labItems.id));
}

/**
 * Creates the lab. There is only one lab (spec §3): a second one is refused with 409, also when two admins try at
 * the same moment (an advisory lock serialises the check). Callers check that the actor is an admin.
 */
export async function createLab(db: Db, actor: Actor, input: z.output<typeof createLabInput>): Promise<LabRow> {
  const result = await labWrite(db, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727301)`);
    const [existing] = await tx.select({ id: labs.id }).from(labs).limit(1);
    if (existing) throw conflict('labs.exists');
    const [lab] = await tx.insert(labs).values(input).returning();
    await recordActivity(tx, actor, 'activity.lab_created', { name: lab!.name }, { type: 'lab', id: lab!.id });
    return lab!;
  });
  return result;
}

/**
 * Updates the lab's information; contact info and the director's office, when sent, replace the lists in the order
 * given. Callers check that the actor is an admin.
 */
export async function updateLab(
  db: Db,
  actor: Actor,
  lab: LabRow,
  input: z.output<typeof updateLabInput>,
): Promise<LabRow> {
  const { LabHistoryDetails, contactInfo, officeOfDirector, ...fields } = input;
  const result = await labWrite(db, async (tx) => {
    const [updated] = await tx
      .update(labs)
      .set({ ...fields, history: LabHistoryDetails })
      .where(eq(labs.id, lab.id))
      .returning();
    if (contactInfo) {
      await tx.delete(contactInfos).where(eq(contactInfos.labId, lab.id));
      if (contactInfo.length) {
        await tx.insert(contactInfos).values(contactInfo.map((c, position) => ({ ...c, labId: lab.id, position })));
      }
    }
    if (officeOfDirector) {
      await tx.delete(officeMembers).where(eq(officeMembers.labId, lab.id));
      if (officeOfDirector.length) {
        await tx
          .insert(officeMembers)
          .values(officeOfDirector.map((m, position) => ({ ...m, labId: lab.id, position })));
      }
    }
    await recordActivity(tx, actor, 'activity.lab_updated', { name: updated!.name }, { type: 'lab', id: lab.id });
    return updated!;
  });
  return result;
}

/** One code per kind, so each language words its own noun. */
const GONE = {
  notice: 'labs.notice_gone',
  circular: 'labs.circular_gone',
  product: 'labs.product_gone',
  advertisement: 'labs.advertisement_gone',
} as const satisfies Record<LabItemKind, MessageCode>;

async function findItemWithFile(db: DbOrTx, id: string): Promise<LabItemWithFile> {
  const [row] = await db
    .select(itemColumns)
    .from(labItems)
    .leftJoin(files, eq(labItems.fileId, files.id))
    .where(eq(labItems.id, id));
  const [withAcknowledgement] = await withItemAcknowledgements(db, 'lab', [row!]);
  return withAcknowledgement!;
}

/** The item of this lab and kind, locked for the write, or 404. */
async function lockItem(tx: Tx, labId: string, kind: LabItemKind, itemId: string) {
  const [item] = await tx
    .select()
    .from(labItems)
    .where(and(eq(labItems.id, itemId), eq(labItems.labId, labId), eq(labItems.kind, kind)))
    .limit(1)
    .for('update');
  if (!item) throw notFound(GONE[kind]);
  return item;
}

/** Adds a notice, circular, product or advertisement with its file. Callers check that the actor is an admin. */
export async function createLabItem(
  db: Db,
  actor: Actor,
  labId: string,
  kind: LabItemKind,
  input: ItemFields,
  file: StoredFile | null,
  acknowledgement?: AcknowledgementSettings,
): Promise<LabItemWithFile> {
  const id = await labWrite(db, async (tx) => {
    const fileRow = file ? await saveFileRow(tx, file, actor.id) : null;
    const [item] = await tx
      .insert(labItems)
      .values({
        labId,
        kind,
        name: input.name,
        description: input.description,
        fileId: fileRow?.id ?? null,
        validUntil: 'validUntil' in input ? input.validUntil : null,
      })
      .returning({ id: labItems.id });
    await recordActivity(
      tx,
      actor,
      'activity.lab_item_added',
      { kind: activityWord(kind), name: input.name },
      { type: `lab-${kind}`, id: item!.id },
    );
    if (kind === 'notice' || kind === 'circular')
      await applyAcknowledgementSettings(
        tx,
        actor,
        { owner: { type: 'lab' }, itemId: item!.id, kind, name: input.name },
        acknowledgement,
      );
    return item!.id;
  });
  return findItemWithFile(db, id);
}

/** A lab write (labWrite) whose dropped files go after the commit. */
const labWriteDroppingFiles = <T>(db: Db, store: FileStore, work: Parameters<typeof transactionDroppingFiles<T>>[2]) =>
  transactionDroppingFiles(db, store, work, labWrite);

/** Edits an item; a new file replaces the old one, which is deleted. Callers check that the actor is an admin. */
export async function updateLabItem(
  db: Db,
  store: FileStore,
  actor: Actor,
  labId: string,
  kind: LabItemKind,
  itemId: string,
  input: ItemFields,
  file: StoredFile | null,
  acknowledgement?: AcknowledgementSettings,
): Promise<LabItemWithFile> {
  await labWriteDroppingFiles(db, store, async (tx, dropFiles) => {
    const item = await lockItem(tx, labId, kind, itemId);
    const fileRow = file ? await saveFileRow(tx, file, actor.id) : null;
    await tx
      .update(labItems)
      .set({
        name: input.name,
        description: input.description,
        ...('validUntil' in input ? { validUntil: input.validUntil } : {}),
        ...(fileRow ? { fileId: fileRow.id } : {}),
      })
      .where(eq(labItems.id, item.id));
    if (fileRow) await dropFiles([item.fileId]);
    await recordActivity(
      tx,
      actor,
      'activity.lab_item_updated',
      { kind: activityWord(kind), name: input.name },
      { type: `lab-${kind}`, id: item.id },
    );
    if (kind === 'notice' || kind === 'circular')
      await applyAcknowledgementSettings(
        tx,
        actor,
        { owner: { type: 'lab' }, itemId: item.id, kind, name: input.name },
        acknowledgement,
      );
  });
  return findItemWithFile(db, itemId);
}

/**
 * Deletes an item and its file; a notice's or circular's acknowledgement request and rows go with it (cascade), and
 * their bell notices (migration 0028). Callers check that the actor is an admin.
 */
export async function deleteLabItem(
  db: Db,
  store: FileStore,
  actor: Actor,
  labId: string,
  kind: LabItemKind,
  itemId: string,
): Promise<void> {
  await labWriteDroppingFiles(db, store, async (tx, dropFiles) => {
    const item = await lockItem(tx, labId, kind, itemId);
    await tx.delete(labItems).where(eq(labItems.id, item.id));
    await dropFiles([item.fileId]);
    await recordActivity(
      tx,
      actor,
      'activity.lab_item_deleted',
      { kind: activityWord(kind), name: item.name },
      { type: `lab-${kind}`, id: item.id },
    );
  });
}

// ---- director history (the director-history service) ---------------------------------------------------------

/** The lab's director history, as the activity log has always worded it. */
export const directorsOf = (labId: string): DirectorHistoryOwner => ({
  kind: 'lab',
  id: labId,
  defaultDesignation: DEFAULT_DIRECTOR_DESIGNATION, // spec §9: Director
  notFoundMessage: 'labs.director_entry_gone',
  activity: (action, entry, userName) =>
    action === 'deleted'
      ? {
          code: entry.name ? 'activity.lab_director_deleted_named' : 'activity.lab_director_deleted',
          params: entry.name ? { fromDate: entry.from, name: entry.name } : ({ fromDate: entry.from } as MessageParams),
          type: 'lab-director',
        }
      : {
          code: action === 'added' ? 'activity.lab_director_added' : 'activity.lab_director_updated',
          params: { name: entry.name || userName },
          type: 'lab-director',
        },
  transaction: labWrite,
});
