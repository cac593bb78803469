import { bigint, index, integer, pgTable, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';

import { users } from './users.ts';

/**
 * Counters of rate-limiter-flexible's RateLimiterPostgres (sign-in failures, registrations per address): its own
 * table layout, created here so that migrations own it (decision 014). `expire` is milliseconds since 1970.
 */
export const rateLimits = pgTable('rate_limits', {
  key: varchar({ length: 255 }).primaryKey(),
  points: integer().notNull().default(0),
  expire: bigint({ mode: 'number' }),
});

/**
 * Sessions ended before their token expires (sign-out): a token whose `sid` is here is refused. A row is needed only
 * until the token would have expired anyway, so rows past `expiresAt` are deleted (decision 047).
 */
export const revokedSessions = pgTable(
  'revoked_sessions',
  {
    id: uuid().primaryKey(),
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('revoked_sessions_expires_idx').on(t.expiresAt)],
);
