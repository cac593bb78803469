import { z } from 'zod';

import { msg } from '../messages/index.ts';
import { plainText } from './common.ts';
import { sendEfileInput } from './efile.ts';
import { noteBody } from './efile-note.ts';

/**
 * Drafts for approval on e-files (decision 122): the API's inputs and answers, under /api/efiles/{id}/drafts. A draft's
 * rich text is a note's structure (decision 107): validated here, never kept as markup.
 */
export const DRAFT_TITLE_MAX = 300;
export const DRAFT_NOTE_MAX = 2000;
export const DRAFT_STATES = ['draft', 'put_up', 'changes_asked', 'approved'] as const;
export type DraftState = (typeof DRAFT_STATES)[number];
export const DRAFT_KINDS = ['text', 'docx', 'pdf'] as const;
/** What an uploaded draft may be. */
export const DRAFT_FILE_EXTENSIONS = ['docx', 'pdf'] as const;

export const draftTitle = plainText({ error: msg('drafts.title_required') })
  .min(1, msg('drafts.title_required'))
  .max(DRAFT_TITLE_MAX, msg('drafts.title_too_long', { max: DRAFT_TITLE_MAX }));

/** POST /api/efiles/{id}/drafts: a rich-text draft, its v1. */
export const draftInput = z.object({ title: draftTitle, body: noteBody });
export type DraftInput = z.input<typeof draftInput>;
/** The multipart fields of POST /api/efiles/{id}/drafts/upload (the file is `document`). */
export const draftUploadFields = z.object({ title: draftTitle });
/** POST /api/efiles/{id}/drafts/{draftId}/versions: a new rich-text version. */
export const draftVersionInput = z.object({ body: noteBody });
/** POST …/put-up: the file goes to the approver, as a sending does (to, remarks, due date, priority). */
export const putUpInput = sendEfileInput.pick({ to: true, remarks: true, dueDate: true, priority: true });
export type PutUpInput = z.input<typeof putUpInput>;
/** POST …/ask-changes: what should change (the file goes back to the draft's author). */
export const askChangesInput = z.object({
  note: plainText({ error: msg('drafts.changes_note_required') })
    .min(1, msg('drafts.changes_note_required'))
    .max(DRAFT_NOTE_MAX, msg('drafts.changes_note_too_long', { max: DRAFT_NOTE_MAX })),
});
/** POST …/approve: sealed by the lab; `personal` adds the approver's own signature through the signer helper. */
export const approveInput = z.object({ personal: z.boolean().default(false) });

export const draftParams = z.object({
  id: z.uuid(msg('common.invalid_id')),
  draftId: z.uuid(msg('common.invalid_id')),
});
export const draftVersionParams = draftParams.extend({
  version: z.coerce
    .number(msg('drafts.version_not_found'))
    .int(msg('drafts.version_not_found'))
    .min(1, msg('drafts.version_not_found'))
    .max(100_000, msg('drafts.version_not_found')),
});

const who = z.object({ _id: z.uuid().nullable(), name: z.string() });

export const draftVersionJson = z.object({
  version: z.number(),
  kind: z.enum(DRAFT_KINDS),
  body: noteBody.nullable(),
  author: who,
  createdAt: z.string(),
  /** The version as a PDF (rich text drawn, a PDF as uploaded, a .docx's PDF copy): GET …/versions/{n}/pdf. */
  pdfUrl: z.string(),
  /** An uploaded version's own file (GET /uploads/efiles/{id}). */
  fileUrl: z.string().nullable(),
  fileName: z.string().nullable(),
});
export type DraftVersionJson = z.infer<typeof draftVersionJson>;

export const draftJson = z.object({
  _id: z.uuid(),
  ref: z.string(),
  seq: z.number(),
  title: z.string(),
  state: z.enum(DRAFT_STATES),
  author: who,
  approver: who.nullable(),
  changesNote: z.string(),
  approvedBy: who.nullable(),
  approvedAt: z.string().nullable(),
  /** The approved, signed PDF on the correspondence side. */
  item: z.object({ _id: z.uuid(), ref: z.string(), fileUrl: z.string().nullable() }).nullable(),
  versions: z.array(draftVersionJson),
  /** What the reader may do now. */
  can: z.object({ newVersion: z.boolean(), putUp: z.boolean(), decide: z.boolean() }),
});
export type DraftJson = z.infer<typeof draftJson>;

/** GET …/versions/{n}/diff: the words of version n against n − 1 (v1 against nothing). */
export const draftDiffJson = z.object({
  version: z.number(),
  against: z.number().nullable(),
  /** False when either side is an uploaded file: its text is not compared (open both PDFs). */
  comparable: z.boolean(),
  parts: z.array(z.object({ value: z.string(), added: z.boolean(), removed: z.boolean() })),
});
export type DraftDiffJson = z.infer<typeof draftDiffJson>;
