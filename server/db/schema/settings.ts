import { pgTable, text } from 'drizzle-orm/pg-core';

import { updatedAt } from './common.ts';

/**
 * Facts every node of one portal must agree on, recorded by the first node that starts (decision 052): for now the
 * JWT secret's fingerprint (`jwt_secret_fingerprint`, an HMAC of a fixed label, never the secret).
 */
export const portalSettings = pgTable('portal_settings', {
  key: text().primaryKey(),
  value: text().notNull(),
  updatedAt: updatedAt(),
});
