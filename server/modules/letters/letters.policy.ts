import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { Role } from '#shared/constants.ts';
import { letters, type LetterRow } from '#server/db/schema/index.ts';
import type { Actor } from '#server/plugins/auth.ts';

/**
 * Who sees what in the letters register (issue 6, docs/decisions/ "letters register"):
 * - an employee (and an associate director) sees the letters they uploaded;
 * - directors and admins see every letter;
 * - Confidential and Secret letters are seen only by their uploader, directors and admins — which the two rules
 *   above already give; `canViewLetter` still names the rule so that widening the first one cannot leak them;
 * - a letter in the recycle bin is seen only by admins.
 */
const SEES_ALL: readonly Role[] = ['director', 'admin'];
const SEES_CLASSIFIED: readonly Role[] = ['director', 'admin'];

/** May this person see this letter (card, file, history)? */
export function canViewLetter(
  actor: Actor,
  letter: Pick<LetterRow, 'uploadedBy' | 'classification' | 'deletedAt'>,
): boolean {
  if (letter.deletedAt) return actor.role === 'admin';
  if (letter.uploadedBy === actor.id) return true;
  if (letter.classification !== 'Normal' && !SEES_CLASSIFIED.includes(actor.role)) return false;
  return SEES_ALL.includes(actor.role);
}

/** May this person edit, replace the file of, or delete this letter? Only its uploader or an admin. */
export function canEditLetter(actor: Actor, letter: Pick<LetterRow, 'uploadedBy' | 'deletedAt'>): boolean {
  if (letter.deletedAt) return false;
  return actor.role === 'admin' || letter.uploadedBy === actor.id;
}

/** The letters of the register (not in the recycle bin) this person may see, as a WHERE condition. */
export function visibleLetters(actor: Actor): SQL {
  const live = isNull(letters.deletedAt);
  return SEES_ALL.includes(actor.role) ? live : and(live, eq(letters.uploadedBy, actor.id))!;
}
