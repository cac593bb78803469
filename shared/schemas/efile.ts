import { z } from 'zod';

import { DAK_MAX_RECIPIENTS, DOCUMENT_CLASSIFICATIONS } from '../constants.ts';
import { msg } from '../messages/index.ts';
import { pageQuery, plainText } from './common.ts';
import { noteBody } from './efile-note.ts';
import { dakPriority } from './letter.ts';

/** e-Files (decision 107): the API's inputs and answers. Routes under /api/efiles. */
export const EFILE_BOXES = ['with_me', 'created', 'sent', 'parked', 'closed', 'copies'] as const;
export type EfileBox = (typeof EFILE_BOXES)[number];
export const EFILE_STATES = ['open', 'parked', 'closed'] as const;
export const EFILE_MOVEMENT_KINDS = [
  'created',
  'sent',
  'returned',
  'pulled_back',
  'parked',
  'resumed',
  'closed',
  'reopened',
] as const;
export const EFILE_SUBJECT_MAX = 500;
export const EFILE_ROUTE_MAX = 20;
const REMARKS_MAX = 2000;

const officerId = z.uuid(msg('letters.choose_officers_from_list')).transform((id) => id.toLowerCase());
const remarks = plainText()
  .max(REMARKS_MAX, msg('letters.remarks_too_long', { max: REMARKS_MAX }))
  .default('');
const route = z
  .array(officerId, { error: msg('letters.choose_officers_from_list') })
  .max(EFILE_ROUTE_MAX, msg('efiles.route_too_long', { max: EFILE_ROUTE_MAX }));

export const efileClassification = z.enum(DOCUMENT_CLASSIFICATIONS, msg('close_groups.choose_classification'));

/** POST /api/efiles: open a file (from a letter: `letterId` becomes C/1). */
export const createEfileInput = z.object({
  subject: plainText({ error: msg('efiles.subject_required') })
    .min(1, msg('efiles.subject_required'))
    .max(EFILE_SUBJECT_MAX, msg('efiles.subject_too_long', { max: EFILE_SUBJECT_MAX })),
  headId: z.uuid(msg('efiles.head_required')),
  classification: efileClassification.default('Unclassified'),
  ownerGroupId: z.uuid(msg('efiles.owner_group_not_found')).optional(),
  letterId: z.uuid(msg('common.invalid_id')).optional(),
  route: route.default([]),
});
export type CreateEfileInput = z.input<typeof createEfileInput>;

export const noteInput = z.object({ body: noteBody });
export type NoteInput = z.input<typeof noteInput>;

/** POST /api/efiles/{id}/send: to one officer, with copies for information, remarks, a due date and a priority. */
export const sendEfileInput = z.object({
  to: z.uuid({ error: msg('efiles.choose_officer') }).transform((id) => id.toLowerCase()),
  copies: z
    .array(officerId, { error: msg('letters.choose_officers_from_list') })
    .max(DAK_MAX_RECIPIENTS, msg('efiles.route_too_long', { max: DAK_MAX_RECIPIENTS }))
    .refine((ids) => new Set(ids).size === ids.length, msg('letters.officer_chosen_twice'))
    .default([]),
  remarks,
  dueDate: z
    .union([z.iso.date(msg('efiles.due_date_invalid')), z.literal(''), z.null()])
    .optional()
    .transform((v) => v || null),
  priority: dakPriority.default('Normal'),
  /** The rest of the intended route after this officer, when the sender changes it. */
  route: route.optional(),
});
export type SendEfileInput = z.input<typeof sendEfileInput>;

export const remarksInput = z.object({ remarks });
export const routeInput = z.object({ route });
export const putLetterInput = z.object({ letterId: z.uuid(msg('common.invalid_id')) });

/** GET /api/efiles: one box of My files a page at a time, by a keyset cursor (server/lib/cursor.ts). */
export const efileListQuery = pageQuery.pick({ limit: true }).extend({
  box: z.enum(EFILE_BOXES).default('with_me'),
  cursor: z.string().max(200).optional(),
});
export const efileSearchQuery = z.object({
  q: plainText().min(2, msg('efiles.search_too_short')).max(200),
});

