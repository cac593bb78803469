import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * The audit trail (decision 067): who read, downloaded, was refused, signed in, changed a role or exported
 * what, beside the activity log (which records writes for the admins' Logs screen). Rows are never changed: the
 * database refuses UPDATE, DELETE and TRUNCATE on the table except through `audit_purge` (retention), and each row
 * carries `hash = SHA-256(prev_hash ‖ canonical row)`, computed by the insert trigger of migration 0027 under the lock
 * of `audit_chain_head`, so the rows form one chain in `seq` order. No foreign keys: a deleted person's or letter's
 * events stay as they were written (the names are copied in).
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    /** Place in the chain, from 1, without gaps: given by the insert trigger. */
    seq: bigint({ mode: 'number' }).primaryKey(),
    /** The event's id: a watermarked download carries it as its download id. */
    id: uuid().notNull().defaultRandom(),
    /** UTC, to the millisecond (the canonical form writes milliseconds); set by the insert trigger. */
    occurredAt: timestamp({ withTimezone: true, precision: 3 }).notNull(),
    /** Who: null for a visitor or someone not yet known (a failed sign-in names the login tried in `details`). */
    actorId: uuid(),
    actorName: text(),
    /** The role they had at the time. */
    actorRole: text(),
    /** The client's address (through TRUST_PROXY) and browser. */
    clientAddress: text(),
    userAgent: text(),
    /** What happened: a code of AUDIT_ACTIONS (shared/audit.ts). */
    action: text().notNull(),
    /** On what: a type (letter, close_group_document, user, audit_trail…), its id and a readable label. */
    objectType: text(),
    objectId: text(),
    objectLabel: text(),
    /** Normal / Confidential / Secret for a letter; Unclassified … Secret for a close-group document. */
    classification: text(),
    /** success, refused or failure. */
    outcome: text().notNull(),
    /** Anything else worth keeping, as the JSON text that was hashed (the code of a refusal, the filters of an export). */
    details: text(),
    prevHash: text().notNull(),
    hash: text().notNull(),
  },
  (t) => [
    check('audit_events_outcome', sql`${t.outcome} in ('success', 'refused', 'failure')`),
    uniqueIndex('audit_events_id_idx').on(t.id),
    index('audit_events_time_idx').on(t.occurredAt),
    index('audit_events_actor_idx').on(t.actorId, t.seq),
    index('audit_events_object_idx').on(t.objectId, t.seq),
    index('audit_events_action_idx').on(t.action, t.seq),
    // The Audit Trail screen's object filter: text found in a label (decision 069; without it, a scan of every row).
    index('audit_events_object_label_trgm_idx').using('gin', t.objectLabel.op('gin_trgm_ops')),
  ],
);

/** The chain's last link: one row, locked by each insert so that links are made one at a time. */
export const auditChainHead = pgTable('audit_chain_head', {
  one: bigint({ mode: 'number' }).primaryKey().default(1),
  seq: bigint({ mode: 'number' }).notNull(),
  hash: text().notNull(),
});

export type AuditEventRow = typeof auditEvents.$inferSelect;
