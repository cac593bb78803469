import { z } from 'zod';
import { plainText } from './common.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants.ts';

// The site pages GIGW 3.0 asks for (issue 16 item 9): Terms of use and Privacy policy (text an admin edits), Feedback
// (a form staff and visitors send, admins answer), and the Archive of expired notices and circulars (item 11).

const requiredText = (message: string, max: number) => plainText({ error: message }).min(1, message).max(max);

// ---- Terms of use and Privacy policy ----------------------------------------------------------------------------

export const SITE_PAGE_KEYS = ['terms', 'privacy'] as const;
export type SitePageKey = (typeof SITE_PAGE_KEYS)[number];
export const sitePageParams = z.object({ key: z.enum(SITE_PAGE_KEYS, 'No such page.') });

/** An admin's edit of a page: both languages, plain text with blank lines between paragraphs. */
export const updateSitePageInput = z.object({
  en: requiredText('The English text is required.', 50000),
  hi: requiredText('The Hindi text is required.', 50000),
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

export const FEEDBACK_MESSAGES = {
  name: 'Please enter your name.',
  email: 'Please enter a valid email address.',
  category: 'Please choose what your feedback is about.',
  subject: 'Please enter a subject.',
  message: 'Please write your feedback.',
  replyNeeded: 'Please write a reply before marking the feedback answered.',
  notFound: 'Feedback not found.',
} as const;

/** The Feedback form (staff and visitors alike). */
export const feedbackInput = z.object({
  name: requiredText(FEEDBACK_MESSAGES.name, 200),
  email: plainText({ error: FEEDBACK_MESSAGES.email }).toLowerCase().pipe(z.email(FEEDBACK_MESSAGES.email)),
  category: z.enum(FEEDBACK_CATEGORIES, FEEDBACK_MESSAGES.category),
  subject: requiredText(FEEDBACK_MESSAGES.subject, 200),
  message: requiredText(FEEDBACK_MESSAGES.message, 5000),
});
export type FeedbackInput = z.input<typeof feedbackInput>;

/** An admin's answer: the status, and a reply (required to mark it answered). */
export const answerFeedbackInput = z
  .object({
    status: z.enum(FEEDBACK_STATUSES, 'Please choose a status.'),
    reply: plainText().max(5000).default(''),
  })
  .refine((v) => v.status !== 'answered' || v.reply !== '', {
    message: FEEDBACK_MESSAGES.replyNeeded,
    path: ['reply'],
  });
export type AnswerFeedbackInput = z.input<typeof answerFeedbackInput>;

export const feedbackListQuery = z.object({
  status: z.enum(FEEDBACK_STATUSES, 'Please choose a status.').optional(),
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
