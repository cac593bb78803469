import { type SQL, sql } from 'drizzle-orm';

import type { Role } from '#shared/constants.ts';
import type { DraftState } from '#shared/schemas/efile-draft.ts';

import type { EfileRow, LetterRow, UserRow } from '#server/db/schema/index.ts';
import { badRequest, conflict, forbidden, notFound } from '#server/lib/errors.ts';
import { type Decision, definePolicy } from '#server/lib/policy.ts';
import { adminsOnly, isDirectorOrAdmin } from '#server/lib/roles.policy.ts';
import { stepUpCheck } from '#server/lib/step-up.policy.ts';
import { isClearedForClassified, lettersPolicy, pendencyScope } from '#server/modules/letters/letters.policy.ts';
import type { Actor } from '#server/plugins/auth.ts';

/**
 * Who sees and who does what with an e-file (decision 107):
 * - it is seen by everyone it passed through (its creator, each sender and holder), those it was copied to, the
 *   current head of its owner group, directors and admins; nobody else, in a list, the search or the export (404);
 * - a Confidential or Secret file only by those cleared for such letters (isClearedForClassified: directors, admins
 *   and the cleared), its creator aside; opening one of a class STEP_UP_CLASSIFICATIONS guards needs a step-up
 *   (decision 095), and every opening or export of a file above Unclassified is in the audit trail (decision 070);
 * - only its holder acts on it (or their delegate, decision 078), once received; copy holders only read;
 * - only its creator or the owner group's head closes and reopens it.
 */
export const CLEARED_ONLY: readonly string[] = ['Confidential', 'Secret'];
/** Openings of files of these classifications are recorded in the audit trail. */
export const RECORDED_EFILE_CLASSIFICATIONS: readonly string[] = ['Restricted', 'Confidential', 'Secret'];

/** Seniority for yellow notes: a holder senior to a draft's author may edit it (admins are outside the line). */
const RANK: Record<Role, number> = { employee: 1, pending_director: 1, associate_director: 2, director: 3, admin: 0 };
export const isSenior = (holder: { role: Role }, author: { role: Role }) => RANK[holder.role] > RANK[author.role];

type FileFacts = Pick<EfileRow, 'createdBy' | 'classification' | 'state' | 'holderId'>;
export interface Standing {
  /** The file passed through the actor. */
  participant: boolean;
  /** The actor has a copy for information. */
  copy: boolean;
  /** The actor is the current head of the file's owner group. */
  head: boolean;
}
type Recipient = Pick<UserRow, 'id' | 'name' | 'status' | 'role' | 'classifiedClearance'>;

const seesAll = (actor: Actor | null): boolean => isDirectorOrAdmin(actor);

