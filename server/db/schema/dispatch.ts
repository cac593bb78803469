import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, primaryKey, text, unique, uuid } from 'drizzle-orm/pg-core';

import type { DispatchModeName } from '#shared/schemas/dispatch.ts';

import { createdAt, id } from './common.ts';
import { efileItems, efiles } from './efiles.ts';
import { files } from './files.ts';
import { labs } from './labs.ts';
import { users } from './users.ts';

/**
 * The last outward number of each lab and year (decision 120): moved in the dispatch's own transaction, so a number
 * is used or not at all and the register has no gaps (a PostgreSQL sequence would leave one at each rollback).
 */
export const dispatchCounters = pgTable(
  'dispatch_counters',
  {
    labId: uuid()
      .notNull()
      .references(() => labs.id, { onDelete: 'cascade' }),
    year: integer().notNull(),
    last: integer().notNull(),
  },
  (t) => [primaryKey({ name: 'dispatch_counters_pk', columns: [t.labId, t.year] })],
);

/** A signed letter of an e-file (a correspondence item) sent out of the lab under an outward number (decision 120). */
export const dispatches = pgTable(
  'dispatches',
  {
    id: id(),
    labId: uuid()
      .notNull()
      .references(() => labs.id, { onDelete: 'cascade' }),
    year: integer().notNull(),
    serial: integer().notNull(),
    outwardNumber: text().notNull().unique('dispatches_outward_number_unique'),
    efileId: uuid()
      .notNull()
      .references(() => efiles.id, { onDelete: 'restrict' }),
    itemId: uuid()
      .notNull()
      .unique('dispatches_item_unique')
      .references(() => efileItems.id, { onDelete: 'restrict' }),
    /** The file's number and the item's C/n as they were (neither ever changes): the register shows them. */
    efileNumber: text().notNull(),
    itemSeq: integer().notNull(),
    fileId: uuid()
      .notNull()
      .references(() => files.id, { onDelete: 'restrict' }),
    subject: text().notNull(),
    classification: text().notNull(),
    dispatchDate: date().notNull(),
    mode: text().$type<DispatchModeName>().notNull(),
    dispatchedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    /** lower(outward number, subject, file number, recipients): the register's search (kept by the service). */
    searchText: text().notNull().default(''),
  },
  (t) => [
    unique('dispatches_serial_unique').on(t.labId, t.year, t.serial),
    index('dispatches_date_idx').on(t.dispatchDate.desc(), t.serial.desc()),
    index('dispatches_efile_idx').on(t.efileId),
    index('dispatches_search_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    check('dispatches_mode_check', sql`${t.mode} in ('post', 'speed_post', 'hand', 'email')`),
  ],
);
export type DispatchRow = typeof dispatches.$inferSelect;

/** Whom a dispatch went to, in order; by email, the outbox row (mail_outbox) that carries it. */
export const dispatchRecipients = pgTable(
  'dispatch_recipients',
  {
    id: id(),
    dispatchId: uuid()
      .notNull()
      .references(() => dispatches.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    name: text().notNull(),
    address: text().notNull().default(''),
    email: text(),
    mailId: uuid(),
  },
  (t) => [index('dispatch_recipients_dispatch_idx').on(t.dispatchId, t.position)],
);
export type DispatchRecipientRow = typeof dispatchRecipients.$inferSelect;
