import { todayInIndia } from '#shared/format.ts';
import {
  AGEING_BANDS,
  type LetterHistoryJson,
  type LetterJson,
  type MovementJson,
  type OfficerJson,
  type PendencyJson,
} from '#shared/schemas/letter.ts';

import type { LetterHistoryRow } from '#server/db/schema/index.ts';
import { fileUrl } from '#server/modules/files/storage-areas.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { isOverdue, type MovementView } from './letters.movements.views.ts';
import type { OfficerRow } from './letters.officers.ts';
import type { PendencyReport } from './letters.pendency.ts';
import { isClearedForClassified, lettersPolicy } from './letters.policy.ts';
import type { LetterView } from './letters.register.views.ts';

// The one place letters and dak become JSON: a letter, its history, a movement, an officer, the pendency report.

const person = (p: { id: string; name: string } | null) => (p ? { _id: p.id, name: p.name } : null);

/** The one place a letter becomes JSON (spec §3 Letter), as seen by `actor`. */
export function presentLetter(
  { letter, uploader, deleter, originalName, frozen, holds, whereabouts }: LetterView,
  actor: Actor,
): LetterJson {
  return {
    _id: letter.id,
    letterId: letter.letterId,
    letterSub: letter.letterSub,
    letterNo: letter.letterNo,
    letterDate: letter.letterDate,
    docketNo: letter.docketNo,
    docketDate: letter.docketDate,
    category: letter.category,
    establishment: letter.establishment,
    letterLanguage: letter.letterLanguage,
    letterCommunBy: letter.letterCommunBy,
    classification: letter.classification,
    letterUploadDate: letter.letterUploadDate.toISOString(),
    updatedAt: letter.updatedAt.toISOString(),
    fileName: letter.fileId,
    originalName: letter.fileId ? originalName : null,
    fileUrl: fileUrl('letters', letter.fileId),
    uploadedBy: person(uploader),
    canEdit: lettersPolicy.allows(actor, 'letters.edit', { letter, frozen }),
    deletedAt: letter.deletedAt ? letter.deletedAt.toISOString() : null,
    deletedBy: person(deleter),
    frozen,
    canMark: lettersPolicy.allows(actor, 'letters.mark', { letter, holds }),
    dak: whereabouts && {
      holders: whereabouts.holders.map((h) => ({
        _id: h.id,
        name: h.name,
        designation: h.designation,
        status: h.status,
        markedAt: h.markedAt.toISOString(),
        receivedAt: h.receivedAt ? h.receivedAt.toISOString() : null,
      })),
      closed: whereabouts.closed && {
        by: { _id: whereabouts.closed.id, name: whereabouts.closed.name },
        at: whereabouts.closed.at.toISOString(),
      },
    },
  };
}

/** One entry of a letter's history. */
export function presentLetterHistory(
  entry: LetterHistoryRow,
  actor: { id: string | null; name: string | null } | null,
): LetterHistoryJson {
  return {
    _id: entry.id,
    action: entry.action as LetterHistoryJson['action'],
    changes: entry.changes ?? null,
    at: entry.at.toISOString(),
    actor: actor?.id ? { _id: actor.id, name: actor.name ?? '' } : null,
  };
}

/** The one place a movement becomes JSON. */
export function presentMovement(
  { movement: m, from, to, markedBy, receivedBy, endedBy }: MovementView,
  today = todayInIndia(),
): MovementJson {
  return {
    _id: m.id,
    letter: m.letterId,
    from: person(from),
    to: { _id: to.id, name: to.name, designation: to.designation },
    remarks: m.remarks,
    dueDate: m.dueDate,
    priority: m.priority,
    markedAt: m.markedAt.toISOString(),
    readAt: m.readAt ? m.readAt.toISOString() : null,
    receivedAt: m.receivedAt ? m.receivedAt.toISOString() : null,
    status: m.box,
    forInformation: m.forInformation,
    markedBy: person(markedBy),
    receivedBy: person(receivedBy),
    endedBy: person(endedBy),
    endedAt: m.endedAt ? m.endedAt.toISOString() : null,
    outcome: m.outcome,
    disposal: m.disposal,
    fileNo: m.fileNo,
    replyRef: m.replyRef,
    overdue: isOverdue(m, today),
  };
}

/** An officer a letter may be marked to (GET /api/dac/officers). */
export function presentOfficer(r: OfficerRow): OfficerJson {
  return {
    _id: r.id,
    name: r.name,
    designation: r.designation,
    role: r.role,
    group: r.groupId && r.groupName !== null ? { _id: r.groupId, name: r.groupName } : null,
    cleared: isClearedForClassified({ role: r.role, cleared: r.cleared }),
  };
}

/** The pendency report (GET /api/dac/pendency and its CSV export), with the totals of each group. */
export function presentPendency({ from, to, today, group, officers: rows, oldest }: PendencyReport): PendencyJson {
  const groupTotals = new Map<string, PendencyJson['groups'][number]>();
  const ageingOf = (r: PendencyReport['officers'][number]) => ({
    upTo7: r.upTo7,
    upTo15: r.upTo15,
    upTo30: r.upTo30,
    over30: r.over30,
  });
  for (const r of rows) {
    const key = r.groupId ?? '';
    const total = groupTotals.get(key) ?? {
      group: r.groupId && r.groupName !== null ? { _id: r.groupId, name: r.groupName } : null,
      pending: 0,
      overdue: 0,
      closed: 0,
      ageing: { upTo7: 0, upTo15: 0, upTo30: 0, over30: 0 },
    };
    total.pending += r.pending;
    total.overdue += r.overdue;
    total.closed += r.closed;
    for (const band of AGEING_BANDS) total.ageing[band] += r[band];
    groupTotals.set(key, total);
  }

  return {
    from,
    to,
    group: group ? { _id: group.id, name: group.name } : null,
    officers: rows.map((r) => ({
      officer: { _id: r.id, name: r.name, designation: r.designation },
      group: r.groupId && r.groupName !== null ? { _id: r.groupId, name: r.groupName } : null,
      pending: r.pending,
      overdue: r.overdue,
      closed: r.closed,
      ageing: ageingOf(r),
      oldestSince: r.oldest ? new Date(r.oldest).toISOString() : null,
    })),
    groups: [...groupTotals.values()].sort(
      (a, b) => b.pending - a.pending || (a.group?.name ?? '').localeCompare(b.group?.name ?? ''),
    ),
    oldest: oldest.map((o) => ({
      letter: { _id: o.letterId, letterId: o.letterRef, letterSub: o.letterSub, classification: o.classification },
      holder: { _id: o.holderId, name: o.holderName },
      since: o.since.toISOString(),
      receivedAt: o.receivedAt ? o.receivedAt.toISOString() : null,
      dueDate: o.dueDate,
      priority: o.priority,
      overdue: o.dueDate !== null && o.dueDate < today,
    })),
  };
}
