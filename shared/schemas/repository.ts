import { z } from 'zod';

import { SOFTWARE_REPO_TYPES } from '../constants.ts';
import { msg } from '../messages/index.ts';
import { plainText } from './common.ts';

/**
 * The words of spec §5 Repositories, plus our own for rules the spec leaves to the browser (a URL field) or does not
 * word (number minimums). The web form and the API route check the same schema, so both say the same sentence.
 */
export const REPOSITORY_MESSAGES = {
  softwareSource: msg('repositories.software_source'),
  softwareGroupAndType: msg('repositories.software_group_and_type'),
  metadataJson: msg('repositories.metadata_json'),
  trialRequired: msg('repositories.trial_required'),
  githubUrl: msg('repositories.github_url'),
  sizeInKB: msg('repositories.size_in_kb'),
  duration: msg('repositories.duration'),
  tooLong: msg('repositories.too_long'),
  metadataDeep: msg('repositories.metadata_deep'),
  metadataLarge: msg('repositories.metadata_large'),
} as const;
export type RepositoryMessage = keyof typeof REPOSITORY_MESSAGES;
const M = REPOSITORY_MESSAGES;

const text = (max: number) => plainText().max(max, M.tooLong).default('');

/**
 * An optional link: blank, or an absolute http(s) URL. Only these two schemes, because the link is rendered as an
 * anchor on the cards (a `javascript:` URL would run script).
 */
const githubUrl = text(2000).refine((value) => {
  if (!value) return true;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && Boolean(url.hostname);
  } catch {
    return false;
  }
}, M.githubUrl);

/** Deepest and largest repository metadata stored (3,000 nested brackets broke every list). */
export const METADATA_MAX_DEPTH = 10;
export const METADATA_MAX_CHARS = 10 * 1024;

/** How deeply a JSON value nests (a scalar is 0, `[]` is 1), counted without recursion; stops past `limit`. */
export function jsonDepth(value: unknown, limit = Infinity): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Can this stored metadata be shown? A row written before the limits existed may not be (the list shows null). */
export const isShowableMetadata = (value: unknown) =>
  jsonDepth(value, METADATA_MAX_DEPTH) <= METADATA_MAX_DEPTH &&
  (JSON.stringify(value) ?? '').length <= METADATA_MAX_CHARS;

/** Free JSON typed as text (multipart metadata field): blank means none, anything else must parse. */
const jsonText = z
  .string()
  .max(100_000, M.tooLong)
  .default('')
  .transform((value, ctx) => {
    if (!value.trim()) return null;
    if (value.length > METADATA_MAX_CHARS) {
      ctx.addIssue({ code: 'custom', message: M.metadataLarge });
      return z.NEVER;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: M.metadataJson });
      return z.NEVER;
    }
    if (jsonDepth(parsed, METADATA_MAX_DEPTH) > METADATA_MAX_DEPTH) {
      ctx.addIssue({ code: 'custom', message: M.metadataDeep });
      return z.NEVER;
    }
    return parsed;
  });

/** A number of 0 or more, given as a number or as text (form inputs and JSON both); blank means not given. */
const nonNegative = (message: string) =>
  z
    .union([z.number(), plainText()], message)
    .nullish()
    .transform((value, ctx) => {
      if (value === '' || value === null || value === undefined) return null;
      const n = Number(value);
      if (!Number.isFinite(n)) {
        ctx.addIssue({ code: 'custom', message });
        return z.NEVER;
      }
      return n;
    })
    .pipe(z.number().min(0, message).max(1e12, message).nullable());

/** Languages as typed ("C, Python,, Go ") or as a list: split on commas, trimmed, blanks dropped (spec §5). */
export const languageList = z
  .union([z.string(), z.array(z.string())])
  .nullish()
  .transform((value) =>
    (Array.isArray(value) ? value : [value ?? ''])
      .flatMap((item) => item.split(','))
      .map((item) => item.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().max(100, M.tooLong)).max(50, M.tooLong));

/** A chosen file: on the server the stored upload, in the browser the File; absent is null. */
const optionalFile = z.any().optional();

// ---------------------------------------------------------------------------------------------------------------
// Software repository (spec §2 Upload Software Repository, §5 Repositories)

