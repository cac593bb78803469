import { and, eq, isNull, ne, type SQL, sql } from 'drizzle-orm';

import type { Role } from '#shared/constants.ts';

import { letterMovements, type LetterRow, letters, type UserRow } from '#server/db/schema/index.ts';
import { badRequest, conflict, forbidden, notFound } from '#server/lib/errors.ts';
import { type Decision, definePolicy } from '#server/lib/policy.ts';
import { adminsOnly, isAdmin, isDirectorOrAdmin } from '#server/lib/roles.policy.ts';
import { stepUpCheck } from '#server/lib/step-up.policy.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

/**
 * Who sees what in the letters register (docs/decisions/009; docs/decisions/020):
 * - an employee (and an associate director) sees the letters they uploaded, and those marked to them or by them;
 * - directors and admins see every letter;
 * - Confidential and Secret letters are seen only by their uploader, directors, admins, and people an admin has
 *   cleared who were marked the letter (or marked it) — nobody else learns that such a letter exists;
 * - a letter in the recycle bin is seen only by admins.
 * Who may do what with a letter and its dak is `lettersPolicy` below (decision 035); the services load the facts
 * (whether the actor was involved, what they hold) and ask it.
 */
const SEES_CLASSIFIED: readonly Role[] = ['director', 'admin'];

/** May this person receive and see Confidential and Secret letters marked to them? */
export const isClearedForClassified = (person: { role: Role; cleared: boolean }) =>
  SEES_CLASSIFIED.includes(person.role) || person.cleared;

// NOTE: boolean, not the type guards of roles.policy.ts: their false branch would narrow an Actor to never.
const seesAll = (actor: Actor | null): boolean => isDirectorOrAdmin(actor);
const admin = (actor: Actor | null): boolean => isAdmin(actor);

type LetterFacts = Pick<LetterRow, 'uploadedBy' | 'classification' | 'deletedAt'>;

/** The open movements of a letter the actor holds (marked to them, not yet closed, sent on or back). */
type Held = readonly unknown[];

/** Someone a letter may be marked (or sent back) to. */
type Recipient = Pick<UserRow, 'id' | 'name' | 'status' | 'role' | 'classifiedClearance'>;

/** Why this person may not be given this letter, or null if they may. */
function recipientProblem(actor: Actor | null, person: Recipient, letter: Pick<LetterRow, 'classification'>) {
  if (person.id === actor?.id) return 'self';
  if (person.status === 'deactivated') return 'deactivated';
  if (person.status !== 'approved' || person.role === 'pending_director') return 'not_approved';
  if (
    letter.classification !== 'Normal' &&
    !isClearedForClassified({ role: person.role, cleared: person.classifiedClearance })
  ) {
    return 'not_cleared';
  }
  return null;
}

