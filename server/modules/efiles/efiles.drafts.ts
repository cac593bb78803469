import path from 'node:path';

import { and, asc, eq, inArray, sql } from 'drizzle-orm';

import type { PutUpInput } from '#shared/schemas/efile-draft.ts';
import { type NoteBody, noteText } from '#shared/schemas/efile-note.ts';

import type { Db, DbOrTx, Tx } from '#server/db/client.ts';
import {
  type EfileDraftRow,
  efileDrafts,
  type EfileDraftVersionRow,
  efileDraftVersions,
} from '#server/db/schema/index.ts';
import { badRequest, notFound } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { saveFileRow, type StoredFile } from '#server/modules/files/storage.ts';
import { findUserById } from '#server/modules/users/users.queries.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { type Access, assertActs, isUuid, lockFile } from './efiles.access.ts';
import { moveTo } from './efiles.movements.ts';
import { efilesPolicy } from './efiles.policy.ts';

/**
 * Drafts for approval (decision 122): a draft D/n in a file, written as rich text (a note's structure, decision 107)
 * or uploaded as a .docx or PDF, with versions v1, v2, … each kept (a trigger refuses changing one). Its author puts it
 * up: the file is sent to the approver, who approves it (efiles.drafts.approve.ts), asks for changes (the file goes
 * back to the author with the note) or edits it (a new version). Every write locks the file first, acts as its
 * holder (efiles.act) and is in the activity log in its transaction.
 */

export type DraftSource = { kind: 'text'; body: NoteBody } | { kind: 'file'; stored: StoredFile };

/** The kind of an uploaded draft by its name's extension, or a refusal. */
export function uploadedKind(name: string): 'docx' | 'pdf' {
  const ext = path.extname(name).slice(1).toLowerCase();
  if (ext === 'docx' || ext === 'pdf') return ext;
  throw badRequest('drafts.file_type', 'document');
}

/** A draft of a file, locked for the write that follows when `lock`. */
export async function findDraft(db: DbOrTx, efileId: string, draftId: string, lock = false): Promise<EfileDraftRow> {
  if (!isUuid(draftId)) throw notFound('drafts.not_found');
  const query = db
    .select()
    .from(efileDrafts)
    .where(and(eq(efileDrafts.id, draftId), eq(efileDrafts.efileId, efileId)));
  const [draft] = lock ? await query.for('update') : await query;
  if (!draft) throw notFound('drafts.not_found');
  return draft;
}

async function insertVersion(tx: Tx, actor: Actor, draftId: string, version: number, source: DraftSource) {
  const file = source.kind === 'file' ? await saveFileRow(tx, source.stored, actor.id) : null;
  const [row] = await tx
    .insert(efileDraftVersions)
    .values({
      draftId,
      version,
      kind: source.kind === 'text' ? 'text' : uploadedKind(source.stored.originalName),
      body: source.kind === 'text' ? source.body : null,
      text: source.kind === 'text' ? noteText(source.body) : '',
      fileId: file?.id ?? null,
      authorId: actor.id,
      authorName: actor.name,
    })
    .returning();
  return row!;
}

/** POST /api/efiles/{id}/drafts[/upload]: a new draft D/n, its v1, by the file's holder. */
export async function addDraft(db: Db, actor: Actor, id: string, title: string, source: DraftSource) {
  return db.transaction(async (tx) => {
    const access = await lockFile(tx, actor, id);
    assertActs(actor, access);
    const [next] = await tx
      .select({ n: sql<number>`coalesce(max(${efileDrafts.seq}), 0)::int + 1` })
      .from(efileDrafts)
      .where(eq(efileDrafts.efileId, id));
    const [draft] = await tx
      .insert(efileDrafts)
      .values({ efileId: id, seq: next!.n, title, authorId: actor.id, authorName: actor.name })
      .returning();
    await insertVersion(tx, actor, draft!.id, 1, source);
    await recordActivity(
      tx,
      actor,
      'activity.efile_draft_added',
      { seq: draft!.seq, title, number: access.file.number },
      { type: 'efile', id },
    );
    return draft!;
  });
}

/** The locked file and draft, with the holder's right to act on the file checked. */
async function actOnDraft(tx: Tx, actor: Actor, id: string, draftId: string) {
  const access = await lockFile(tx, actor, id);
  const draft = await findDraft(tx, id, draftId, true);
  assertActs(actor, access);
  return { access, draft };
}