/**
 * POST /api/softwareRepo: the multipart fields (all text) plus `file`. Group and type first, so an empty form is told
 * to pick them; the at-least-one rule runs once the fields themselves are sound.
 */
export const softwareRepoInput = z
  .object({
    group: z.uuid(M.softwareGroupAndType),
    // §3 writes the type "ZIP", §2 and §9 "ZIP File": both are accepted, "ZIP File" is stored.
    type: z.preprocess((v) => (v === 'ZIP' ? 'ZIP File' : v), z.enum(SOFTWARE_REPO_TYPES, M.softwareGroupAndType)),
    githubUrl,
    clonedRepoPath: text(1000),
    metadata: jsonText,
    file: optionalFile,
  })
  .superRefine((value, ctx) => {
    if (!value.file && !value.githubUrl && !value.clonedRepoPath) {
      ctx.addIssue({ code: 'custom', message: M.softwareSource, path: ['file'] });
    }
  });
export type SoftwareRepoInput = z.input<typeof softwareRepoInput>;
export type SoftwareRepoValues = z.output<typeof softwareRepoInput>;

// ---------------------------------------------------------------------------------------------------------------
// Trial repository (spec §2 Upload Trial Repository, §5 Repositories)

/** The trial metadata object: size in KB and duration in minutes (numbers, min 0) and the languages used. */
export const trialRepoMetadata = z.object({
  sizeInKB: nonNegative(M.sizeInKB),
  duration: nonNegative(M.duration),
  languageUsed: languageList,
});
export type TrialRepoMetadata = z.output<typeof trialRepoMetadata>;

const trialRequired = plainText().min(1, M.trialRequired);
const trialFields = {
  group: z.uuid(M.trialRequired),
  type: trialRequired.max(200, M.tooLong),
  githubUrl,
  clonedRepoPath: text(1000),
  file: z.any().refine(Boolean, M.trialRequired),
};

/** POST /api/trialRepo: the multipart fields, `metadata` being JSON text of {sizeInKB, duration, languageUsed}. */
export const trialRepoInput = z.object({
  ...trialFields,
  metadata: jsonText.pipe(
    z.preprocess(
      (value) => (value === null ? {} : value),
      z.record(z.string(), z.unknown(), M.metadataJson).pipe(trialRepoMetadata),
    ),
  ),
});
export type TrialRepoValues = z.output<typeof trialRepoInput>;

/** The trial upload form as typed: the metadata parts are inputs of their own, sent as one JSON text. */
export const trialRepoForm = z.object({ ...trialFields, ...trialRepoMetadata.shape });
export type TrialRepoFormInput = z.input<typeof trialRepoForm>;

// ---------------------------------------------------------------------------------------------------------------
// API shapes (spec §3 Software repository, Trial repository)

const groupRef = z.object({ _id: z.uuid(), name: z.string() });
/** The uploader as the cards read it (uploadedBy.personalDetails.name); null once the account is gone. */
const uploaderRef = z.object({ _id: z.uuid(), personalDetails: z.object({ name: z.string() }) }).nullable();
const repositoryJson = z.object({
  _id: z.uuid(),
  group: groupRef,
  githubUrl: z.string(),
  clonedRepoPath: z.string(),
  /** The attached file's own name, or null when none was attached. */
  originalName: z.string().nullable(),
  /** A link on the portal's own origin (/uploads/<area>/<id>), served only to those who may see the record. */
  filePath: z.string().nullable(),
  fileSize: z.number().nullable(),
  uploadedBy: uploaderRef,
  createdAt: z.string(),
});

export const softwareRepoJson = repositoryJson.extend({ type: z.enum(SOFTWARE_REPO_TYPES), metadata: z.json() });
export type SoftwareRepoJson = z.infer<typeof softwareRepoJson>;

export const trialRepoJson = repositoryJson.extend({
  type: z.string(),
  metadata: z.object({
    sizeInKB: z.number().nullable(),
    duration: z.number().nullable(),
    languageUsed: z.array(z.string()),
  }),
});
export type TrialRepoJson = z.infer<typeof trialRepoJson>;