/** Who may do what in this module (decision 035). */
export const lettersPolicy = definePolicy({
  /** The recycle bin: listing, restoring and deleting for good (spec §5 Letters): admins. */
  'letters.recycle_bin': adminsOnly,

  /**
   * Seeing a letter (card, file, history, its dak): the rule of the comment above. `involved`: a letter was marked to
   * them or by them (letterInvolvement in letters.holders.ts tells). Others are answered 404: its existence is not
   * disclosed.
   */
  'letters.view': (actor: Actor | null, { letter, involved = false }: { letter: LetterFacts; involved?: boolean }) => {
    if (!actor) return notFound('letters.not_found');
    if (letter.deletedAt) return admin(actor) ? true : notFound('letters.not_found');
    if (letter.uploadedBy === actor.id) return true;
    if (letter.classification !== 'Normal' && !isClearedForClassified(actor)) return notFound('letters.not_found');
    return seesAll(actor) || involved ? true : notFound('letters.not_found');
  },

  /**
   * Opening one letter the actor may see (its card by id, its history, its dak trail, its file, reading it in the
   * inbox) or moving it (marking, receiving, closing, sending back): a letter of a classification guarded by the fresh
   * check (STEP_UP_CLASSIFICATIONS, Secret by default) needs a sign-in or a check within the last STEP_UP_MINUTES
   * (decision 066; the one rule of server/lib/step-up.policy.ts, decision 095). Else 401
   * `auth.step_up_required` (the methods are added to the answer by app.ts's error handler). A list of letters is
   * not an opening: its rules are `letters.view` and visibleLetters. An actor built outside a request (a job, the
   * demo) has no session and opens nothing for a person.
   */
  'letters.open': (actor: Actor | null, { letter }: { letter: Pick<LetterRow, 'classification'> }) =>
    stepUpCheck(actor, letter.classification),

  /**
   * Editing, replacing the file of, or deleting a letter the actor may see: its uploader or an admin — and once the
   * letter has been marked to someone (`frozen`), only an admin (decision 020). Not one in the recycle bin.
   */
  'letters.edit': (actor: Actor | null, { letter, frozen = false }: { letter: LetterFacts; frozen?: boolean }) => {
    if (letter.deletedAt) return conflict('letters.in_recycle_bin');
    if (admin(actor)) return true;
    if (!actor || letter.uploadedBy !== actor.id) return forbidden('letters.edit_forbidden');
    return frozen ? conflict('letters.frozen') : true;
  },

  /**
   * Marking a letter the actor may see onward: its uploader, a director or an admin, or someone who holds it
   * (`holds`). Not one in the recycle bin.
   */
  'letters.mark': (actor: Actor | null, { letter, holds }: { letter: LetterFacts; holds: boolean }) => {
    if (letter.deletedAt) return conflict('letters.in_recycle_bin_act');
    if (seesAll(actor) || (actor && letter.uploadedBy === actor.id) || holds) return true;
    return forbidden('letters.mark_forbidden');
  },

  /** Marking a letter to `person`: an approved officer, not the actor, cleared for the letter's classification. */
  'letters.mark_to': (
    actor: Actor | null,
    { person, letter }: { person: Recipient; letter: LetterFacts },
  ): Decision => {
    const params = { name: person.name, classification: letter.classification };
    switch (recipientProblem(actor, person, letter)) {
      case 'self':
        return badRequest('letters.mark_to_self', 'to');
      case 'deactivated':
        return badRequest('letters.officer_deactivated', 'to', { name: person.name });
      case 'not_approved':
        return badRequest('letters.officer_not_approved', 'to', { name: person.name });
      case 'not_cleared':
        return badRequest('letters.officer_not_cleared', 'to', params);
      default:
        return true;
    }
  },

  /** Receiving (acknowledging) a letter, and marking it read in the inbox: it is marked to the actor. */
  'letters.receive': (_actor: Actor | null, { held }: { held: Held }) =>
    held.length ? true : forbidden('letters.not_marked_to_you'),
  'letters.read': (_actor: Actor | null, { held }: { held: Held }) =>
    held.length ? true : forbidden('letters.not_marked_to_you'),

  /** Closing a letter with its disposal: the actor holds it. */
  'letters.close': (_actor: Actor | null, { held }: { held: Held }) =>
    held.length ? true : forbidden('letters.close_not_held'),

  /** Sending a letter back: the actor holds it. */
  'letters.send_back': (_actor: Actor | null, { held }: { held: Held }) =>
    held.length ? true : forbidden('letters.send_back_not_held'),

  /**
   * Sending a letter back to `sender`, who marked it to the actor: someone other than the actor, who may still be
   * given it (approved, cleared for its classification).
   */
  'letters.send_back_to': (
    actor: Actor | null,
    { sender, letter }: { sender: Recipient | undefined; letter: LetterFacts },
  ): Decision => {
    if (!sender) return conflict('letters.nobody_to_send_back');
    switch (recipientProblem(actor, sender, letter)) {
      case 'self':
        return conflict('letters.nobody_to_send_back');
      case 'deactivated':
        return conflict('letters.sender_deactivated', undefined, { name: sender.name });
      case 'not_approved':
        return conflict('letters.sender_not_approved', undefined, { name: sender.name });
      case 'not_cleared':
        return conflict('letters.sender_not_cleared', undefined, {
          name: sender.name,
          classification: letter.classification,
        });
      default:
        return true;
    }
  },

  /**
   * Pulling back a marking (decision 079): whoever marked it (or their delegate, who marked it for them), until
   * the recipient has received or opened it.
   */
  'letters.pull_back': (
    actor: Actor | null,
    {
      movement,
      recipient,
      markers,
    }: {
      movement: {
        fromUserId: string | null;
        markedBy: string | null;
        box: string;
        forInformation: boolean;
        readAt: Date | null;
        receivedAt: Date | null;
      };
      recipient: string;
      /** Whom the actor may act for: themselves and the officers whose dak is delegated to them today. */
      markers: readonly string[];
    },
  ): Decision => {
    if (!actor) return forbidden('letters.pull_back_forbidden');
    const marker =
      movement.markedBy === actor.id || (movement.fromUserId !== null && markers.includes(movement.fromUserId));
    if (!marker) return forbidden('letters.pull_back_forbidden');
    // A copy for information is filed closed from the start: it can be pulled back until it is seen.
    if ((!movement.forInformation && movement.box !== 'pending') || movement.readAt || movement.receivedAt) {
      return conflict('letters.pull_back_received', undefined, { name: recipient });
    }
    return true;
  },

  /** Marking a copy for information seen: it was sent to the actor (or to an officer they stand in for) for information. */
  'letters.mark_seen': (_actor: Actor | null, { copies }: { copies: Held }) =>
    copies.length ? true : forbidden('letters.not_copied_to_you'),

  /**
   * Naming a delegate for an officer's dak (decision 078), or ending the delegation: the officer themselves,
   * or an admin for them.
   */
  'letters.delegate': (actor: Actor | null, { officerId }: { officerId: string }) =>
    actor && (actor.id === officerId || admin(actor)) ? true : forbidden('letters.delegation_forbidden'),

  /** The delegate: another approved, active officer. Clearance is not required: the inbox leaves out what they may not see. */
  'letters.delegate_to': (
    _actor: Actor | null,
    { officerId, delegate }: { officerId: string; delegate: Pick<UserRow, 'id' | 'name' | 'status' | 'role'> },
  ): Decision => {
    if (delegate.id === officerId) return badRequest('letters.delegate_self', 'delegateId');
    if (delegate.status !== 'approved' || delegate.role === 'pending_director') {
      return badRequest('letters.delegate_not_approved', 'delegateId', { name: delegate.name });
    }
    return true;
  },

  /**
   * Pendency (GET /api/dac/pendency): directors and admins of any group or all; an associate director of their own
   * group only.
   */
  'letters.pendency': (actor: Actor | null, { groupId }: { groupId?: string } = {}) => {
    if (seesAll(actor)) return true;
    if (actor?.role === 'associate_director' && actor.groupId) {
      return groupId && groupId !== actor.groupId ? forbidden('letters.pendency_own_group') : true;
    }
    return forbidden('letters.pendency_forbidden');
  },
});