/** POST …/versions[/upload]: the next version, by whoever holds the file (the author, or the approver editing). */
export async function addVersion(db: Db, actor: Actor, id: string, draftId: string, source: DraftSource) {
  return db.transaction(async (tx) => {
    const { access, draft } = await actOnDraft(tx, actor, id, draftId);
    efilesPolicy.authorize(actor, 'efiles.draft_write', { state: draft.state });
    const [last] = await tx
      .select({ n: sql<number>`max(${efileDraftVersions.version})::int` })
      .from(efileDraftVersions)
      .where(eq(efileDraftVersions.draftId, draftId));
    const row = await insertVersion(tx, actor, draftId, (last?.n ?? 0) + 1, source);
    await tx.update(efileDrafts).set({ updatedAt: new Date() }).where(eq(efileDrafts.id, draftId));
    await recordActivity(
      tx,
      actor,
      'activity.efile_draft_version_added',
      { version: row.version, seq: draft.seq, number: access.file.number },
      { type: 'efile', id },
    );
    return row;
  });
}

/** POST …/put-up: the file goes to the approver (a sending, with its remarks, due date and priority). */
export async function putUpDraft(db: Db, actor: Actor, id: string, draftId: string, input: PutUpInput) {
  return db.transaction(async (tx) => {
    const { access, draft } = await actOnDraft(tx, actor, id, draftId);
    const person = isUuid(input.to) ? (await findUserById(tx, input.to))?.user : undefined;
    if (!person) throw badRequest('letters.officer_not_found', 'to');
    efilesPolicy.authorize(actor, 'efiles.draft_put_up', { state: draft.state, person });
    const remarks = [`For approval: D/${draft.seq} ${draft.title}.`, input.remarks ?? ''].join(' ').trim();
    await moveTo(tx, actor, access, 'sent', { ...input, remarks: remarks.slice(0, 2000) });
    await tx
      .update(efileDrafts)
      .set({ state: 'put_up', approverId: person.id, updatedAt: new Date() })
      .where(eq(efileDrafts.id, draftId));
    await recordActivity(
      tx,
      actor,
      'activity.efile_draft_put_up',
      { seq: draft.seq, number: access.file.number, name: person.name },
      { type: 'efile', id },
    );
  });
}

/** POST …/ask-changes: the approver's note, and the file back to the draft's author. */
export async function askChanges(db: Db, actor: Actor, id: string, draftId: string, note: string) {
  return db.transaction(async (tx) => {
    const { access, draft } = await actOnDraft(tx, actor, id, draftId);
    efilesPolicy.authorize(actor, 'efiles.draft_decide', { state: draft.state });
    if (draft.authorId && draft.authorId !== access.file.holderId) {
      await moveTo(tx, actor, access, 'returned', {
        to: draft.authorId,
        remarks: `Changes asked to D/${draft.seq} ${draft.title}: ${note}`.slice(0, 2000),
      });
    }
    await tx
      .update(efileDrafts)
      .set({ state: 'changes_asked', changesNote: note, updatedAt: new Date() })
      .where(eq(efileDrafts.id, draftId));
    await recordActivity(
      tx,
      actor,
      'activity.efile_draft_changes_asked',
      { seq: draft.seq, number: access.file.number },
      { type: 'efile', id },
    );
  });
}

/** A file's drafts and every version of each, in order. */
export async function loadDrafts(db: DbOrTx, efileId: string) {
  const drafts = await db
    .select()
    .from(efileDrafts)
    .where(eq(efileDrafts.efileId, efileId))
    .orderBy(asc(efileDrafts.seq));
  const versions: EfileDraftVersionRow[] = drafts.length
    ? await db
        .select()
        .from(efileDraftVersions)
        .where(
          inArray(
            efileDraftVersions.draftId,
            drafts.map((d) => d.id),
          ),
        )
        .orderBy(asc(efileDraftVersions.version))
    : [];
  return drafts.map((draft) => ({ draft, versions: versions.filter((v) => v.draftId === draft.id) }));
}

/** One version of a draft of a file the caller has opened. */
export async function findVersion(db: DbOrTx, efileId: string, draftId: string, version: number) {
  const draft = await findDraft(db, efileId, draftId);
  const [row] = await db
    .select()
    .from(efileDraftVersions)
    .where(and(eq(efileDraftVersions.draftId, draftId), eq(efileDraftVersions.version, version)));
  if (!row) throw notFound('drafts.version_not_found');
  return { draft, version: row };
}

/** What the actor may do with a draft now (the screen's buttons; the server decides again on each write). */
export function draftCan(actor: Actor, access: Access, draft: EfileDraftRow) {
  const acts = efilesPolicy.allows(actor, 'efiles.act', {
    file: access.file,
    holds: access.holds,
    received: access.pending === null,
    copy: access.copy,
  });
  return {
    newVersion: acts && efilesPolicy.allows(actor, 'efiles.draft_write', { state: draft.state }),
    putUp: acts && draft.state !== 'approved',
    decide: acts && efilesPolicy.allows(actor, 'efiles.draft_decide', { state: draft.state }),
  };
}
