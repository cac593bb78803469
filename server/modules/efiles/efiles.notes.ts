import { and, asc, eq, gt, sql } from 'drizzle-orm';

import { type NoteBody, noteRefs, noteText } from '#shared/schemas/efile-note.ts';

import type { Db, DbOrTx, Tx } from '#server/db/client.ts';
import { efileItems, efileNotes, efileNoteVersions, users } from '#server/db/schema/index.ts';
import { badRequest, notFound } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { type Access, accessFile, assertActs, lockFile } from './efiles.access.ts';
import { efilesPolicy } from './efiles.policy.ts';

/**
 * Notes N/n (decision 107). A note is a draft (yellow) while it may still change: its author edits it while holding
 * the file, and a senior holder who receives a junior's draft may edit or discard it; each edit keeps what the note
 * said before, and who changed it. It becomes permanent (green) as the file moves on (efiles.movements.ts), after
 * which a database trigger refuses any change or removal.
 */

/** Every reference of the note names a page the file has (a note may cite itself by its own number). */
async function assertRefs(tx: DbOrTx, efileId: string, body: NoteBody, ownSeq: number): Promise<void> {
  for (const ref of noteRefs(body)) {
    const n = Number(ref.slice(2));
    const table = ref.startsWith('N') ? efileNotes : efileItems;
    if (ref.startsWith('N') && n === ownSeq) continue;
    const [hit] = await tx
      .select({ one: sql`1` })
      .from(table)
      .where(and(eq(table.efileId, efileId), eq(table.seq, n)));
    if (!hit) throw badRequest('efiles.note_reference_missing', 'body', { ref });
  }
}

export async function addNote(db: Db, actor: Actor, id: string, body: NoteBody) {
  return db.transaction(async (tx) => {
    const access = await lockFile(tx, actor, id);
    assertActs(actor, access);
    const [next] = await tx
      .select({ n: sql<number>`coalesce(max(${efileNotes.seq}), 0)::int + 1` })
      .from(efileNotes)
      .where(eq(efileNotes.efileId, id));
    const seq = next!.n;
    await assertRefs(tx, id, body, seq);
    const [me] = await tx.select({ designation: users.designation }).from(users).where(eq(users.id, actor.id));
    const [note] = await tx
      .insert(efileNotes)
      .values({
        efileId: id,
        seq,
        body,
        text: noteText(body),
        authorId: actor.id,
        authorName: actor.name,
        authorDesignation: me?.designation ?? '',
      })
      .returning();
    await recordActivity(
      tx,
      actor,
      'activity.efile_note_added',
      { seq, number: access.file.number },
      {
        type: 'efile',
        id,
      },
    );
    return note!;
  });
}

/** Finds a note of a locked file and asks the policy whether the actor may change it. */
async function editableNote(tx: Tx, actor: Actor, access: Access, noteId: string) {
  const [note] = await tx
    .select()
    .from(efileNotes)
    .where(and(eq(efileNotes.id, noteId), eq(efileNotes.efileId, access.file.id)))
    .for('update');
  if (!note) throw notFound('efiles.not_found');
  if (!note.permanent) assertActs(actor, access);
  const [author] = note.authorId
    ? await tx.select({ role: users.role }).from(users).where(eq(users.id, note.authorId))
    : [];
  efilesPolicy.authorize(actor, 'efiles.edit_note', { note, author: author ?? null, holds: access.holds });
  return note;
}

export async function editNote(db: Db, actor: Actor, id: string, noteId: string, body: NoteBody) {
  return db.transaction(async (tx) => {
    const access = await lockFile(tx, actor, id);
    const note = await editableNote(tx, actor, access, noteId);
    await assertRefs(tx, id, body, note.seq);
    await tx.insert(efileNoteVersions).values({ noteId, editorId: actor.id, editorName: actor.name, body: note.body });
    const [changed] = await tx
      .update(efileNotes)
      .set({ body, text: noteText(body), updatedAt: new Date() })
      .where(eq(efileNotes.id, noteId))
      .returning();
    await recordActivity(
      tx,
      actor,
      'activity.efile_note_edited',
      { seq: note.seq, number: access.file.number },
      {
        type: 'efile',
        id,
      },
    );
    return changed!;
  });
}

/** Discards a draft note; the drafts after it move up one number (only drafts follow a draft). */
export async function discardNote(db: Db, actor: Actor, id: string, noteId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const access = await lockFile(tx, actor, id);
    const note = await editableNote(tx, actor, access, noteId);
    await tx.delete(efileNotes).where(eq(efileNotes.id, noteId));
    await tx
      .update(efileNotes)
      .set({ seq: sql`${efileNotes.seq} - 1` })
      .where(and(eq(efileNotes.efileId, id), gt(efileNotes.seq, note.seq), eq(efileNotes.permanent, false)));
    await recordActivity(
      tx,
      actor,
      'activity.efile_note_discarded',
      { seq: note.seq, number: access.file.number },
      {
        type: 'efile',
        id,
      },
    );
  });
}

/** What a note said before each change, and who changed it (oldest first). */
export async function noteHistory(db: Db, actor: Actor, id: string, noteId: string) {
  // What a draft said is the file's text: a guarded classification needs the step-up, as opening it does (decision 095).
  const { file } = await accessFile(db, actor, id);
  efilesPolicy.authorize(actor, 'efiles.open', { file });
  const [note] = await db
    .select({ id: efileNotes.id })
    .from(efileNotes)
    .where(and(eq(efileNotes.id, noteId), eq(efileNotes.efileId, id)));
  if (!note) throw notFound('efiles.not_found');
  return db
    .select()
    .from(efileNoteVersions)
    .where(eq(efileNoteVersions.noteId, noteId))
    .orderBy(asc(efileNoteVersions.at));
}