/** PUT /api/efiles/settings (admins): the numbering scheme and the lab's code. */
export const efileSettingsInput = z.object({
  numberScheme: plainText()
    .max(200)
    .refine((s) => !/\{(?!(lab|group|head|year|serial)\})[^}]*\}/.test(s), msg('efiles.scheme_unknown_place'))
    .refine((s) => ['{group}', '{year}', '{serial}'].every((p) => s.includes(p)), msg('efiles.scheme_incomplete')),
  labCode: plainText().regex(/^[A-Za-z0-9-]{1,20}$/, msg('efiles.lab_code_required')),
});
export const efileHeadInput = z.object({
  code: plainText().regex(/^[A-Za-z0-9-]{1,20}$/, msg('efiles.head_code_invalid')),
  name: plainText({ error: msg('efiles.head_name_required') })
    .min(1, msg('efiles.head_name_required'))
    .max(200),
});

const person = z.object({ _id: z.uuid(), name: z.string(), designation: z.string() });

export const efileSummaryJson = z.object({
  _id: z.uuid(),
  number: z.string(),
  subject: z.string(),
  classification: efileClassification,
  state: z.enum(EFILE_STATES),
  head: z.object({ code: z.string(), name: z.string() }),
  holder: person,
  /** Sent to the holder and not yet received by them. */
  inTransit: z.boolean(),
  movedAt: z.string(),
  createdAt: z.string(),
});
export type EfileSummaryJson = z.infer<typeof efileSummaryJson>;
/** A page of a box: its files, and the cursor of the next page (null at the end). */
export const efilePageJson = z.object({ files: z.array(efileSummaryJson), nextCursor: z.string().nullable() });
export type EfilePageJson = z.infer<typeof efilePageJson>;

export const efileNoteJson = z.object({
  _id: z.uuid(),
  ref: z.string(),
  seq: z.number(),
  body: noteBody,
  author: z.object({ _id: z.uuid().nullable(), name: z.string(), designation: z.string() }),
  createdAt: z.string(),
  updatedAt: z.string(),
  permanent: z.boolean(),
  edited: z.boolean(),
  canEdit: z.boolean(),
});
export type EfileNoteJson = z.infer<typeof efileNoteJson>;

export const efileItemJson = z.object({
  _id: z.uuid(),
  ref: z.string(),
  seq: z.number(),
  title: z.string(),
  kind: z.enum(['letter', 'document']),
  letter: z.object({ _id: z.uuid(), letterId: z.string() }).nullable(),
  /** The stored file to open in the viewer (GET /uploads/{area}/{id}). */
  fileUrl: z.string().nullable(),
  addedAt: z.string(),
});
export type EfileItemJson = z.infer<typeof efileItemJson>;

export const efileJson = efileSummaryJson.extend({
  ownerGroup: z.object({ _id: z.uuid(), name: z.string() }),
  creator: person,
  route: z.array(person),
  notes: z.array(efileNoteJson),
  items: z.array(efileItemJson),
  /** What the reader may do now. */
  can: z.object({
    act: z.boolean(),
    receive: z.boolean(),
    pullBack: z.boolean(),
    close: z.boolean(),
    reopen: z.boolean(),
    resume: z.boolean(),
    copyOnly: z.boolean(),
  }),
});
export type EfileJson = z.infer<typeof efileJson>;

export const efileMovementJson = z.object({
  _id: z.uuid(),
  kind: z.enum(EFILE_MOVEMENT_KINDS),
  from: person.nullable(),
  to: person.nullable(),
  remarks: z.string(),
  dueDate: z.string().nullable(),
  priority: dakPriority,
  at: z.string(),
  receivedAt: z.string().nullable(),
});
export type EfileMovementJson = z.infer<typeof efileMovementJson>;

export const noteVersionJson = z.object({ editor: z.string(), body: noteBody, at: z.string() });
export const efileHeadJson = z.object({ _id: z.uuid(), code: z.string(), name: z.string(), active: z.boolean() });
export const efileSettingsJson = z.object({ numberScheme: z.string(), labCode: z.string() });
export const letterInFileJson = z.object({ efile: z.object({ _id: z.uuid(), number: z.string() }).nullable() });

/** GET /api/efiles/pendency (decision 121): per officer, the files with them now and those they closed in a period. */
export const efilePendencyJson = z.object({
  from: z.string(),
  to: z.string(),
  group: z.object({ _id: z.uuid(), name: z.string() }).nullable(),
  officers: z.array(
    z.object({
      officer: person,
      group: z.object({ _id: z.uuid(), name: z.string() }).nullable(),
      /** With them now (open or parked), of which in transit to them, parked, and past the due date. */
      held: z.number(),
      inTransit: z.number(),
      parked: z.number(),
      overdue: z.number(),
      closed: z.number(),
      oldestSince: z.string().nullable(),
    }),
  ),
});
export type EfilePendencyJson = z.infer<typeof efilePendencyJson>;