export const efilesPolicy = definePolicy({
  /** Seeing a file: the rule above. Others are answered 404: its existence is not disclosed. */
  'efiles.view': (actor: Actor | null, { file, standing }: { file: FileFacts; standing: Standing }): Decision => {
    if (!actor) return notFound('efiles.not_found');
    if (file.createdBy === actor.id) return true;
    if (CLEARED_ONLY.includes(file.classification) && !isClearedForClassified(actor)) {
      return notFound('efiles.not_found');
    }
    return seesAll(actor) || standing.participant || standing.copy || standing.head
      ? true
      : notFound('efiles.not_found');
  },

  /** Opening a file one may see (its pages, its history, its export): the step-up of decision 095. */
  'efiles.open': (actor: Actor | null, { file }: { file: Pick<EfileRow, 'classification'> }) =>
    stepUpCheck(actor, file.classification),

  /** Opening a file: any approved member of a group, for their own group; directors and admins for any group. */
  'efiles.create': (actor: Actor | null, { ownerGroupId }: { ownerGroupId: string | null }): Decision => {
    if (!actor) return forbidden('efiles.create_forbidden');
    if (!ownerGroupId) return badRequest('efiles.owner_group_required', 'ownerGroupId');
    if (seesAll(actor) || ownerGroupId === actor.groupId) return true;
    return forbidden('efiles.create_other_group');
  },

  /**
   * Acting on the file (a note, a document, a letter put in, sending, returning, parking, the route): its holder or
   * their delegate (`holds`), once received, while it is open. A copy holder is told they only read.
   */
  'efiles.act': (
    _actor: Actor | null,
    { file, holds, received, copy }: { file: FileFacts; holds: boolean; received: boolean; copy: boolean },
  ): Decision => {
    if (!holds) return forbidden(copy ? 'efiles.copy_only' : 'efiles.not_holder');
    if (file.state === 'closed') return conflict('efiles.closed');
    if (file.state === 'parked') return conflict('efiles.parked');
    return received ? true : conflict('efiles.receive_first');
  },

  /** Resuming a parked file: its holder. */
  'efiles.resume': (_actor: Actor | null, { file, holds }: { file: FileFacts; holds: boolean }): Decision => {
    if (!holds) return forbidden('efiles.not_holder');
    return file.state === 'parked' ? true : conflict('efiles.not_parked');
  },

  /** Receiving: the file was sent to the actor (or an officer they stand in for) and not yet received. */
  'efiles.receive': (_actor: Actor | null, { pending }: { pending: boolean }): Decision =>
    pending ? true : conflict('efiles.nothing_to_receive'),

  /** Closing and reopening: the creator or the owner group's head. */
  'efiles.close': (actor: Actor | null, { file, head }: { file: FileFacts; head: boolean }): Decision =>
    actor && (file.createdBy === actor.id || head) ? true : forbidden('efiles.close_forbidden'),

  /** Sending (or returning) to `person`: an approved officer, not the actor, cleared for the file's classification. */
  'efiles.send_to': (
    actor: Actor | null,
    { person, file, self }: { person: Recipient; file: FileFacts; self: readonly string[] },
  ): Decision => {
    if (person.id === actor?.id || self.includes(person.id)) return badRequest('efiles.send_to_self', 'to');
    if (person.status === 'deactivated') return badRequest('letters.officer_deactivated', 'to', { name: person.name });
    if (person.status !== 'approved' || person.role === 'pending_director') {
      return badRequest('letters.officer_not_approved', 'to', { name: person.name });
    }
    if (
      CLEARED_ONLY.includes(file.classification) &&
      !isClearedForClassified({ role: person.role, cleared: person.classifiedClearance })
    ) {
      return badRequest('efiles.officer_not_cleared', 'to', {
        name: person.name,
        classification: file.classification,
      });
    }
    return true;
  },

  /** Pulling back a sending: its sender (or their delegate), until the recipient opened or received it. */
  'efiles.pull_back': (
    _actor: Actor | null,
    { sender, opened, recipient }: { sender: boolean; opened: boolean; recipient: string },
  ): Decision => {
    if (!sender) return forbidden('efiles.pull_back_forbidden');
    return opened ? conflict('efiles.pull_back_too_late', undefined, { name: recipient }) : true;
  },

  /**
   * Changing or discarding a draft note: never a permanent one; its author while they hold the file, or a holder
   * senior to its author (a yellow note, decision 107).
   */
  'efiles.edit_note': (
    actor: Actor | null,
    {
      note,
      author,
      holds,
    }: { note: { permanent: boolean; authorId: string | null }; author: { role: Role } | null; holds: boolean },
  ): Decision => {
    if (note.permanent) return conflict('efiles.note_permanent');
    if (!actor || !holds) return forbidden('efiles.note_edit_forbidden');
    if (note.authorId === actor.id) return true;
    return author && isSenior(actor, author) ? true : forbidden('efiles.note_edit_forbidden');
  },

  /**
   * A letter put in a file, in the file's export (decision 111): the file counts as the reader's part in the letter,
   * so its pages go to whoever may export the file, under the letters' own rule for the rest — the classification's
   * clearance, and a letter in the recycle bin for admins only. Refused letters are left out, named on a page of their own.
   */
  'efiles.export_letter': (
    actor: Actor | null,
    { letter }: { letter: Pick<LetterRow, 'uploadedBy' | 'classification' | 'deletedAt'> },
  ): Decision =>
    lettersPolicy.allows(actor, 'letters.view', { letter, involved: true }) ? true : notFound('letters.not_found'),

  /** The numbering scheme and the list of heads: admins. */
  'efiles.settings': (actor: Actor | null) =>
    adminsOnly(actor) === true ? true : forbidden('efiles.settings_forbidden'),

  // Drafts for approval (decision 122). Writing a draft or a version, putting it up, approving it and asking for
  // changes are acts on the file: its holder, once received, while open (`efiles.act`, checked first).

  /** A new draft needs nothing more; a new version, a draft not yet approved (the author, or the approver editing). */
  'efiles.draft_write': (_actor: Actor | null, { state }: { state: DraftState }): Decision =>
    state === 'approved' ? conflict('drafts.approved_already') : true,

  /** Putting a draft up: not an approved one, to an officer who approves (a group head or a director). */
  'efiles.draft_put_up': (
    _actor: Actor | null,
    { state, person }: { state: DraftState; person: Pick<UserRow, 'name' | 'role'> },
  ): Decision => {
    if (state === 'approved') return conflict('drafts.approved_already');
    return APPROVERS.includes(person.role) ? true : badRequest('drafts.approver_role', 'to', { name: person.name });
  },

  /** Approving (signing) or asking for changes: a group head or a director holding the file, of a draft put up. */
  'efiles.draft_decide': (actor: Actor | null, { state }: { state: DraftState }): Decision => {
    if (!actor || !APPROVERS.includes(actor.role)) return forbidden('drafts.approve_forbidden');
    if (state === 'approved') return conflict('drafts.approved_already');
    return state === 'put_up' ? true : conflict('drafts.not_put_up');
  },
});

/** Who approves drafts (decision 122): associate directors (group heads) and directors; admins are outside the line. */
const APPROVERS: readonly Role[] = ['associate_director', 'director'];

/**
 * The files this person may see, as a WHERE condition on `efiles` (the lists and the search). `led`: the groups the
 * actor heads now (groupsLedBy). Built from the actor's small indexed lists, never a subquery per file.
 */
export function visibleEfiles(actor: Actor, led: readonly string[]): SQL {
  const cleared = isClearedForClassified(actor);
  const classifiedRule = cleared
    ? sql`true`
    : sql`(e.classification not in ('Confidential', 'Secret') or e.created_by = ${actor.id})`;
  if (seesAll(actor)) return cleared ? sql`true` : classifiedRule;
  const groups = led.length
    ? sql` or e.owner_group_id in (${sql.join(
        led.map((g) => sql`${g}::uuid`),
        sql`, `,
      )})`
    : sql``;
  return sql`(${classifiedRule} and (
    e.id in (select efile_id from efile_participants where user_id = ${actor.id})
    or e.id in (select efile_id from efile_copies where user_id = ${actor.id})${groups}))`;
}

/**
 * Which pendency of e-files the actor may see (decision 121): the dak's rule, as for letters (`letters.pendency`, its
 * refusal thrown) — directors and admins any group or the whole lab, an associate director their own group, without
 * Confidential and Secret files unless cleared; nobody else.
 */
export const efilePendencyScope = (actor: Actor, groupId?: string) => pendencyScope(actor, groupId);
