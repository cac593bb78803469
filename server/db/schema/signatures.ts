import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

import { createdAt, id } from './common.ts';
import { files } from './files.ts';
import { users } from './users.ts';

/** The roots a signer's chain may end at to be trusted (decision 123): the admin's list, e.g. CCA India's root. */
export const trustedRoots = pgTable('trusted_roots', {
  id: id(),
  label: text().notNull(),
  pem: text().notNull(),
  subject: text().notNull(),
  fingerprint256: text().notNull().unique('trusted_roots_fingerprint_unique'),
  validTo: timestamp({ withTimezone: true }).notNull(),
  addedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});
export type TrustedRootRow = typeof trustedRoots.$inferSelect;

/**
 * The check of a stored PDF's signatures (decision 123), kept per file: its bytes never change, so the report stands
 * while the list of trusted roots it was made against (`rootsKey`) is the same.
 */
export const signatureChecks = pgTable('signature_checks', {
  fileId: uuid()
    .primaryKey()
    .references(() => files.id, { onDelete: 'cascade' }),
  rootsKey: text().notNull(),
  report: jsonb().notNull(),
  checkedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
