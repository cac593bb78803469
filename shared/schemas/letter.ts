import { z } from 'zod';

import { type MessageCode, msg } from '#shared/messages/index.ts';

import { DAK_MAX_RECIPIENTS, DAK_PRIORITIES, LETTER_CLASSIFICATIONS } from '../constants.ts';
import { isoDate, pageQuery, plainText } from './common.ts';

/**
 * The letters register (spec §3 Letter, §5 Letters). All nine text and date fields are required; the spec gives no
 * words for them, so each message names the field as the form labels it (spec §2 Letters Manager): one code per
 * field (shared/messages/letters.ts), so each language words the field its own way.
 */
const requiredText = (required: MessageCode, tooLong: MessageCode, max = 300) =>
  plainText({ error: msg(required) })
    .min(1, msg(required))
    .max(max, msg(tooLong, { max }));

const requiredDate = (required: MessageCode, invalid: MessageCode) =>
  plainText({ error: msg(required) })
    .min(1, msg(required))
    // A full timestamp is cut to its date, as the Letters Manager does with a loaded letter (spec §4).
    .transform((v) => v.slice(0, 10))
    .pipe(isoDate(msg(invalid)));

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
  letterLanguage: requiredText('letters.language_required', 'letters.language_too_long', 100),
  letterCommunBy: requiredText('letters.communicated_by_required', 'letters.communicated_by_too_long'),
  docketDate: requiredDate('letters.docket_date_required', 'letters.docket_date_invalid'),
  letterDate: requiredDate('letters.letter_date_required', 'letters.letter_date_invalid'),
  letterNo: requiredText('letters.letter_no_required', 'letters.letter_no_too_long'),
  category: requiredText('letters.category_required', 'letters.category_too_long', 200),
  establishment: requiredText('letters.establishment_required', 'letters.establishment_too_long'),
  letterSub: requiredText('letters.subject_required', 'letters.subject_too_long', 1000),
  docketNo: requiredText('letters.docket_no_required', 'letters.docket_no_too_long'),
};

export const letterClassification = z.enum(LETTER_CLASSIFICATIONS, msg('letters.choose_classification'));
export type LetterClassification = z.infer<typeof letterClassification>;

/** POST /api/dac (multipart text fields): the nine fields and a classification, Normal unless chosen. */
export const createLetterInput = z.object({ ...letterFields, classification: letterClassification.default('Normal') });
export type CreateLetterInput = z.infer<typeof createLetterInput>;

/** PUT /api/dac/{id} (JSON): the nine fields; the classification stays as it is unless sent. */
export const updateLetterInput = z.object({ ...letterFields, classification: letterClassification.optional() });
export type UpdateLetterInput = z.infer<typeof updateLetterInput>;

/** The search box: case-insensitive, trimmed (spec §2 Letters & Correspondence). */
const searchText = plainText()
  .max(200, msg('letters.search_too_long', { max: 200 }))
  .default('');
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
  /** Whether the signed-in person may mark it (its uploader, a holder, a director or an admin; decision 020). */
  canMark: z.boolean(),
  /**
   * Where the letter is now (decision 099), to whoever may see the letter: who holds it (marked to them and not yet
   * received, or received), or who closed it when nobody holds it; null before it is first marked.
   */
  dak: z
    .object({
      holders: z.array(
        z.object({
          _id: z.uuid(),
          name: z.string(),
          designation: z.string(),
          status: z.enum(['pending', 'received']),
          markedAt: z.string(),
          receivedAt: z.string().nullable(),
        }),
      ),
      closed: z.object({ by: z.object({ _id: z.uuid(), name: z.string() }), at: z.string() }).nullable(),
    })
    .nullable(),
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
// Dak movement: marking, inbox, receipt, closing, sending back, pendency. docs/decisions/020-dak-movement.md

export const dakPriority = z.enum(DAK_PRIORITIES, msg('letters.choose_priority'));
export type DakPriority = z.infer<typeof dakPriority>;

const remarksText = (max = 2000) => plainText().max(max, msg('letters.remarks_too_long', { max }));
const optionalShortText = (tooLong: MessageCode) =>
  plainText()
    .max(300, msg(tooLong, { max: 300 }))
    .optional()
    .transform((v) => v || null);

/** POST /api/dac/{id}/movements: mark a letter to one or more officers. */
export const markLetterInput = z
  .object({
    to: z
      .array(
        // An upper-case UUID is the same officer: kept in lower case, as the database returns ids (decision 029).
        z.uuid(msg('letters.choose_officers_from_list')).transform((id) => id.toLowerCase()),
        { error: msg('letters.choose_officer') },
      )
      .min(1, msg('letters.choose_officer'))
      .max(DAK_MAX_RECIPIENTS, msg('letters.too_many_officers', { max: DAK_MAX_RECIPIENTS }))
      .refine((ids) => new Set(ids).size === ids.length, msg('letters.officer_chosen_twice')),
    /** Officers who get a copy "for information" only: they see it, may mark it seen, and do not hold it. */
    info: z
      .array(
        z.uuid(msg('letters.choose_officers_from_list')).transform((id) => id.toLowerCase()),
        { error: msg('letters.choose_officers_from_list') },
      )
      .max(DAK_MAX_RECIPIENTS, msg('letters.too_many_officers', { max: DAK_MAX_RECIPIENTS }))
      .refine((ids) => new Set(ids).size === ids.length, msg('letters.officer_chosen_twice'))
      .default([]),
    remarks: remarksText().default(''),
    dueDate: z
      .union([z.iso.date(msg('letters.due_date_invalid')), z.literal(''), z.null()])
      .optional()
      .transform((v) => v || null),
    priority: dakPriority.default('Normal'),
  })
  .refine((v) => !v.info.some((id) => v.to.includes(id)), {
    message: msg('letters.officer_action_and_info'),
    path: ['info'],
  });
