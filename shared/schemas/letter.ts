import { z } from 'zod';
import { DAK_MAX_RECIPIENTS, DAK_PRIORITIES, LETTER_CLASSIFICATIONS } from '../constants.ts';
import { isoDate, pageQuery, plainText } from './common.ts';

/**
 * The letters register (spec §3 Letter, §5 Letters). All nine text and date fields are required; the spec gives no
 * words for them, so each message names the field as the form labels it (spec §2 Letters Manager).
 */
const requiredText = (label: string, max = 300) =>
  plainText({ error: `${label} is required.` })
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

const requiredDate = (label: string) =>
  plainText({ error: `${label} is required.` })
    .min(1, `${label} is required.`)
    // A full timestamp is cut to its date, as the Letters Manager does with a loaded letter (spec §4).
    .transform((v) => v.slice(0, 10))
    .pipe(isoDate(`${label} must be a valid date.`));

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
const searchText = plainText().max(200, 'Search text must be at most 200 characters.').default('');
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
  /** True once the letter has been marked to someone: its register fields are then changed only by an admin. */
  frozen: z.boolean(),
  /** Whether the signed-in person may mark it (its uploader, a holder, a director or an admin; issue 17). */
  canMark: z.boolean(),
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

// ---------------------------------------------------------------------------------------------------------------
// Dak movement (issue 17): marking, inbox, receipt, closing, sending back, pendency. docs/decisions/020-dak-movement.md

export const dakPriority = z.enum(DAK_PRIORITIES, 'Please choose a priority: Normal, Urgent or Most Immediate.');
export type DakPriority = z.infer<typeof dakPriority>;

const remarksText = (max = 2000) => plainText().max(max, `Remarks must be at most ${max} characters.`);
const optionalShortText = (label: string) =>
  plainText()
    .max(300, `${label} must be at most 300 characters.`)
    .optional()
    .transform((v) => v || null);

/** POST /api/dac/{id}/movements: mark a letter to one or more officers. */
export const markLetterInput = z.object({
  to: z
    .array(
      // An upper-case UUID is the same officer: kept in lower case, as the database returns ids (issue 28 item 5).
      z.uuid('Please choose officers from the list.').transform((id) => id.toLowerCase()),
      { error: 'Please choose at least one officer.' },
    )
    .min(1, 'Please choose at least one officer.')
    .max(DAK_MAX_RECIPIENTS, `A letter can be marked to at most ${DAK_MAX_RECIPIENTS} officers at once.`)
    .refine((ids) => new Set(ids).size === ids.length, 'The same officer is chosen twice.'),
  remarks: remarksText().default(''),
  dueDate: z
    .union([z.iso.date('Due date must be a valid date.'), z.literal(''), z.null()])
    .optional()
    .transform((v) => v || null),
  priority: dakPriority.default('Normal'),
});
export type MarkLetterInput = z.input<typeof markLetterInput>;

/** POST /api/dac/{id}/close: the disposal (action taken), and the file number and reply reference if any. */
export const closeLetterInput = z.object({
  disposal: plainText({ error: 'Please write the disposal (action taken).' })
    .min(1, 'Please write the disposal (action taken).')
    .max(2000, 'Disposal must be at most 2000 characters.'),
  fileNo: optionalShortText('File No'),
  replyRef: optionalShortText('Reply reference'),
});
export type CloseLetterInput = z.input<typeof closeLetterInput>;

/** POST /api/dac/{id}/return: send the letter back to whoever marked it, saying why. */
export const returnLetterInput = z.object({
  remarks: plainText({ error: 'Please say why you are sending it back.' })
    .min(1, 'Please say why you are sending it back.')
    .max(2000, 'Remarks must be at most 2000 characters.'),
});
export type ReturnLetterInput = z.input<typeof returnLetterInput>;

export const INBOX_STATUSES = ['pending', 'received', 'closed'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];
const flag = z
  .enum(['true', 'false'])
  .optional()
  .transform((v) => v === 'true');

