import { z } from 'zod';

import { AUDIT_ACTIONS, AUDIT_CLASSIFICATIONS, AUDIT_OUTCOMES } from '../audit.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants.ts';
import { msg } from '../messages/index.ts';
import { isoDate, plainText } from './common.ts';

/** A query-string value where an empty one means "not given" (a cleared filter box sends `?action=`). */
const blankIsAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const filterText = blankIsAbsent(plainText().max(200, msg('audit.filter_too_long')));
const dayField = blankIsAbsent(isoDate());

/**
 * The filters of the audit trail (Admin → Audit Trail, decision 069): `person` is the actor's id, or text found in
 * the name or email of an account; `object` the object's id, or text found in its label; `from` and `to` are days in
 * India time (YYYY-MM-DD), both included.
 */
const auditFilterFields = {
  person: filterText,
  object: filterText,
  action: blankIsAbsent(z.enum(AUDIT_ACTIONS, msg('audit.action_invalid'))),
  classification: blankIsAbsent(z.enum(AUDIT_CLASSIFICATIONS, msg('audit.classification_invalid'))),
  outcome: blankIsAbsent(z.enum(AUDIT_OUTCOMES, msg('audit.outcome_invalid'))),
  from: dayField,
  to: dayField,
};

const datesInOrder = (v: { from?: string | undefined; to?: string | undefined }) => !(v.from && v.to && v.from > v.to);
const datesReversed = { message: msg('audit.dates_reversed'), path: ['from'] };

/** GET /api/audit/events.csv: every event matching the filters (up to the export's cap), newest first. */
export const auditExportQuery = z.object(auditFilterFields).refine(datesInOrder, datesReversed);
export type AuditExportQuery = z.input<typeof auditExportQuery>;
export type AuditFilter = z.output<typeof auditExportQuery>;

/** GET /api/audit/events: one page of the events matching the filters, newest first. */
export const auditEventsQuery = z
  .object({
    ...auditFilterFields,
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .refine(datesInOrder, datesReversed);
export type AuditEventsQuery = z.input<typeof auditEventsQuery>;

/** One event of the audit trail as the API shows it: the row as it was written (copied names, role at the time). */
export const auditEventJson = z.object({
  _id: z.uuid(),
  /** Place in the chain. */
  seq: z.number(),
  /** UTC (ISO 8601); screens show it in IST. */
  occurredAt: z.string(),
  actor: z.object({ _id: z.string(), name: z.string(), role: z.string() }).nullable(),
  address: z.string().nullable(),
  userAgent: z.string().nullable(),
  action: z.string(),
  object: z.object({ type: z.string(), id: z.string(), label: z.string().nullable() }).nullable(),
  classification: z.string().nullable(),
  outcome: z.enum(AUDIT_OUTCOMES),
  details: z.record(z.string(), z.json()).nullable(),
});
export type AuditEventJson = z.infer<typeof auditEventJson>;

/** A page of events: `total` is counted up to a cap and `capped` says there are more (as the activity log's). */
export const auditEventPageJson = z.object({
  items: z.array(auditEventJson),
  total: z.number(),
  capped: z.boolean(),
});
export type AuditEventPageJson = z.infer<typeof auditEventPageJson>;