export type MarkLetterInput = z.input<typeof markLetterInput>;

/** POST /api/dac/{id}/close: the disposal (action taken), and the file number and reply reference if any. */
export const closeLetterInput = z.object({
  disposal: plainText({ error: msg('letters.disposal_required') })
    .min(1, msg('letters.disposal_required'))
    .max(2000, msg('letters.disposal_too_long', { max: 2000 })),
  fileNo: optionalShortText('letters.file_no_too_long'),
  replyRef: optionalShortText('letters.reply_ref_too_long'),
});
export type CloseLetterInput = z.input<typeof closeLetterInput>;

/** POST /api/dac/{id}/return: send the letter back to whoever marked it, saying why. */
export const returnLetterInput = z.object({
  remarks: plainText({ error: msg('letters.send_back_reason_required') })
    .min(1, msg('letters.send_back_reason_required'))
    .max(2000, msg('letters.remarks_too_long', { max: 2000 })),
});
export type ReturnLetterInput = z.input<typeof returnLetterInput>;

export const MOVEMENT_STATUSES = ['pending', 'received', 'closed'] as const;
/**
 * The inbox's boxes: the three of a movement, the copies for information, and "Sent": the markings and
 * copies I made (or a delegate made for me), with what became of them (decision 099).
 */
export const INBOX_STATUSES = [...MOVEMENT_STATUSES, 'info', 'sent'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];
const flag = z
  .enum(['true', 'false'])
  .optional()
  .transform((v) => v === 'true');

/** GET /api/dac/inbox: the letters marked to me, one box at a time, newest marking first, with a cursor. */
export const inboxQuery = z.object({
  status: z.enum(INBOX_STATUSES, msg('letters.inbox_status_invalid')).default('pending'),
  cursor: z.string().max(200).optional(),
  q: searchText,
  priority: dakPriority.optional(),
  overdue: flag,
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

const person = z.object({ _id: z.uuid(), name: z.string() });

export const DAK_OUTCOMES = ['closed', 'forwarded', 'returned', 'pulled_back'] as const;
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
  status: z.enum(MOVEMENT_STATUSES),
  /** A copy for information (decision 079): not held, never received or closed; `readAt` is when it was seen. */
  forInformation: z.boolean(),
  /** A delegate who acted for the officer: marked for `from`, received for `to`, ended it for `to`. */
  markedBy: person.nullable(),
  receivedBy: person.nullable(),
  endedBy: person.nullable(),
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
export const inboxCountJson = z.object({
  pending: z.number(),
  unread: z.number(),
  overdue: z.number(),
  /** Of `overdue`, how many are in each box (decision 099: the summary says where they are). */
  overdueByBox: z.object({ pending: z.number(), received: z.number() }),
});
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
    from: isoDate(msg('letters.pendency_from_invalid')).optional(),
    to: isoDate(msg('letters.pendency_to_invalid')).optional(),
    groupId: z.uuid(msg('common.choose_group')).optional(),
  })
  .refine((v) => !v.from || !v.to || v.from <= v.to, {
    message: msg('letters.pendency_from_after_to'),
    path: ['from'],
  });
export type PendencyQuery = z.infer<typeof pendencyQuery>;

/** Letters held now by how long (India days since marked): 0–7, 8–15, 16–30, over 30. */
export const AGEING_BANDS = ['upTo7', 'upTo15', 'upTo30', 'over30'] as const;
export type AgeingBand = (typeof AGEING_BANDS)[number];
const ageing = z.object({ upTo7: z.number(), upTo15: z.number(), upTo30: z.number(), over30: z.number() });
const counts = { pending: z.number(), overdue: z.number(), closed: z.number(), ageing };
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

// ---------------------------------------------------------------------------------------------------------------
// Delegation of dak (decision 078): an officer (or an admin for them) names a delegate for some days.

/** POST /api/dac/delegations: the delegate and the dates (India, both included); an admin names the officer too. */
export const delegationInput = z
  .object({
    officerId: z
      .uuid(msg('letters.choose_officer_to_delegate'))
      .transform((id) => id.toLowerCase())
      .optional(),
    delegateId: z.uuid(msg('letters.choose_delegate')).transform((id) => id.toLowerCase()),
    fromDate: isoDate(msg('letters.delegation_from_invalid')),
    toDate: isoDate(msg('letters.delegation_to_invalid')),
  })
  .refine((v) => v.fromDate <= v.toDate, { message: msg('letters.delegation_from_after_to'), path: ['toDate'] });
export type DelegationInput = z.input<typeof delegationInput>;

/** GET /api/dac/delegations: an admin may ask for another officer's. */
export const delegationsQuery = z.object({
  officerId: z
    .uuid(msg('letters.choose_officer_to_delegate'))
    .transform((id) => id.toLowerCase())
    .optional(),
});

export const delegationJson = z.object({
  _id: z.uuid(),
  officer: person,
  delegate: person,
  fromDate: z.string(),
  toDate: z.string(),
  createdBy: person.nullable(),
  createdAt: z.string(),
  endedAt: z.string().nullable(),
  /** Running today (India): within its dates and not ended. */
  active: z.boolean(),
});
export type DelegationJson = z.infer<typeof delegationJson>;

/** The officer's delegations not yet over (given), and those naming the actor as delegate (received). */
export const delegationsJson = z.object({
  officer: person,
  given: z.array(delegationJson),
  received: z.array(delegationJson),
});
export type DelegationsJson = z.infer<typeof delegationsJson>;
