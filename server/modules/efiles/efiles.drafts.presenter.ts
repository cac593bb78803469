import type { DraftJson } from '#shared/schemas/efile-draft.ts';

import type { DbOrTx } from '#server/db/client.ts';
import type { EfileDraftRow, EfileDraftVersionRow, EfileItemRow } from '#server/db/schema/index.ts';
import { fileRowsByIds } from '#server/modules/files/files.queries.ts';
import { fileUrl } from '#server/modules/files/storage-areas.ts';
import type { Actor } from '#server/plugins/auth.ts';

import type { Access } from './efiles.access.ts';
import { draftCan, loadDrafts } from './efiles.drafts.ts';
import { EFILES_AREA } from './efiles.items.ts';
import { loadPages, peopleById } from './efiles.service.ts';

/** Drafts for approval as the spec's JSON (decision 122). */

type People = Awaited<ReturnType<typeof peopleById>>;
const who = (people: People, id: string | null, fallback = '') =>
  id ? { _id: id, name: people.get(id)?.name ?? fallback } : null;

function presentDraft(
  actor: Actor,
  access: Access,
  { draft, versions }: { draft: EfileDraftRow; versions: EfileDraftVersionRow[] },
  people: People,
  items: Map<string, EfileItemRow>,
  names: Map<string, string>,
): DraftJson {
  const base = `/api/efiles/${draft.efileId}/drafts/${draft.id}/versions`;
  const item = draft.itemId ? items.get(draft.itemId) : undefined;
  return {
    _id: draft.id,
    ref: `D/${draft.seq}`,
    seq: draft.seq,
    title: draft.title,
    state: draft.state,
    author: { _id: draft.authorId, name: draft.authorName },
    approver: who(people, draft.approverId),
    changesNote: draft.changesNote,
    approvedBy: who(people, draft.approvedBy),
    approvedAt: draft.approvedAt?.toISOString() ?? null,
    item: item
      ? { _id: item.id, ref: `C/${item.seq}`, fileUrl: item.fileId ? fileUrl(EFILES_AREA, item.fileId) : null }
      : null,
    versions: versions.map((v) => ({
      version: v.version,
      kind: v.kind,
      body: v.body,
      author: { _id: v.authorId, name: v.authorName },
      createdAt: v.createdAt.toISOString(),
      pdfUrl: `${base}/${v.version}/pdf`,
      fileUrl: v.fileId ? fileUrl(EFILES_AREA, v.fileId) : null,
      fileName: v.fileId ? (names.get(v.fileId) ?? null) : null,
    })),
    can: draftCan(actor, access, draft),
  };
}

/** Every draft of the file, as its screen shows them. */
export async function presentDrafts(db: DbOrTx, actor: Actor, access: Access): Promise<DraftJson[]> {
  const drafts = await loadDrafts(db, access.file.id);
  if (!drafts.length) return [];
  const [people, { items }, files] = await Promise.all([
    peopleById(
      db,
      drafts.flatMap(({ draft }) => [draft.approverId, draft.approvedBy]),
    ),
    loadPages(db, access.file.id),
    fileRowsByIds(
      db,
      drafts.flatMap(({ versions }) => versions.flatMap((v) => (v.fileId ? [v.fileId] : []))),
    ),
  ]);
  const byId = new Map(items.map((i) => [i.id, i]));
  const names = new Map(files.map((f) => [f.id, f.originalName]));
  return drafts.map((d) => presentDraft(actor, access, d, people, byId, names));
}
