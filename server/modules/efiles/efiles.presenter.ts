import type {
  EfileItemJson,
  EfileJson,
  EfileMovementJson,
  EfileNoteJson,
  EfileSummaryJson,
} from '#shared/schemas/efile.ts';

import type { EfileItemRow, EfileMovementRow, EfileNoteRow } from '#server/db/schema/index.ts';
import { fileUrl } from '#server/modules/files/storage-areas.ts';
import type { Actor } from '#server/plugins/auth.ts';

import type { Access } from './efiles.access.ts';
import { EFILES_AREA } from './efiles.items.ts';
import type { EfileListRow } from './efiles.lists.ts';
import { efilesPolicy } from './efiles.policy.ts';

type Person = { id: string; name: string; designation: string; role: string };
type People = Map<string, Person>;
const iso = (d: Date | string) => new Date(d).toISOString();
const person = (p: Person | undefined) => ({
  _id: p?.id ?? '',
  name: p?.name ?? '',
  designation: p?.designation ?? '',
});

export const presentSummary = (r: EfileListRow): EfileSummaryJson => ({
  _id: r.id,
  number: r.number,
  subject: r.subject,
  classification: r.classification as EfileSummaryJson['classification'],
  state: r.state,
  head: { code: r.head_code, name: r.head_name },
  holder: { _id: r.holder_id, name: r.holder_name, designation: r.holder_designation },
  inTransit: r.in_transit,
  movedAt: iso(r.moved_at),
  createdAt: iso(r.created_at),
});

export function presentNote(
  n: EfileNoteRow,
  actor: Actor,
  access: Access,
  people: People,
  edited: boolean,
): EfileNoteJson {
  const author = n.authorId ? people.get(n.authorId) : undefined;
  const canEdit =
    efilesPolicy.allows(actor, 'efiles.act', {
      file: access.file,
      holds: access.holds,
      received: access.pending === null,
      copy: access.copy,
    }) &&
    efilesPolicy.allows(actor, 'efiles.edit_note', {
      note: n,
      author: author ? { role: author.role as never } : null,
      holds: access.holds,
    });
  return {
    _id: n.id,
    ref: `N/${n.seq}`,
    seq: n.seq,
    body: n.body,
    author: { _id: n.authorId, name: n.authorName, designation: n.authorDesignation },
    createdAt: iso(n.createdAt),
    updatedAt: iso(n.updatedAt),
    permanent: n.permanent,
    edited,
    canEdit,
  };
}

export const presentItem = (i: EfileItemRow, letterRef: string | null): EfileItemJson => ({
  _id: i.id,
  ref: `C/${i.seq}`,
  seq: i.seq,
  title: i.title,
  kind: i.letterId ? 'letter' : 'document',
  letter: i.letterId ? { _id: i.letterId, letterId: letterRef ?? '' } : null,
  fileUrl: i.fileId ? fileUrl(EFILES_AREA, i.fileId) : null,
  addedAt: iso(i.addedAt),
});

export const presentMovement = (m: EfileMovementRow, people: People): EfileMovementJson => ({
  _id: m.id,
  kind: m.kind,
  from: m.fromUserId ? person(people.get(m.fromUserId)) : null,
  to: m.toUserId ? person(people.get(m.toUserId)) : null,
  remarks: m.remarks,
  dueDate: m.dueDate,
  priority: m.priority,
  at: iso(m.at),
  // Only a sending (sent, returned) is received; the other moves keep their time in `at` (decision 121).
  receivedAt: m.receivedAt && (m.kind === 'sent' || m.kind === 'returned') ? iso(m.receivedAt) : null,
});

export function presentEfile(
  actor: Actor,
  access: Access,
  extra: {
    summary: EfileListRow;
    ownerGroup: { id: string; name: string };
    people: People;
    notes: EfileNoteRow[];
    edited: Set<string>;
    items: EfileItemRow[];
    letterRefs: Map<string, string>;
  },
): EfileJson {
  const { file } = access;
  const acts = { file, holds: access.holds, received: access.pending === null, copy: access.copy };
  const pendingToMe = access.pending !== null && access.people.includes(access.pending.toUserId ?? '');
  const sentByMe = access.pending !== null && access.people.includes(access.pending.fromUserId ?? '');
  return {
    ...presentSummary(extra.summary),
    ownerGroup: { _id: extra.ownerGroup.id, name: extra.ownerGroup.name },
    creator: person(extra.people.get(file.createdBy)),
    route: file.route.map((id) => person(extra.people.get(id))),
    notes: extra.notes.map((n) => presentNote(n, actor, access, extra.people, extra.edited.has(n.id))),
    items: extra.items.map((i) => presentItem(i, i.letterId ? (extra.letterRefs.get(i.letterId) ?? null) : null)),
    can: {
      act: efilesPolicy.allows(actor, 'efiles.act', acts),
      receive: pendingToMe,
      pullBack: sentByMe && !access.pending?.openedAt && !access.pending?.receivedAt,
      close: file.state !== 'closed' && efilesPolicy.allows(actor, 'efiles.close', { file, head: access.head }),
      reopen: file.state === 'closed' && efilesPolicy.allows(actor, 'efiles.close', { file, head: access.head }),
      resume: efilesPolicy.allows(actor, 'efiles.resume', { file, holds: access.holds }),
      copyOnly: access.copy && !access.participant && !access.head,
    },
  };
}
