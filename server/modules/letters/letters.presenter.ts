import type { LetterHistoryJson, LetterJson } from '#shared/schemas/letter.ts';
import type { LetterHistoryRow } from '#server/db/schema/index.ts';
import type { Actor } from '#server/plugins/auth.ts';
import { fileUrl } from '#server/modules/files/storage.ts';
import { canEditLetter, canMarkLetter } from './letters.policy.ts';
import type { LetterView } from './letters.service.ts';

const person = (p: { id: string; name: string } | null) => (p ? { _id: p.id, name: p.name } : null);

/** The one place a letter becomes JSON (spec §3 Letter), as seen by `actor`. */
export function presentLetter(
  { letter, uploader, deleter, originalName, frozen, holds }: LetterView,
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
    canEdit: canEditLetter(actor, letter, frozen),
    deletedAt: letter.deletedAt ? letter.deletedAt.toISOString() : null,
    deletedBy: person(deleter),
    frozen,
    canMark: canMarkLetter(actor, letter, holds),
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
