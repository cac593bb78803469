import { and, isNull, sql, type SQL } from 'drizzle-orm';
import type { Role } from '#shared/constants.ts';
import { letterMovements, letters, type LetterRow } from '#server/db/schema/index.ts';
import type { Actor } from '#server/plugins/auth.ts';
import { definePolicy } from '#server/lib/policy.ts';
import { adminsOnly } from '#server/lib/roles.policy.ts';

/**
 * Who sees what in the letters register (issue 6, docs/decisions/009; issue 17, docs/decisions/020):
 * - an employee (and an associate director) sees the letters they uploaded, and those marked to them or by them;
 * - directors and admins see every letter;
 * - Confidential and Secret letters are seen only by their uploader, directors, admins, and people an admin has
 *   cleared who were marked the letter (or marked it) — nobody else learns that such a letter exists;
 * - a letter in the recycle bin is seen only by admins.
 */
const SEES_ALL: readonly Role[] = ['director', 'admin'];
const SEES_CLASSIFIED: readonly Role[] = ['director', 'admin'];

/** May this person receive and see Confidential and Secret letters marked to them? */
export const isClearedForClassified = (person: { role: Role; cleared: boolean }) =>
  SEES_CLASSIFIED.includes(person.role) || person.cleared;

/**
 * May this person see this letter (card, file, history)? `involved`: a letter was marked to them or by them
 * (letterInvolvement in letters.service.ts tells).
 */
export function canViewLetter(
  actor: Actor,
  letter: Pick<LetterRow, 'uploadedBy' | 'classification' | 'deletedAt'>,
  involved = false,
): boolean {
  if (letter.deletedAt) return actor.role === 'admin';
  if (letter.uploadedBy === actor.id) return true;
  if (letter.classification !== 'Normal' && !isClearedForClassified(actor)) return false;
  return SEES_ALL.includes(actor.role) || involved;
}

/**
 * May this person edit, replace the file of, or delete this letter? Its uploader or an admin — and once the letter
 * has been marked to someone (`frozen`), only an admin (issue 17 item 3).
 */
export function canEditLetter(
  actor: Actor,
  letter: Pick<LetterRow, 'uploadedBy' | 'deletedAt'>,
  frozen = false,
): boolean {
  if (letter.deletedAt) return false;
  if (actor.role === 'admin') return true;
  return letter.uploadedBy === actor.id && !frozen;
}

/**
 * May this person mark the letter onward? Its uploader, a director or an admin, or someone who holds it (`holds`).
 * Callers have checked that the person may see it.
 */
export function canMarkLetter(actor: Actor, letter: Pick<LetterRow, 'uploadedBy' | 'deletedAt'>, holds: boolean) {
  if (letter.deletedAt) return false;
  return SEES_ALL.includes(actor.role) || letter.uploadedBy === actor.id || holds;
}

/** The letters of the register (not in the recycle bin) this person may see, as a WHERE condition. */
export function visibleLetters(actor: Actor): SQL {
  const live = isNull(letters.deletedAt);
  if (SEES_ALL.includes(actor.role)) return live;
  // Their own uploads, and the letters marked to or by them; classified ones of the latter only when cleared. The
  // set is built once, from small indexed lists (never a per-letter subquery over the whole register), as an array
  // whose letters are then fetched by primary key: the cost follows the person's letters, not the register's size.
  // (As `id in (…)` PostgreSQL hashed the set and read every letter of the register against it: a page of an
  // employee's letters 0.57 → 0.41 ms of database time on a register of 1,236 letters, issue 12.)
  const classifiedRule = actor.cleared ? sql`` : sql` and not ${letterMovements.classified}`;
  return and(
    live,
    sql`${letters.id} = any(array(
      select ${letters.id} from ${letters} where ${letters.uploadedBy} = ${actor.id}
      union select ${letterMovements.letterId} from ${letterMovements}
        where ${letterMovements.toUserId} = ${actor.id}${classifiedRule}
      union select ${letterMovements.letterId} from ${letterMovements}
        where ${letterMovements.fromUserId} = ${actor.id}${classifiedRule}))`,
  )!;
}

/** Who may do what in this module (decision 035). */
export const lettersPolicy = definePolicy({
  /** The recycle bin: listing, restoring and deleting for good (spec §5 Letters): admins. */
  'letters.recycle_bin': adminsOnly,
});
