import { asc, desc, eq, sql } from 'drizzle-orm';

import type { SoftwareRepoValues, TrialRepoValues } from '#shared/schemas/repository.ts';

import type { Db, DbOrTx } from '#server/db/client.ts';
import { type FileRow, softwareRepos, trialRepos } from '#server/db/schema/index.ts';
import { badRequest, notFound } from '#server/lib/errors.ts';
import { countWhere } from '#server/lib/paging.ts';
import { activityWord } from '#server/modules/audit/activity-words.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { files } from '#server/modules/files/files.view.ts';
import {
  type FileStore,
  saveFileRow,
  type StoredFile,
  transactionDroppingFiles,
} from '#server/modules/files/storage.ts';
import { findGroupById, groupNamesByName } from '#server/modules/groups/groups.queries.ts';
import { groups } from '#server/modules/groups/groups.view.ts';
import { users } from '#server/modules/users/users.view.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { repositoriesPolicy, uploadableGroups, visibleRepositories } from './repositories.policy.ts';

export const SOFTWARE_AREA = 'software-repos';
export const TRIAL_AREA = 'trial-repos';

/** The joined names every card shows: group, uploader and the attached file. */
const joined = {
  groupName: groups.name,
  uploaderName: users.name,
  originalName: files.originalName,
  fileSize: files.size,
};

const software = () => ({ repo: softwareRepos, ...joined });
const trial = () => ({ repo: trialRepos, ...joined });

function softwareQuery(db: DbOrTx) {
  return db
    .select(software())
    .from(softwareRepos)
    .innerJoin(groups, eq(groups.id, softwareRepos.groupId))
    .leftJoin(users, eq(users.id, softwareRepos.uploadedBy))
    .leftJoin(files, eq(files.id, softwareRepos.fileId));
}

function trialQuery(db: DbOrTx) {
  return db
    .select(trial())
    .from(trialRepos)
    .innerJoin(groups, eq(groups.id, trialRepos.groupId))
    .leftJoin(users, eq(users.id, trialRepos.uploadedBy))
    .leftJoin(files, eq(files.id, trialRepos.fileId));
}

export type SoftwareRepoRecord = Awaited<ReturnType<typeof softwareQuery>>[number];
export type TrialRepoRecord = Awaited<ReturnType<typeof trialQuery>>[number];

/** What the activity log calls the repository: its file name, else its URL, else its cloned path. */
const describe = (file: StoredFile | null, values: { githubUrl: string; clonedRepoPath: string }) =>
  file?.originalName || values.githubUrl || values.clonedRepoPath;

export interface Page {
  limit: number;
  offset: number;
}

/**
 * Checks that the group exists (else 400 on the group field) and that the actor may upload to it (the policy).
 * Returns the group's name for the activity log. Callers have already required an uploader role.
 */
export async function assertCanUploadTo(
  db: DbOrTx,
  actor: Actor,
  groupId: string,
): Promise<{ id: string; name: string }> {
  const group = await findGroupById(db, groupId);
  if (!group) throw badRequest('repositories.group_not_found', 'group');
  repositoriesPolicy.authorize(actor, 'repositories.upload_to', { groupId: group.id });
  return { id: group.id, name: group.name };
}

/** The groups this person may upload repositories to, by name (the upload forms' Group select). */
export async function listUploadGroups(db: DbOrTx, actor: Actor): Promise<{ id: string; name: string }[]> {
  return groupNamesByName(db, uploadableGroups(actor));
}

/** Download rule for the private 'software-repos' area: whoever may see the repository that owns the file. */
export async function canOpenSoftwareRepoFile(db: Db, actor: Actor, file: FileRow): Promise<boolean> {
  const [repo] = await db
    .select({ groupId: softwareRepos.groupId, uploadedBy: softwareRepos.uploadedBy })
    .from(softwareRepos)
    .where(eq(softwareRepos.fileId, file.id))
    .limit(1);
  return repo ? repositoriesPolicy.allows(actor, 'repositories.view', repo) : false;
}

/** Download rule for the private 'trial-repos' area: whoever may see the repository that owns the file. */
export async function canOpenTrialRepoFile(db: Db, actor: Actor, file: FileRow): Promise<boolean> {
  const [repo] = await db
    .select({ groupId: trialRepos.groupId, uploadedBy: trialRepos.uploadedBy })
    .from(trialRepos)
    .where(eq(trialRepos.fileId, file.id))
    .limit(1);
  return repo ? repositoriesPolicy.allows(actor, 'repositories.view', repo) : false;
}

/**
 * The software repositories this person may see (repositories.policy), sorted by group name as the cards are (spec §2),
 * newest first within a group. Any signed-in user may call it.
 */
