import { index, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

import { createdAt, id, updatedAt } from './common.ts';
import { users } from './users.ts';

export const sitePageKeyEnum = pgEnum('site_page_key', ['terms', 'privacy']);

/**
 * The site pages an admin edits (Terms of use, Privacy policy), in English and Hindi (decision 019). A page with no
 * row shows its default text (server/modules/site/default-pages.ts).
 */
export const sitePages = pgTable('site_pages', {
  key: sitePageKeyEnum().primaryKey(),
  bodyEn: text().notNull(),
  bodyHi: text().notNull(),
  updatedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
  updatedAt: updatedAt(),
});

export const feedbackCategoryEnum = pgEnum('feedback_category', [
  'question',
  'suggestion',
  'problem',
  'accessibility',
  'other',
]);
export const feedbackStatusEnum = pgEnum('feedback_status', ['new', 'answered', 'closed']);

/** Feedback sent by staff or visitors from the Feedback page; admins read, answer and mark it (decision 019). */
export const feedback = pgTable(
  'feedback',
  {
    id: id(),
    name: text().notNull(),
    email: text().notNull(),
    category: feedbackCategoryEnum().notNull(),
    subject: text().notNull(),
    message: text().notNull(),
    /** The signed-in sender, when there was one (a visitor has none). */
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    status: feedbackStatusEnum().notNull().default('new'),
    reply: text().notNull().default(''),
    repliedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    repliedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('feedback_status_idx').on(t.status, t.createdAt),
    index('feedback_created_idx').on(t.createdAt),
    index('feedback_user_idx').on(t.userId, t.createdAt),
  ],
);

export type SitePageRow = typeof sitePages.$inferSelect;
export type FeedbackRow = typeof feedback.$inferSelect;
