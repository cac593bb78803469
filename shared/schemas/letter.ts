import { z } from 'zod';
import { LETTER_CLASSIFICATIONS } from '../constants.ts';
import { pageQuery } from './common.ts';

/**
 * The letters register (spec §3 Letter, §5 Letters). All nine text and date fields are required; the spec gives no
 * words for them, so each message names the field as the form labels it (spec §2 Letters Manager).
 */
const requiredText = (label: string, max = 300) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

const requiredDate = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    // A full timestamp is cut to its date, as the Letters Manager does with a loaded letter (spec §4).
    .transform((v) => v.slice(0, 10))
    .pipe(z.iso.date(`${label} must be a valid date.`));

/** The nine fields of the Letters Manager form, in the order the form shows them. */
export const LETTER_FIELDS = [
  'letterLanguage',
  'letterCommunBy',
  'docketDate',
  'letterDate',
  'letterNo',
  'category',
  'establishment',
  'letterSub',
  'docketNo',
] as const;
export type LetterField = (typeof LETTER_FIELDS)[number];

const letterFields = {
  letterLanguage: requiredText('Language', 100),
  letterCommunBy: requiredText('Communicated By'),
  docketDate: requiredDate('Docket Date'),
  letterDate: requiredDate('Letter Date'),
  letterNo: requiredText('Letter No'),
  category: requiredText('Category', 200),
  establishment: requiredText('Establishment'),
  letterSub: requiredText('Subject', 1000),
  docketNo: requiredText('Docket No'),
};

export const letterClassification = z.enum(
  LETTER_CLASSIFICATIONS,
  'Please choose a classification: Normal, Confidential or Secret.',
);
export type LetterClassification = z.infer<typeof letterClassification>;

/** POST /api/dac (multipart text fields): the nine fields and a classification, Normal unless chosen. */
export const createLetterInput = z.object({ ...letterFields, classification: letterClassification.default('Normal') });
export type CreateLetterInput = z.infer<typeof createLetterInput>;

/** PUT /api/dac/{id} (JSON): the nine fields; the classification stays as it is unless sent. */
export const updateLetterInput = z.object({ ...letterFields, classification: letterClassification.optional() });
export type UpdateLetterInput = z.infer<typeof updateLetterInput>;

/** The search box: case-insensitive, trimmed (spec §2 Letters & Correspondence). */
const searchText = z.string().trim().max(200, 'Search text must be at most 200 characters.').default('');
/** `mine=true` keeps only the letters the signed-in person uploaded (the Letters Manager of a director). */
const mine = z
  .enum(['true', 'false'])
  .optional()
  .transform((v) => v === 'true');

/** GET /api/dac: an array, as the spec's callers expect; optional search and limit/offset paging. */
export const listLettersQuery = pageQuery.extend({ q: searchText, mine });
/** GET /api/dac/page: one page of results and the cursor of the next (keyset paging, for endless lists). */
export const letterPageQuery = pageQuery
  .pick({ limit: true })
  .extend({ q: searchText, cursor: z.string().max(200).optional(), mine });
/** GET /api/dac/export: every matching letter as CSV. */
export const letterExportQuery = z.object({ q: searchText, mine });

export const letterJson = z.object({
  _id: z.uuid(),
  /** L-YYYY-NNNNNN, assigned by the server. */
  letterId: z.string(),
  letterSub: z.string(),
  letterNo: z.string(),
  letterDate: z.string(),
  docketNo: z.string(),
  docketDate: z.string(),
  category: z.string(),
  establishment: z.string(),
  letterLanguage: z.string(),
  letterCommunBy: z.string(),
  classification: letterClassification,
  letterUploadDate: z.string(),
  updatedAt: z.string(),
  /** The stored file's name under /uploads/letters/ (spec §7), or null. */
  fileName: z.string().nullable(),
  /** The name the file had when it was uploaded. */
  originalName: z.string().nullable(),
  fileUrl: z.string().nullable(),
  uploadedBy: z.object({ _id: z.uuid(), name: z.string() }).nullable(),
  /** Whether the signed-in person may edit, replace the file of, and delete this letter. */
  canEdit: z.boolean(),
  deletedAt: z.string().nullable(),
  deletedBy: z.object({ _id: z.uuid(), name: z.string() }).nullable(),
});
export type LetterJson = z.infer<typeof letterJson>;

export const letterPageJson = z.object({ letters: z.array(letterJson), nextCursor: z.string().nullable() });
export type LetterPageJson = z.infer<typeof letterPageJson>;

export const LETTER_HISTORY_ACTIONS = ['uploaded', 'updated', 'file_replaced', 'deleted', 'restored'] as const;
export type LetterHistoryAction = (typeof LETTER_HISTORY_ACTIONS)[number];

export const letterHistoryJson = z.object({
  _id: z.uuid(),
  action: z.enum(LETTER_HISTORY_ACTIONS),
  /** Field name → old and new value (file: old and new file name). */
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })).nullable(),
  at: z.string(),
  actor: z.object({ _id: z.uuid(), name: z.string() }).nullable(),
});
export type LetterHistoryJson = z.infer<typeof letterHistoryJson>;
