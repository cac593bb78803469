import { and, asc, eq, inArray, ne } from 'drizzle-orm';

import type { MessageParams } from '#shared/messages/index.ts';

import type { Tx } from '#server/db/client.ts';
import { type LetterMovementRow, letterMovements, type LetterRow, letters } from '#server/db/schema/index.ts';
import { conflict, notFound } from '#server/lib/errors.ts';
import { type ActivityCode, recordActivity } from '#server/modules/audit/audit.service.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { activeDelegators } from './letters.delegation.ts';
import { letterInvolvement } from './letters.holders.ts';
import { lettersPolicy } from './letters.policy.ts';

/**
 * What every write of the dak starts from (docs/decisions/020-dak-movement.md, 105): the letter locked, with what the
 * actor holds of it and for whom, and the activity each write records, "…_for" the officer when a delegate acts.
 */

/** What the actor may act on in a letter, and for whom. */
export interface Locked {
  letter: LetterRow;
  /** The open movements of one holder: the actor's own, else those of an officer the actor stands in for. */
  held: LetterMovementRow[];
  /** The officer the actor acts for (decision 078: a delegate on that officer's movements), or null for themselves. */
  forOfficer: { id: string; name: string } | null;
  /** The actor and the officers whose dak is delegated to them today. */
  people: string[];
}

/**
 * Locks the letter and finds what the actor may do with it: 404 if they may not see it, 409 if it is binned. A
 * delegate (decision 078) also holds what the officers they stand in for hold today; their own holding
 * comes first. A delegate not cleared for a Confidential or Secret letter is refused it by `letters.view` (404).
 */
export async function lockLetter(tx: Tx, actor: Actor, id: string): Promise<Locked> {
  const [letter] = await tx.select().from(letters).where(eq(letters.id, id)).limit(1).for('update');
  if (!letter) throw notFound('letters.not_found');
  const standsFor = await activeDelegators(tx, actor.id);
  const { involved } = await letterInvolvement(tx, id, actor.id, standsFor);
  lettersPolicy.authorize(actor, 'letters.view', { letter, involved });
  if (letter.deletedAt) throw conflict('letters.in_recycle_bin_act');
  // Moving or reading a Secret letter needs a step-up (decision 066).
  lettersPolicy.authorize(actor, 'letters.open', { letter });
  const people = [actor.id, ...standsFor];
  // What the actor holds of it now: their open movements, oldest first (and those of the officers they stand in for).
  const open = await tx
    .select()
    .from(letterMovements)
    .where(
      and(
        eq(letterMovements.letterId, id),
        inArray(letterMovements.toUserId, people),
        ne(letterMovements.box, 'closed'),
      ),
    )
    .orderBy(asc(letterMovements.markedAt));
  const holder = open.some((m) => m.toUserId === actor.id)
    ? actor.id
    : people.find((p) => open.some((m) => m.toUserId === p));
  const held = open.filter((m) => m.toUserId === holder);
  let forOfficer: Locked['forOfficer'] = null;
  if (holder && holder !== actor.id) {
    const [officer] = await tx.select({ id: users.id, name: users.name }).from(users).where(eq(users.id, holder));
    forOfficer = officer ?? null;
  }
  return { letter, held, forOfficer, people };
}

export const names = (list: { name: string }[]) => list.map((p) => p.name).join(', ');

/**
 * What a mail may say of a letter: its Letter ID always; its subject, and the remarks given with it, only
 * when it is not classified (a Confidential or Secret letter is named by its Letter ID alone).
 */
export const mailable = (letter: LetterRow, remarks: string) => {
  const open = letter.classification === 'Normal';
  return {
    letterRef: letter.letterId,
    subject: open ? letter.letterSub : null,
    remarks: open && remarks ? remarks : null,
  };
};

/**
 * Each activity of the dak and its "…_for" form, recorded when a delegate acts for an officer. Written out, not
 * made by joining strings, so that every code the portal records is found where it is sent (web/i18n/messages.test.ts).
 */
const ON_BEHALF = {
  'activity.letter_marked': 'activity.letter_marked_for',
  'activity.letter_marked_due': 'activity.letter_marked_due_for',
  'activity.letter_copied': 'activity.letter_copied_for',
  'activity.letter_received': 'activity.letter_received_for',
  'activity.letter_closed': 'activity.letter_closed_for',
  'activity.letter_sent_back': 'activity.letter_sent_back_for',
  'activity.letter_opened': 'activity.letter_opened_for',
  'activity.letter_pulled_back': 'activity.letter_pulled_back_for',
} as const satisfies Partial<Record<ActivityCode, ActivityCode>>;

/** An activity of the dak that has a "…_for" form. */
export type DakActivity = keyof typeof ON_BEHALF;

/**
 * Records a write of the dak on the letter `id`: `code` with `params`, or, when a delegate acted for an officer
 * (`officer` is their name), `code`_for with the officer's name too.
 */
export async function recordDakActivity(
  tx: Tx,
  actor: Actor,
  code: DakActivity,
  params: MessageParams,
  id: string,
  officer?: string,
): Promise<void> {
  await recordActivity(
    tx,
    actor,
    officer !== undefined ? ON_BEHALF[code] : code,
    officer !== undefined ? { ...params, officer } : params,
    { type: 'letter', id },
  );
}
