import { eq, sql } from 'drizzle-orm';

import type { Db, DbOrTx, Tx } from '#server/db/client.ts';
import {
  efileDrafts,
  efileDraftVersions,
  efileItems,
  type EfileRow,
  efiles,
  type FileRow,
} from '#server/db/schema/index.ts';
import { AppError, conflict } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import type { RecordedFile } from '#server/modules/files/file-access.ts';
import { saveFileRow, type StoredFile } from '#server/modules/files/storage.ts';
import { openLetter } from '#server/modules/letters/letters.register.service.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { accessFile, assertActs, lockFile } from './efiles.access.ts';
import { efilesPolicy, RECORDED_EFILE_CLASSIFICATIONS } from './efiles.policy.ts';

/** The private storage area of documents uploaded into e-files (decision 107). */
export const EFILES_AREA = 'efiles';

/** The next C/n of a file (the file is locked by the caller). */
async function nextItemSeq(tx: DbOrTx, efileId: string): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`coalesce(max(${efileItems.seq}), 0)::int + 1` })
    .from(efileItems)
    .where(eq(efileItems.efileId, efileId));
  return row!.n;
}

/**
 * Puts a letter in a file (decision 107): the actor may open the letter (the letters' rule, with its step-up), and
 * a letter goes in one file only. The letter stays the letters module's: the item names it.
 */
export async function putLetterIn(tx: Tx, actor: Actor, file: EfileRow, letterId: string) {
  const view = await openLetter(tx, actor, letterId);
  const [already] = await tx
    .select({ number: efiles.number })
    .from(efileItems)
    .innerJoin(efiles, eq(efiles.id, efileItems.efileId))
    .where(eq(efileItems.letterId, letterId));
  if (already) throw conflict('efiles.letter_in_file', 'letterId', { number: already.number });
  const seq = await nextItemSeq(tx, file.id);
  const [item] = await tx
    .insert(efileItems)
    .values({
      efileId: file.id,
      seq,
      title: `${view.letter.letterId} — ${view.letter.letterSub}`,
      letterId,
      text: view.letter.letterSub,
      addedBy: actor.id,
    })
    .returning();
  await recordActivity(
    tx,
    actor,
    'activity.efile_letter_put',
    { letter: view.letter.letterId, number: file.number, seq },
    { type: 'efile', id: file.id },
  );
  return item!;
}

/** POST /api/efiles/{id}/items/letter: its holder puts a letter in. */
export async function putLetterInFile(db: Db, actor: Actor, id: string, letterId: string) {
  return db.transaction(async (tx) => {
    const access = await lockFile(tx, actor, id);
    assertActs(actor, access);
    return putLetterIn(tx, actor, access.file, letterId);
  });
}

/** A document uploaded into the file by its holder (the upload is stored already; a refusal discards it). */
export async function addDocument(db: Db, actor: Actor, id: string, stored: StoredFile) {
  return db.transaction(async (tx) => {
    const access = await lockFile(tx, actor, id);
    assertActs(actor, access);
    const row = await saveFileRow(tx, stored, actor.id);
    const seq = await nextItemSeq(tx, id);
    const [item] = await tx
      .insert(efileItems)
      .values({ efileId: id, seq, title: stored.originalName, fileId: row.id, addedBy: actor.id })
      .returning();
    await recordActivity(
      tx,
      actor,
      'activity.efile_document_added',
      { filename: stored.originalName, number: access.file.number, seq },
      { type: 'efile', id },
    );
    return item!;
  });
}

/** Which file holds this letter (for "in file <number>"), if the actor may see that file; else null. */
export async function fileOfLetter(db: DbOrTx, actor: Actor, letterId: string) {
  const [row] = await db
    .select({ id: efiles.id, number: efiles.number })
    .from(efileItems)
    .innerJoin(efiles, eq(efiles.id, efileItems.efileId))
    .where(eq(efileItems.letterId, letterId));
  if (!row) return null;
  try {
    await accessFile(db, actor, row.id);
    return row;
  } catch {
    return null;
  }
}

/**
 * The file a stored document belongs to, and how it is named, if it is an e-file's document: a correspondence item
 * (C/n) or a version of a draft for approval uploaded into the file (D/n vN, decision 122).
 */
async function documentOf(db: DbOrTx, fileId: string) {
  const [item] = await db
    .select({
      efileId: efileItems.efileId,
      seq: efileItems.seq,
      title: efileItems.title,
      number: efiles.number,
      classification: efiles.classification,
    })
    .from(efileItems)
    .innerJoin(efiles, eq(efiles.id, efileItems.efileId))
    .where(eq(efileItems.fileId, fileId))
    .limit(1);
  if (item) return { ...item, ref: `C/${item.seq}` };
  const [draft] = await db
    .select({
      efileId: efileDrafts.efileId,
      seq: efileDrafts.seq,
      version: efileDraftVersions.version,
      title: efileDrafts.title,
      number: efiles.number,
      classification: efiles.classification,
    })
    .from(efileDraftVersions)
    .innerJoin(efileDrafts, eq(efileDrafts.id, efileDraftVersions.draftId))
    .innerJoin(efiles, eq(efiles.id, efileDrafts.efileId))
    .where(eq(efileDraftVersions.fileId, fileId))
    .limit(1);
  return draft ? { ...draft, ref: `D/${draft.seq} v${draft.version}` } : null;
}

/**
 * The download rule of the `efiles` area (registered for admins too, as letters' is): the file is a document of an
 * e-file the actor may see, and then one of a classification STEP_UP_CLASSIFICATIONS guards only within a step-up
 * (efiles.open, decision 095: its 401 is thrown after the rule that hides the file, so nobody learns its class).
 * Its PDF, its viewer's PDF and its preview state are all under this rule (decision 121).
 */
export async function canDownloadEfileDocument(db: Db, actor: Actor, file: FileRow): Promise<boolean> {
  const doc = await documentOf(db, file.id);
  if (!doc) return false;
  const access = await accessFile(db, actor, doc.efileId).catch((err: unknown) => {
    if (err instanceof AppError) return null; // not seen: refused as files.open_forbidden, as letters' are
    throw err;
  });
  if (!access) return false;
  efilesPolicy.authorize(actor, 'efiles.open', { file: access.file });
  return true;
}

/**
 * The `efiles` area's recorded files (decision 121): a document of a file above Unclassified is classified material
 * as the file is, recorded as `document_downloaded` with the file's classification and named `<number> · C/n · title`,
 * refused or served, and its PDF watermarked for the reader (decisions 070, 071) — as the file's export is (111).
 */
export async function recordedEfileDocument(db: DbOrTx, file: FileRow): Promise<RecordedFile | null> {
  const doc = await documentOf(db, file.id);
  if (!doc || !RECORDED_EFILE_CLASSIFICATIONS.includes(doc.classification)) return null;
  return {
    object: { type: 'efile', id: doc.efileId, label: `${doc.number} · ${doc.ref} · ${doc.title}` },
    classification: doc.classification,
    action: 'document_downloaded',
    watermark: true,
  };
}
