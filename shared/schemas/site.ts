import { z } from 'zod';

import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants.ts';
import { msg } from '../messages/index.ts';
import { plainText } from './common.ts';

// The site pages GIGW 3.0 asks for (decision 019): Terms of use and Privacy policy (text an admin edits), Feedback
// (a form staff and visitors send, admins answer), and the Archive of expired notices and circulars (item 11).

const requiredText = (message: string, max: number) => plainText({ error: message }).min(1, message).max(max);

// ---- Terms of use and Privacy policy ----------------------------------------------------------------------------

export const SITE_PAGE_KEYS = ['terms', 'privacy'] as const;
export type SitePageKey = (typeof SITE_PAGE_KEYS)[number];
export const sitePageParams = z.object({ key: z.enum(SITE_PAGE_KEYS, msg('site.page_not_found')) });

/** An admin's edit of a page: both languages, plain text with blank lines between paragraphs. */
export const updateSitePageInput = z.object({
  en: requiredText(msg('site.english_required'), 50000),
  hi: requiredText(msg('site.hindi_required'), 50000),
});
export type UpdateSitePageInput = z.input<typeof updateSitePageInput>;

export const sitePageJson = z.object({
  key: z.enum(SITE_PAGE_KEYS),
  en: z.string(),
  hi: z.string(),
  /** When an admin last saved it; null while the default text is shown. */
  updatedAt: z.string().nullable(),
  isDefault: z.boolean(),
});
export type SitePageJson = z.infer<typeof sitePageJson>;

// ---- Feedback -----------------------------------------------------------------------------------------------------

export const FEEDBACK_CATEGORIES = ['question', 'suggestion', 'problem', 'accessibility', 'other'] as const;
export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number];
export const FEEDBACK_STATUSES = ['new', 'answered', 'closed'] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

/** The Feedback form (staff and visitors alike). */
export const feedbackInput = z.object({
  name: requiredText(msg('site.feedback_name_required'), 200),
  email: plainText({ error: msg('site.feedback_email_invalid') })
    .toLowerCase()
    .pipe(z.email(msg('site.feedback_email_invalid'))),
  category: z.enum(FEEDBACK_CATEGORIES, msg('site.feedback_category_required')),
  subject: requiredText(msg('site.feedback_subject_required'), 200),
  message: requiredText(msg('site.feedback_message_required'), 5000),
});
export type FeedbackInput = z.input<typeof feedbackInput>;

/** An admin's answer: the status, and a reply (required to mark it answered). */
export const answerFeedbackInput = z
  .object({
    status: z.enum(FEEDBACK_STATUSES, msg('site.feedback_status_invalid')),
    reply: plainText().max(5000).default(''),
  })
  .refine((v) => v.status !== 'answered' || v.reply !== '', {
    message: msg('site.feedback_reply_required'),
    path: ['reply'],
  });
export type AnswerFeedbackInput = z.input<typeof answerFeedbackInput>;

export const feedbackListQuery = z.object({
  status: z.enum(FEEDBACK_STATUSES, msg('site.feedback_status_invalid')).optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).default(0),
});
export type FeedbackListQuery = z.input<typeof feedbackListQuery>;

const personJson = z.object({ _id: z.uuid(), name: z.string() });
export const feedbackJson = z.object({
  _id: z.uuid(),
  name: z.string(),
  email: z.string(),
  category: z.enum(FEEDBACK_CATEGORIES),
  subject: z.string(),
  message: z.string(),
  status: z.enum(FEEDBACK_STATUSES),
  reply: z.string(),
  repliedAt: z.string().nullable(),
  repliedBy: personJson.nullable(),
  /** The signed-in sender; null for a visitor. */
  user: personJson.nullable(),
  createdAt: z.string(),
});
export type FeedbackJson = z.infer<typeof feedbackJson>;
export const feedbackPageJson = z.object({ items: z.array(feedbackJson), total: z.number().int() });
export type FeedbackPageJson = z.infer<typeof feedbackPageJson>;

// ---- Archive of expired notices and circulars (item 11) ---------------------------------------------------------

export const archiveItemJson = z.object({
  _id: z.uuid(),
  kind: z.enum(['notice', 'circular']),
  name: z.string(),
  description: z.string(),
  fileUrl: z.string().nullable(),
  fileName: z.string().nullable(),
  validUntil: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Whose notice it is: the lab's, or a group's (shown only to those who may see the group). */
  source: z.object({ type: z.enum(['lab', 'group']), _id: z.uuid(), name: z.string() }),
});
export type ArchiveItemJson = z.infer<typeof archiveItemJson>;

/** Expired notices and circulars by the year they expired, newest year first. */
export const archiveJson = z.object({
  years: z.array(z.object({ year: z.number().int(), items: z.array(archiveItemJson) })),
});
export type ArchiveJson = z.infer<typeof archiveJson>;
