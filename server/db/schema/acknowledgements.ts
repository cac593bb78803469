import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgEnum, pgTable, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

import { id, oneOwner } from './common.ts';
import { groupItems, groups, labItems } from './labs.ts';
import { roleEnum, users } from './users.ts';

/** Who must acknowledge: every approved person, the members of some groups, or the holders of some roles. */
export const acknowledgementScopeEnum = pgEnum('acknowledgement_scope', ['lab', 'groups', 'roles']);

/**
 * A notice or circular published with "requires acknowledgement" (decision 073): one per item, gone
 * with its item (cascade). The audience is fixed at publishing (the rows of `acknowledgements`); people who join it
 * later are added by the trigger on users (migration 0028) with `span_days` counted from the day they join.
 */
export const acknowledgementRequests = pgTable(
  'acknowledgement_requests',
  {
    id: id(),
    labItemId: uuid().references(() => labItems.id, { onDelete: 'cascade' }),
    groupItemId: uuid().references(() => groupItems.id, { onDelete: 'cascade' }),
    /** The deadline of those in the audience at publishing (YYYY-MM-DD). */
    deadline: date().notNull(),
    /** Deadline minus the publishing day (India): a joiner's due date is the day they join plus this. */
    spanDays: integer().notNull(),
    scope: acknowledgementScopeEnum().notNull(),
    /** scope groups: the chosen groups; a group item (any scope): its own group, within which the audience lies. */
    audienceGroups: uuid()
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** scope roles: the chosen roles. */
    audienceRoles: roleEnum()
      .array()
      .notNull()
      .default(sql`'{}'::role[]`),
    publishedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    publishedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('acknowledgement_requests_lab_item_idx').on(t.labItemId),
    uniqueIndex('acknowledgement_requests_group_item_idx').on(t.groupItemId),
    index('acknowledgement_requests_published_idx').on(t.publishedAt, t.id),
    index('acknowledgement_requests_publisher_idx').on(t.publishedBy, t.publishedAt),
    check('acknowledgement_requests_one_item', oneOwner(t.labItemId, t.groupItemId)),
  ],
);

/**
 * One person of a request's audience (decision 074): their due date, when they opened the document and when they
 * acknowledged it. `group_id` is their group when they were added: the report counts them there.
 */
export const acknowledgements = pgTable(
  'acknowledgements',
  {
    id: id(),
    requestId: uuid()
      .notNull()
      .references(() => acknowledgementRequests.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    groupId: uuid().references(() => groups.id, { onDelete: 'set null' }),
    dueOn: date().notNull(),
    /** Publishing, or when they joined the audience. */
    addedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    openedAt: timestamp({ withTimezone: true }),
    acknowledgedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('acknowledgements_request_user_idx').on(t.requestId, t.userId),
    // The badge (count) and the "To acknowledge" list: a person's pending rows by due date.
    index('acknowledgements_user_pending_idx')
      .on(t.userId, t.dueOn)
      .where(sql`${t.acknowledgedAt} is null`),
    // The person's acknowledged list, newest first.
    index('acknowledgements_user_done_idx')
      .on(t.userId, t.acknowledgedAt)
      .where(sql`${t.acknowledgedAt} is not null`),
    // The report's per-group counts and the request list's totals: read from the index alone.
    index('acknowledgements_request_group_idx').on(t.requestId, t.groupId, t.dueOn, t.acknowledgedAt),
    // Who has not acknowledged, overdue first (due date order), optionally of one group.
    index('acknowledgements_request_pending_idx')
      .on(t.requestId, t.dueOn)
      .where(sql`${t.acknowledgedAt} is null`),
    // A group head's requests: those with a row of their group.
    index('acknowledgements_group_request_idx').on(t.groupId, t.requestId),
    // The daily reminders: pending rows by due date.
    index('acknowledgements_pending_due_idx')
      .on(t.dueOn)
      .where(sql`${t.acknowledgedAt} is null`),
  ],
);

export type AcknowledgementRequestRow = typeof acknowledgementRequests.$inferSelect;
export type AcknowledgementRow = typeof acknowledgements.$inferSelect;
