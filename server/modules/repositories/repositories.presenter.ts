import { isShowableMetadata, type SoftwareRepoJson, type TrialRepoJson } from '#shared/schemas/repository.ts';

import { fileUrl } from '#server/modules/files/storage-areas.ts';

import { SOFTWARE_AREA, type SoftwareRepoRecord, TRIAL_AREA, type TrialRepoRecord } from './repositories.service.ts';

type Joined = Pick<SoftwareRepoRecord, 'groupName' | 'uploaderName' | 'originalName' | 'fileSize'>;
type Common = { id: string; groupId: string; githubUrl: string; clonedRepoPath: string; fileId: string | null };
type CommonRow = Common & { uploadedBy: string | null; createdAt: Date };

/** The fields both repository kinds share (spec §3): group with name, file name and link, uploader's name. */
function presentCommon(repo: CommonRow, joined: Joined, area: string) {
  return {
    _id: repo.id,
    group: { _id: repo.groupId, name: joined.groupName },
    githubUrl: repo.githubUrl,
    clonedRepoPath: repo.clonedRepoPath,
    originalName: repo.fileId ? joined.originalName : null,
    filePath: fileUrl(area, repo.fileId),
    fileSize: repo.fileId ? joined.fileSize : null,
    uploadedBy:
      repo.uploadedBy && joined.uploaderName !== null
        ? { _id: repo.uploadedBy, personalDetails: { name: joined.uploaderName } }
        : null,
    createdAt: repo.createdAt.toISOString(),
  };
}

/** The one place a software repository row becomes JSON (spec §3 Software repository). */
export function presentSoftwareRepo({ repo, ...joined }: SoftwareRepoRecord): SoftwareRepoJson {
  return {
    ...presentCommon(repo, joined, SOFTWARE_AREA),
    type: repo.type,
    // A row stored before the limits (decision 049) may hold metadata no answer can carry: shown as none, so that one row
    // never breaks the whole list.
    metadata: (isShowableMetadata(repo.metadata) ? (repo.metadata ?? null) : null) as SoftwareRepoJson['metadata'],
  };
}

/** The one place a trial repository row becomes JSON (spec §3 Trial repository: metadata {sizeInKB, duration, languageUsed}). */
export function presentTrialRepo({ repo, ...joined }: TrialRepoRecord): TrialRepoJson {
  return {
    ...presentCommon(repo, joined, TRIAL_AREA),
    type: repo.type,
    metadata: { sizeInKB: repo.sizeInKb, duration: repo.duration, languageUsed: repo.languageUsed },
  };
}