/**
 * Which pendency the actor may see, once `letters.pendency` allows it (else its refusal is thrown): the group to
 * count (null for the whole lab), and whether Confidential and Secret letters are left out (an associate director
 * not cleared for them). The service loads the group.
 */
export function pendencyScope(actor: Actor, groupId?: string): { groupId: string | null; hideClassified: boolean } {
  lettersPolicy.authorize(actor, 'letters.pendency', { groupId });
  if (seesAll(actor)) return { groupId: groupId ?? null, hideClassified: false };
  return { groupId: actor.groupId, hideClassified: !actor.cleared };
}

/** The people a letter may be marked to (GET /api/dac/officers), as a WHERE condition: approved staff but the actor. */
export const markableOfficers = (actor: Actor): SQL =>
  and(eq(users.status, 'approved'), ne(users.id, actor.id), ne(users.role, 'pending_director'))!;

/** The letters of the register (not in the recycle bin) this person may see, as a WHERE condition. */
export function visibleLetters(actor: Actor): SQL {
  const live = isNull(letters.deletedAt);
  if (seesAll(actor)) return live;
  // Their own uploads, and the letters marked to or by them; classified ones of the latter only when cleared. The
  // set is built once, from small indexed lists (never a per-letter subquery over the whole register), as an array
  // whose letters are then fetched by primary key: the cost follows the person's letters, not the register's size.
  // (As `id in (…)` PostgreSQL hashed the set and read every letter of the register against it: a page of an
  // employee's letters 0.57 → 0.41 ms of database time on a register of 1,236 letters, decision 057.)
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
