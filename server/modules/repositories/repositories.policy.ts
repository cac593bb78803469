import { asc, eq, or, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '#server/db/client.ts';
import { groups, softwareRepos, trialRepos, type FileRow } from '#server/db/schema/index.ts';
import { badRequest, forbidden } from '#server/lib/errors.ts';
import type { Actor } from '#server/plugins/auth.ts';
import { definePolicy } from '#server/lib/policy.ts';
import { hasRole } from '#server/lib/roles.policy.ts';

/** Who may upload (issue 7, decision 008): associate directors and administrators. */
export const UPLOADER_ROLES = ['associate_director', 'admin'] as const;
export const NOT_YOUR_GROUP = 'Associate directors may upload repositories only to their own group.';
export const NOT_THE_UPLOADER = 'Only the person who uploaded this repository or an administrator may delete it.';

/** Directors and administrators see every repository of the lab (spec §6 menu: "All Software/Trial Repositories"). */
export const seesEveryRepository = (actor: Actor) => actor.role === 'admin' || actor.role === 'director';

type RepoTable = typeof softwareRepos | typeof trialRepos;

/**
 * The repositories this person may see, as a WHERE condition: none for directors and admins (everything); for other
 * staff those of their own group, and any they uploaded themselves (they may have moved group since).
 */
export function visibleRepositories(table: RepoTable, actor: Actor): SQL | undefined {
  if (seesEveryRepository(actor)) return undefined;
  const own = eq(table.uploadedBy, actor.id);
  return actor.groupId ? or(eq(table.groupId, actor.groupId), own) : own;
}

/** May this person see this repository (and so download its file)? The same rule as visibleRepositories. */
export function canViewRepository(actor: Actor, repo: { groupId: string; uploadedBy: string | null }): boolean {
  return seesEveryRepository(actor) || repo.groupId === actor.groupId || repo.uploadedBy === actor.id;
}

/** May this person delete this repository? The uploader, or an administrator (issue 7). */
export const canDeleteRepository = (actor: Actor, repo: { uploadedBy: string | null }) =>
  actor.role === 'admin' || (repo.uploadedBy !== null && repo.uploadedBy === actor.id);

/**
 * Checks that the group exists and that the actor may upload to it: an administrator to any group, an associate
 * director to the group they belong to now (a group's leader is one of its members: decision 030). Returns the
 * group's name for the activity log. Callers have already required an uploader role.
 */
export async function assertCanUploadTo(
  db: DbOrTx,
  actor: Actor,
  groupId: string,
): Promise<{ id: string; name: string }> {
  const [group] = await db
    .select({ id: groups.id, name: groups.name })
    .from(groups)
    .where(eq(groups.id, groupId))
    .limit(1);
  if (!group) throw badRequest('The selected group does not exist. Please choose another.', 'group');
  if (actor.role === 'admin') return group;
  if (actor.role === 'associate_director' && actor.groupId === groupId) return group;
  throw forbidden(NOT_YOUR_GROUP);
}

/**
 * The groups this person may upload repositories to, by name (the upload forms' Group select): every group for an
 * administrator; for an associate director the group they belong to, the same rule as assertCanUploadTo. Callers have
 * already required an uploader role.
 */
export async function listUploadGroups(db: DbOrTx, actor: Actor): Promise<{ id: string; name: string }[]> {
  const columns = { id: groups.id, name: groups.name };
  if (actor.role === 'admin') return db.select(columns).from(groups).orderBy(asc(groups.name));
  if (!actor.groupId) return [];
  return db.select(columns).from(groups).where(eq(groups.id, actor.groupId));
}

/** Download rule for the private 'software-repos' area: whoever may see the repository that owns the file. */
export async function canOpenSoftwareRepoFile(db: Db, actor: Actor, file: FileRow): Promise<boolean> {
  const [repo] = await db
    .select({ groupId: softwareRepos.groupId, uploadedBy: softwareRepos.uploadedBy })
    .from(softwareRepos)
    .where(eq(softwareRepos.fileId, file.id))
    .limit(1);
  return repo ? canViewRepository(actor, repo) : false;
}

/** Download rule for the private 'trial-repos' area: whoever may see the repository that owns the file. */
export async function canOpenTrialRepoFile(db: Db, actor: Actor, file: FileRow): Promise<boolean> {
  const [repo] = await db
    .select({ groupId: trialRepos.groupId, uploadedBy: trialRepos.uploadedBy })
    .from(trialRepos)
    .where(eq(trialRepos.fileId, file.id))
    .limit(1);
  return repo ? canViewRepository(actor, repo) : false;
}

/** Who may do what in this module (decision 035). */
export const repositoriesPolicy = definePolicy({
  /** Uploading a software or trial repository (issue 7, decision 008): associate directors and administrators. */
  'repositories.upload': (actor: Actor | null) => (hasRole(actor, UPLOADER_ROLES) ? true : forbidden()),
});