export async function listSoftwareRepos(db: DbOrTx, actor: Actor, page: Page): Promise<SoftwareRepoRecord[]> {
  return softwareQuery(db)
    .where(visibleRepositories(softwareRepos, actor))
    .orderBy(asc(sql`lower(${groups.name})`), desc(softwareRepos.createdAt), asc(softwareRepos.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** The trial repositories this person may see, in the same order as listSoftwareRepos. */
export async function listTrialRepos(db: DbOrTx, actor: Actor, page: Page): Promise<TrialRepoRecord[]> {
  return trialQuery(db)
    .where(visibleRepositories(trialRepos, actor))
    .orderBy(asc(sql`lower(${groups.name})`), desc(trialRepos.createdAt), asc(trialRepos.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** How many software repositories this person may see (listSoftwareRepos without its page). */
export const countSoftwareRepos = (db: DbOrTx, actor: Actor) =>
  countWhere(db, softwareRepos, visibleRepositories(softwareRepos, actor));

/** How many trial repositories this person may see (listTrialRepos without its page). */
export const countTrialRepos = (db: DbOrTx, actor: Actor) =>
  countWhere(db, trialRepos, visibleRepositories(trialRepos, actor));

/**
 * Records a software repository and its optional file in one transaction, with its activity. Callers have checked the
 * uploader role; the group rule is checked here again. The caller discards the stored file if this throws.
 */
export async function createSoftwareRepo(
  db: Db,
  actor: Actor,
  values: SoftwareRepoValues,
  file: StoredFile | null,
): Promise<SoftwareRepoRecord> {
  return db.transaction(async (tx) => {
    const group = await assertCanUploadTo(tx, actor, values.group);
    const fileRow = file ? await saveFileRow(tx, file, actor.id) : null;
    const [repo] = await tx
      .insert(softwareRepos)
      .values({
        groupId: group.id,
        type: values.type,
        githubUrl: values.githubUrl,
        clonedRepoPath: values.clonedRepoPath,
        metadata: values.metadata ?? null,
        fileId: fileRow?.id ?? null,
        uploadedBy: actor.id,
      })
      .returning({ id: softwareRepos.id });
    await recordActivity(
      tx,
      actor,
      'activity.software_repo_uploaded',
      { name: describe(file, values), type: activityWord(values.type), group: group.name },
      {
        type: 'software_repo',
        id: repo!.id,
      },
    );
    const [record] = await softwareQuery(tx).where(eq(softwareRepos.id, repo!.id));
    return record!;
  });
}

/** Records a trial repository with its file in one transaction, with its activity. As createSoftwareRepo. */
export async function createTrialRepo(
  db: Db,
  actor: Actor,
  values: TrialRepoValues,
  file: StoredFile,
): Promise<TrialRepoRecord> {
  return db.transaction(async (tx) => {
    const group = await assertCanUploadTo(tx, actor, values.group);
    const fileRow = await saveFileRow(tx, file, actor.id);
    const [repo] = await tx
      .insert(trialRepos)
      .values({
        groupId: group.id,
        type: values.type,
        githubUrl: values.githubUrl,
        clonedRepoPath: values.clonedRepoPath,
        sizeInKb: values.metadata.sizeInKB,
        duration: values.metadata.duration,
        languageUsed: values.metadata.languageUsed,
        fileId: fileRow.id,
        uploadedBy: actor.id,
      })
      .returning({ id: trialRepos.id });
    await recordActivity(
      tx,
      actor,
      'activity.trial_repo_uploaded',
      { name: describe(file, values), type: values.type, group: group.name },
      {
        type: 'trial_repo',
        id: repo!.id,
      },
    );
    const [record] = await trialQuery(tx).where(eq(trialRepos.id, repo!.id));
    return record!;
  });
}

/**
 * Deletes a software repository, its file row and (after the commit) its stored bytes. The uploader or an admin only;
 * someone who may not even see it is told it does not exist.
 */
export async function deleteSoftwareRepo(db: Db, store: FileStore, actor: Actor, id: string): Promise<void> {
  await transactionDroppingFiles(db, store, async (tx, dropFiles) => {
    const [repo] = await tx.select().from(softwareRepos).where(eq(softwareRepos.id, id)).for('update').limit(1);
    if (!repo || !repositoriesPolicy.allows(actor, 'repositories.view', repo))
      throw notFound('repositories.software_not_found');
    repositoriesPolicy.authorize(actor, 'repositories.delete', repo);
    await tx.delete(softwareRepos).where(eq(softwareRepos.id, id));
    await dropFiles([repo.fileId]);
    await recordActivity(
      tx,
      actor,
      'activity.software_repo_deleted',
      { type: activityWord(repo.type) },
      { type: 'software_repo', id },
    );
  });
}

/** Deletes a trial repository and its file, as deleteSoftwareRepo. */
export async function deleteTrialRepo(db: Db, store: FileStore, actor: Actor, id: string): Promise<void> {
  await transactionDroppingFiles(db, store, async (tx, dropFiles) => {
    const [repo] = await tx.select().from(trialRepos).where(eq(trialRepos.id, id)).for('update').limit(1);
    if (!repo || !repositoriesPolicy.allows(actor, 'repositories.view', repo))
      throw notFound('repositories.trial_not_found');
    repositoriesPolicy.authorize(actor, 'repositories.delete', repo);
    await tx.delete(trialRepos).where(eq(trialRepos.id, id));
    await dropFiles([repo.fileId]);
    await recordActivity(tx, actor, 'activity.trial_repo_deleted', { type: repo.type }, { type: 'trial_repo', id });
  });
}
