import type { SOFTWARE_REPO_TYPES } from '#shared/constants.ts';
import { softwareRepoInput, trialRepoForm } from '#shared/schemas/repository.ts';

import { topField, zodValidate } from '#web/lib/form-validate.ts';

/** The software upload form as typed (spec §2 Upload Software Repository). */
export interface SoftwareRepoFormValues {
  group: string;
  type: string;
  githubUrl: string;
  clonedRepoPath: string;
  metadata: string;
  file: File | null;
}

/** The trial upload form as typed (spec §2 Upload Trial Repository). */
export interface TrialRepoFormValues {
  group: string;
  type: string;
  githubUrl: string;
  clonedRepoPath: string;
  sizeInKB: number | string;
  duration: number | string;
  languageUsed: string;
  file: File | null;
}

/** Checks the software form with the same schema as POST /api/softwareRepo: the spec §5 message per field. */
export const checkSoftwareRepo = zodValidate<SoftwareRepoFormValues>(softwareRepoInput, { fold: topField });

/** Checks the trial form with the shared schema (metadata numbers and languages included). */
export const checkTrialRepo = zodValidate<TrialRepoFormValues>(trialRepoForm, { fold: topField });

/**
 * The multipart body of a checked software form: the text fields first and the file last, so the server can refuse
 * before the file's bytes are stored; blanks left out.
 */
export function softwareRepoBody(values: SoftwareRepoFormValues): FormData {
  const { group, type, githubUrl, clonedRepoPath } = softwareRepoInput.parse(values);
  const data = new FormData();
  data.set('group', group);
  data.set('type', type);
  if (githubUrl) data.set('githubUrl', githubUrl);
  if (clonedRepoPath) data.set('clonedRepoPath', clonedRepoPath);
  if (values.metadata.trim()) data.set('metadata', values.metadata.trim());
  if (values.file) data.set('file', values.file);
  return data;
}

/**
 * The multipart body of a checked trial form: metadata is sent as one JSON text of {sizeInKB, duration,
 * languageUsed} (spec §7), numbers parsed, languages split on commas, trimmed, blanks dropped.
 */
export function trialRepoBody(values: TrialRepoFormValues): FormData {
  const { group, type, githubUrl, clonedRepoPath, sizeInKB, duration, languageUsed } = trialRepoForm.parse(values);
  const data = new FormData();
  data.set('group', group);
  data.set('type', type);
  if (githubUrl) data.set('githubUrl', githubUrl);
  if (clonedRepoPath) data.set('clonedRepoPath', clonedRepoPath);
  data.set('metadata', JSON.stringify({ sizeInKB, duration, languageUsed }));
  data.set('file', values.file!);
  return data;
}

/** i18n key of a software repository type (spec §9: Document, Code, ZIP File). */
export const typeKey = (type: string) =>
  ({ Document: 'types.document', Code: 'types.code', 'ZIP File': 'types.zip' })[
    type as (typeof SOFTWARE_REPO_TYPES)[number]
  ] ?? null;

/** A repository file's link: the base address plus filePath with backslashes turned to slashes (spec §7). */
export const fileHref = (filePath: string) => filePath.replace(/\\/g, '/');

export const SIZE_UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * "12 KB", "3.4 MB", "1 GB": a file size for the card. `unitName` words a unit in the reader's language (the
 * repositories namespace's sizeUnits: "125 बाइट" in Hindi); English by default.
 */
export function readableSize(
  bytes: number,
  unitName: (unit: (typeof SIZE_UNITS)[number]) => string = (u) => u,
): string {
  const units = SIZE_UNITS;
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : +value.toFixed(1)} ${unitName(units[unit]!)}`;
}

/** Metadata as formatted JSON (spec §2 Software Repositories), or null when there is none. */
export const formatMetadata = (metadata: unknown) =>
  metadata === null || metadata === undefined ? null : JSON.stringify(metadata, null, 2);
