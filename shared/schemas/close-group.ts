import { z } from 'zod';

import { DOCUMENT_CLASSIFICATIONS, MAX_PAGE_SIZE } from '../constants.ts';
import { UNSAFE_NAME_CHARS } from '../format.ts';
import { msg } from '../messages/index.ts';
import { DATE_RANGE_MESSAGE, inDateRange, plainText } from './common.ts';

/** Messages of spec §5 Close group, checked by the admin form and the route alike. */
export const CLOSE_GROUP_MESSAGES = {
  groupNameRequired: msg('close_groups.group_name_required'),
  groupPurposeRequired: msg('close_groups.group_purpose_required'),
  durationRequired: msg('close_groups.duration_required'),
  startAfterEnd: msg('close_groups.start_after_end'),
  requestedByRequired: msg('close_groups.requested_by_required'),
  fileRequired: msg('close_groups.file_required'),
  newFilenameRequired: msg('close_groups.new_filename_required'),
  newFilenameSame: msg('close_groups.new_filename_same'),
} as const;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A YYYY-MM-DD date that exists on the calendar (2026-02-30 does not). */
const isCalendarDate = (v: string) => ISO_DATE.test(v) && new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) === v;

/** A date of the duration: '' or null counts as missing, so both dates share the spec's one message. */
const durationDate = z
  .union([plainText(), z.null()])
  .optional()
  .transform((v) => v ?? '');

/** groupDuration {from, to}: both required, real dates, start not after end (spec §5 Close group). */
export const groupDurationInput = z
  .object({ from: durationDate, to: durationDate }, { error: CLOSE_GROUP_MESSAGES.durationRequired })
  .superRefine((d, ctx) => {
    if (!d.from || !d.to) {
      ctx.addIssue({ code: 'custom', message: CLOSE_GROUP_MESSAGES.durationRequired, path: [d.from ? 'to' : 'from'] });
      return;
    }
    for (const key of ['from', 'to'] as const) {
      if (!isCalendarDate(d[key])) ctx.addIssue({ code: 'custom', message: msg('common.date_invalid'), path: [key] });
      else if (!inDateRange(d[key])) ctx.addIssue({ code: 'custom', message: DATE_RANGE_MESSAGE, path: [key] });
    }
    if (isCalendarDate(d.from) && isCalendarDate(d.to) && d.from > d.to) {
      ctx.addIssue({ code: 'custom', message: CLOSE_GROUP_MESSAGES.startAfterEnd, path: ['from'] });
    }
  })
  .transform((d) => ({ from: d.from, to: d.to }));

/** Body of POST and PUT /admin/close-group[/{id}] (spec §7 Admin). */
export const closeGroupInput = z.object({
  groupName: plainText(CLOSE_GROUP_MESSAGES.groupNameRequired)
    .min(1, CLOSE_GROUP_MESSAGES.groupNameRequired)
    .max(200, msg('close_groups.group_name_too_long')),
  groupPurpose: plainText(CLOSE_GROUP_MESSAGES.groupPurposeRequired)
    .min(1, CLOSE_GROUP_MESSAGES.groupPurposeRequired)
    .max(5000, msg('close_groups.group_purpose_too_long')),
  groupDuration: z.preprocess((v) => v ?? {}, groupDurationInput),
  requestedBy: z
    .array(z.uuid(msg('close_groups.choose_users_from_list')), CLOSE_GROUP_MESSAGES.requestedByRequired)
    .min(1, CLOSE_GROUP_MESSAGES.requestedByRequired)
    .max(200, msg('close_groups.too_many_members'))
    .transform((ids) => [...new Set(ids)]),
  adminRemarks: plainText()
    .max(5000, msg('close_groups.admin_remarks_too_long'))
    .nullish()
    .transform((v) => v ?? ''),
});
export type CloseGroupInput = z.input<typeof closeGroupInput>;
export type CloseGroupValues = z.output<typeof closeGroupInput>;

