import { eq, or, type SQL } from 'drizzle-orm';

import type { softwareRepos, trialRepos } from '#server/db/schema/index.ts';
import { forbidden } from '#server/lib/errors.ts';
import { type Decision, definePolicy } from '#server/lib/policy.ts';
import { hasRole, isAdmin, isDirectorOrAdmin } from '#server/lib/roles.policy.ts';
import type { Actor } from '#server/plugins/auth.ts';

/** Who may upload (decision 008): associate directors and administrators. */
export const UPLOADER_ROLES = ['associate_director', 'admin'] as const;

type RepoTable = typeof softwareRepos | typeof trialRepos;

// NOTE: plain booleans: the role helpers are type guards, which would narrow `actor` to never when they say no.
/** Directors and administrators see every repository of the lab (spec §6 menu: "All Software/Trial Repositories"). */
const seesEveryRepository = (actor: Actor): boolean => isDirectorOrAdmin(actor);
/** Administrators may upload to any group. */
const uploadsToAnyGroup = (actor: Actor): boolean => isAdmin(actor);

/** A repository as the rules see it: its group and who uploaded it. */
export interface RepositoryFacts {
  groupId: string;
  uploadedBy: string | null;
}

/**
 * The repositories this person may see, as a WHERE condition: none for directors and admins (everything); for other
 * staff those of their own group, and any they uploaded themselves (they may have moved group since). The same rule
 * as 'repositories.view'.
 */
export function visibleRepositories(table: RepoTable, actor: Actor): SQL | undefined {
  if (seesEveryRepository(actor)) return undefined;
  const own = eq(table.uploadedBy, actor.id);
  return actor.groupId ? or(eq(table.groupId, actor.groupId), own) : own;
}

/**
 * The groups this person may upload repositories to (the upload forms' Group select): every group ('all') for an
 * administrator; for an associate director the group they belong to, the same rule as 'repositories.upload_to'.
 * Callers have already required an uploader role.
 */
export function uploadableGroups(actor: Actor): string[] | 'all' {
  if (uploadsToAnyGroup(actor)) return 'all';
  return actor.groupId ? [actor.groupId] : [];
}

/** Who may do what in this module (decision 035). */
export const repositoriesPolicy = definePolicy({
  /** Uploading a software or trial repository (decision 008): associate directors and administrators. */
  'repositories.upload': (actor: Actor | null): Decision => (hasRole(actor, UPLOADER_ROLES) ? true : forbidden()),

  /**
   * Uploading to this group: an administrator to any group, an associate director to the group they belong to now
   * (a group's leader is one of its members: decision 030).
   */
  'repositories.upload_to': (actor: Actor | null, group: { groupId: string }): Decision => {
    if (actor?.role === 'admin') return true;
    if (actor?.role === 'associate_director' && actor.groupId === group.groupId) return true;
    return forbidden('repositories.not_your_group');
  },

  /** Seeing a repository (and downloading its file): the same rule as visibleRepositories. */
  'repositories.view': (actor: Actor | null, repo: RepositoryFacts): Decision =>
    actor !== null && (repo.groupId === actor.groupId || repo.uploadedBy === actor.id || isDirectorOrAdmin(actor))
      ? true
      : forbidden(),

  /** Deleting a repository: its uploader, or an administrator (decision 008). */
  'repositories.delete': (actor: Actor | null, repo: Pick<RepositoryFacts, 'uploadedBy'>): Decision =>
    actor !== null && ((repo.uploadedBy !== null && repo.uploadedBy === actor.id) || isAdmin(actor))
      ? true
      : forbidden('repositories.delete_uploader_only'),
});
