import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

import { id } from './common.ts';
import { users } from './users.ts';

/** Every write a user makes: who, what, on which record, when (spec §3 Activity log). */
export const activityLogs = pgTable(
  'activity_logs',
  {
    id: id(),
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    /** The English sentence (the logs search reads it). */
    action: text().notNull(),
    /** The action's code in the activity catalogue and its parameters (decision 060); null on rows written before. */
    code: text(),
    params: jsonb().$type<Record<string, unknown>>(),
    targetType: text(),
    targetId: uuid(),
    timestamp: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('activity_logs_timestamp_idx').on(t.timestamp),
    index('activity_logs_user_idx').on(t.userId, t.timestamp),
    // Logs search: the action contains the text (pg_trgm, migration 0001).
    index('activity_logs_action_trgm_idx').using('gin', t.action.op('gin_trgm_ops')),
  ],
);