/** Body of PUT /api/close-groups/{id}/documents/{docId} (spec §5: required, and different from the current name). */
export const renameDocumentInput = z.object({
  // A file name with a bidi control is refused, as control characters are, not quietly changed (decision 049).
  newFilename: z
    .string(CLOSE_GROUP_MESSAGES.newFilenameRequired)
    .trim()
    .min(1, CLOSE_GROUP_MESSAGES.newFilenameRequired)
    .max(200, msg('close_groups.filename_too_long'))
    .refine(
      (v) => !/[/\\]/.test(v) && !new RegExp(UNSAFE_NAME_CHARS.source).test(v),
      msg('close_groups.filename_unsafe'),
    ),
});
export type RenameDocumentInput = z.infer<typeof renameDocumentInput>;

/** A close-group document's classification (decision 072). */
export const documentClassification = z.enum(DOCUMENT_CLASSIFICATIONS, msg('close_groups.choose_classification'));
export type DocumentClassification = z.infer<typeof documentClassification>;

/** POST /api/close-groups/{id}/upload's text fields (multipart, beside the file `document`): Unclassified unless chosen. */
export const uploadDocumentFields = z.object({ classification: documentClassification.default('Unclassified') });

/** Body of PUT /api/close-groups/{id}/documents/{docId}/classification: the uploader or an admin (decision 072). */
export const classifyDocumentInput = z.object({ classification: documentClassification });
export type ClassifyDocumentInput = z.infer<typeof classifyDocumentInput>;

/** ".pdf" of "minutes.pdf"; '' when the name has none (".profile" has none either, as path.extname says). */
const extensionOf = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot) : '';
};

/**
 * The name a rename gives: the typed name, keeping the file's extension so that the download still opens with the
 * right program ("Final" for "draft.pdf" becomes "Final.pdf"). The form and the route both use it to tell whether
 * the new name is the same as the current one.
 */
export function renamedFilename(current: string, typed: string): string {
  const ext = extensionOf(current);
  if (!ext || extensionOf(typed).toLowerCase() === ext.toLowerCase()) return typed;
  return `${typed}${ext}`;
}

/** Where a close group stands against its duration today (India time); only 'active' lets members write. */
export const CLOSE_GROUP_STATUSES = ['upcoming', 'active', 'ended'] as const;
export type CloseGroupStatus = (typeof CLOSE_GROUP_STATUSES)[number];

const personJson = z.object({ _id: z.uuid(), name: z.string(), email: z.string() });

/** A shared document (spec §3 Close group documents). `url` opens it for members and admins only. */
export const closeGroupDocumentJson = z.object({
  _id: z.uuid(),
  filename: z.string(),
  url: z.string(),
  size: z.number(),
  uploadedBy: z.object({ _id: z.uuid(), name: z.string() }).nullable(),
  uploadedAt: z.string(),
  /** Unclassified, Restricted, Confidential or Secret (decision 072). */
  classification: documentClassification,
  /** May the signed-in user rename or delete it now (uploader or admin, and the group is open to them). */
  canChange: z.boolean(),
});
export type CloseGroupDocumentJson = z.infer<typeof closeGroupDocumentJson>;

/** A close group as the API shows it (spec §3 Close group), with the server's view of its time box. */
export const closeGroupJson = z.object({
  _id: z.uuid(),
  groupName: z.string(),
  groupPurpose: z.string(),
  groupDuration: z.object({ from: z.string(), to: z.string() }),
  requestedBy: z.array(personJson),
  adminRemarks: z.string(),
  status: z.enum(CLOSE_GROUP_STATUSES),
  /** May the signed-in user add documents now. */
  canUpload: z.boolean(),
  documents: z.array(closeGroupDocumentJson),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CloseGroupJson = z.infer<typeof closeGroupJson>;

/** A user offered in the Requested By picker. */
export const closeGroupUserOptionJson = personJson;
export type CloseGroupUserOptionJson = z.infer<typeof closeGroupUserOptionJson>;

/**
 * GET /admin/close-group and /api/close-groups/mine: without limit/offset the whole list as an array (spec §7); with
 * either, a page {items, total} (the same convention as GET /api/users).
 */
export const closeGroupListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});
export type CloseGroupListQuery = z.input<typeof closeGroupListQuery>;
