import { forbidden } from '#server/lib/errors.ts';
import { type Decision, definePolicy } from '#server/lib/policy.ts';
import { adminsOnly, isAdmin, isDirectorOrAdmin } from '#server/lib/roles.policy.ts';
import type { Actor } from '#server/plugins/auth.ts';

/** A group as the rules see it: its id and the user its current director entry names while in office (decision 006). */
export interface GroupFacts {
  groupId: string;
  /** The group's current associate director (groups.queries.ts currentManagerId), or null. */
  managerId: string | null;
}

// NOTE: plain booleans: the role helpers are type guards, which would narrow `actor` to never when they say no.
/** Directors and admins see every group (spec §6). */
const seesEveryGroup = (actor: Actor): boolean => isDirectorOrAdmin(actor);

/**
 * The one group this person could lead: their own group while they are an associate director (decision 030), else
 * null. Whether they do lead it depends on the group's current director entry, which the caller loads (managerId).
 */
export const leadableGroupOf = (actor: Actor): string | null =>
  actor.role === 'associate_director' && actor.groupId ? actor.groupId : null;

/**
 * Is this person, as they are on this request, the leader the group's current entry names? The entry must name them,
 * and their current role must be associate_director in that very group (decision 030): the entry is what an admin
 * wrote into the history, the role and group what an admin decided about the person now, and both must agree. So a
 * role or group change ends the rights at once, on every node, as the actor is read afresh on every request.
 */
export const leadsGroup = (actor: Actor, group: GroupFacts): boolean =>
  group.managerId !== null && group.managerId === actor.id && leadableGroupOf(actor) === group.groupId;

/**
 * The groups whose pages this person may see (the rule of 'groups.view' for every group at once): null for directors
 * and admins (every group), else their own group.
 */
export function viewableGroupIds(actor: Actor): string[] | null {
  if (seesEveryGroup(actor)) return null;
  return actor.groupId ? [actor.groupId] : [];
}

/** Who may do what in this module (decision 035). */
export const groupsPolicy = definePolicy({
  /** Creating, deleting and staffing groups (spec §5 Groups): admins. */
  'groups.administer': adminsOnly,

  /**
   * Seeing the group page and its material (and opening its files): spec §6, role director or admin, or a member of
   * the group (its current associate director is one: decision 030). Anyone else gets the spec's Access Denied.
   */
  'groups.view': (actor: Actor | null, group: { groupId: string }): Decision =>
    actor !== null && (actor.groupId === group.groupId || seesEveryGroup(actor))
      ? true
      : forbidden('groups.access_denied'),

  /** Editing the group's information, notices, files and office: admins, and its current associate director. */
  'groups.manage': (actor: Actor | null, group: GroupFacts): Decision =>
    actor !== null && (leadsGroup(actor, group) || isAdmin(actor)) ? true : forbidden('groups.not_a_manager'),
});
