import { and, eq, inArray, type SQL } from 'drizzle-orm';

import type { Role } from '#shared/constants.ts';
import type { AcknowledgementScope } from '#shared/schemas/acknowledgements.ts';

import { conflict, forbidden, notFound } from '#server/lib/errors.ts';
import { type Decision, definePolicy } from '#server/lib/policy.ts';
import { isDirectorOrAdmin } from '#server/lib/roles.policy.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

/** One person's row, as the rules see it. */
export interface RowFacts {
  userId: string;
  openedAt: Date | null;
}

/** A request as the report rules see it (decision 074). */
export interface RequestFacts {
  publishedBy: string | null;
  /**
   * The group this reader heads (groups.queries.ts groupsLedBy: an associate director named by their group's current
   * director entry), when that group has people in the request's audience; else null.
   */
  ledGroupInAudience: string | null;
}

/** Who a request asks (decision 073): a scope and, for groups or a group item, the groups; for roles, the roles. */
export interface Audience {
  scope: AcknowledgementScope;
  groups: string[];
  roles: Role[];
}

/**
 * The people an audience asks, as SQL over `users`: approved people of the lab, of the chosen groups, or holding the
 * chosen roles (within the item's own group for a group item). The joiners' trigger of migration 0028 says the same.
 */
export function audienceMembers(a: Audience): SQL {
  const approved = eq(users.status, 'approved');
  if (a.scope === 'lab') return approved;
  if (a.scope === 'groups') return and(approved, inArray(users.groupId, a.groups))!;
  return and(approved, inArray(users.role, a.roles), a.groups.length ? inArray(users.groupId, a.groups) : undefined)!;
}

// NOTE: plain booleans: the role helpers are type guards, which would narrow `actor` to never when they say no.
/** Directors and admins report on every request, whole (decision 074). */
const seesEveryReport = (actor: Actor): boolean => isDirectorOrAdmin(actor);

/**
 * The part of a request's audience this reader sees: null for all of it (its publisher, directors, admins), else the
 * one group they head. Callers authorise 'acknowledgements.report' first.
 */
export function reportGroupOf(actor: Actor, request: RequestFacts): string | null {
  if (seesEveryReport(actor) || (request.publishedBy !== null && request.publishedBy === actor.id)) return null;
  return request.ledGroupInAudience;
}

/**
 * Which requests this reader may list (GET /api/acknowledgement-requests): every one (directors and admins), else
 * those they published and those with people of the group they head (`ledGroupId`, groupsLedBy), whose part is theirs.
 */
export function reportableRequests(
  actor: Actor,
  ledGroupId: string | null,
): { all: true } | { all: false; publishedBy: string; groupId: string | null } {
  return seesEveryReport(actor) ? { all: true } : { all: false, publishedBy: actor.id, groupId: ledGroupId };
}

/** Who may do what with acknowledgements (decision 035). */
export const acknowledgementsPolicy = definePolicy({
  /** A person opens and acknowledges only their own rows; anyone else's is not found (nothing learnt of it). */
  'acknowledgements.own': (actor: Actor | null, row: RowFacts): Decision =>
    actor !== null && actor.id === row.userId ? true : notFound('acknowledgements.not_found'),

  /** Acknowledge: their own row, after opening the document (the screen's button follows it). */
  'acknowledgements.acknowledge': (actor: Actor | null, row: RowFacts): Decision => {
    if (actor === null || actor.id !== row.userId) return notFound('acknowledgements.not_found');
    return row.openedAt ? true : conflict('acknowledgements.open_first');
  },

  /**
   * The report of a request (counts, who has not acknowledged, CSV): its publisher, directors and admins (all of it),
   * and the head of a group in its audience (that group's part: reportGroupOf).
   */
  'acknowledgements.report': (actor: Actor | null, request: RequestFacts): Decision =>
    actor !== null &&
    (seesEveryReport(actor) ||
      (request.publishedBy !== null && request.publishedBy === actor.id) ||
      request.ledGroupInAudience !== null)
      ? true
      : forbidden('acknowledgements.report_denied'),

  /** One group's part of a report: a reader limited to their group (reportGroupOf) may ask only for it. */
  'acknowledgements.report_group': (
    actor: Actor | null,
    ask: { visibleGroup: string | null; group: string },
  ): Decision =>
    actor !== null && (ask.visibleGroup === null || ask.visibleGroup === ask.group)
      ? true
      : forbidden('acknowledgements.report_group_denied'),
});