/** GET /api/dac/inbox: the letters marked to me, one box at a time, newest marking first, with a cursor. */
export const inboxQuery = z.object({
  status: z.enum(INBOX_STATUSES, 'Status must be pending, received or closed.').default('pending'),
  cursor: z.string().max(200).optional(),
  q: searchText,
  priority: dakPriority.optional(),
  overdue: flag,
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

const person = z.object({ _id: z.uuid(), name: z.string() });

export const DAK_OUTCOMES = ['closed', 'forwarded', 'returned'] as const;
export const movementJson = z.object({
  _id: z.uuid(),
  letter: z.uuid(),
  from: person.nullable(),
  to: person.extend({ designation: z.string() }),
  remarks: z.string(),
  dueDate: z.string().nullable(),
  priority: dakPriority,
  markedAt: z.string(),
  readAt: z.string().nullable(),
  receivedAt: z.string().nullable(),
  status: z.enum(INBOX_STATUSES),
  endedAt: z.string().nullable(),
  outcome: z.enum(DAK_OUTCOMES).nullable(),
  disposal: z.string().nullable(),
  fileNo: z.string().nullable(),
  replyRef: z.string().nullable(),
  /** Held past its due date (India time). */
  overdue: z.boolean(),
});
export type MovementJson = z.infer<typeof movementJson>;

/** A letter in my inbox: the letter, and its marking to me. */
export const inboxLetterJson = letterJson.extend({ movement: movementJson });
export type InboxLetterJson = z.infer<typeof inboxLetterJson>;
export const inboxPageJson = z.object({ letters: z.array(inboxLetterJson), next: z.string().nullable() });
export type InboxPageJson = z.infer<typeof inboxPageJson>;
/** The badge in the navigation: letters marked to me not yet received, of them unread, and held past due. */
export const inboxCountJson = z.object({ pending: z.number(), unread: z.number(), overdue: z.number() });
export type InboxCountJson = z.infer<typeof inboxCountJson>;

/** An officer a letter may be marked to (GET /api/dac/officers). */
export const officerJson = z.object({
  _id: z.uuid(),
  name: z.string(),
  designation: z.string(),
  role: z.string(),
  group: z.object({ _id: z.uuid(), name: z.string() }).nullable(),
  /** May receive Confidential and Secret letters (director, admin, or cleared by an admin). */
  cleared: z.boolean(),
});
export type OfficerJson = z.infer<typeof officerJson>;

/** GET /api/dac/pendency: a period (YYYY-MM-DD, both days included; default the last 30 days) and a group. */
export const pendencyQuery = z
  .object({
    from: isoDate('From must be a valid date.').optional(),
    to: isoDate('To must be a valid date.').optional(),
    groupId: z.uuid('Please choose a group from the list.').optional(),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, { message: 'From cannot be after To.', path: ['from'] });
export type PendencyQuery = z.infer<typeof pendencyQuery>;

const counts = { pending: z.number(), overdue: z.number(), closed: z.number() };
export const pendencyJson = z.object({
  from: z.string(),
  to: z.string(),
  group: z.object({ _id: z.uuid(), name: z.string() }).nullable(),
  officers: z.array(
    z.object({
      officer: person.extend({ designation: z.string() }),
      group: z.object({ _id: z.uuid(), name: z.string() }).nullable(),
      ...counts,
      oldestSince: z.string().nullable(),
    }),
  ),
  groups: z.array(z.object({ group: z.object({ _id: z.uuid(), name: z.string() }).nullable(), ...counts })),
  oldest: z.array(
    z.object({
      letter: z.object({
        _id: z.uuid(),
        letterId: z.string(),
        letterSub: z.string(),
        classification: letterClassification,
      }),
      holder: person,
      since: z.string(),
      receivedAt: z.string().nullable(),
      dueDate: z.string().nullable(),
      priority: dakPriority,
      overdue: z.boolean(),
    }),
  ),
});
export type PendencyJson = z.infer<typeof pendencyJson>;
