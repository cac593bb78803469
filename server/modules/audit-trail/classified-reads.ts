import type { FastifyRequest } from 'fastify';

import type { AuditAction } from '#shared/audit.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { AppError } from '#server/lib/errors.ts';

import { type AuditReceipt, type AuditWho, auditWho, recordAudit } from './audit-trail.ts';

/**
 * Reads of classified material (decision 070): each opening of a Confidential or Secret letter (its card by
 * id, history, dak trail, reading it in the inbox, its file) and each download of a close-group document is written
 * to the audit trail and committed before the first byte of the answer leaves, and each refusal of such an item too.
 * A list (the register, the inbox, search results, an export) is not an opening.
 */

/** The letter classifications whose openings are recorded. */
export const RECORDED_LETTER_CLASSIFICATIONS: readonly string[] = ['Confidential', 'Secret'];

/** An item whose openings are recorded: what it is (its label is what the Audit Trail shows) and its classification. */
export interface RecordedItem {
  object: { type: 'letter' | 'close_group_document' | 'efile'; id: string; label: string };
  classification: string;
}

/** What an opening of an item is recorded as (a search hit opened is recorded as `search_hit_opened`, see below). */
export type ReadAction = Extract<
  AuditAction,
  | 'letter_viewed'
  | 'letter_downloaded'
  | 'document_downloaded'
  | 'efile_viewed'
  | 'efile_exported'
  | 'efile_draft_viewed'
>;

/** Who reads, and how they came to: a search result's link carries `from=search` (search.service.ts resultUrl). */
export interface ReadContext {
  who: AuditWho;
  fromSearch: boolean;
  /** Told when a refusal's row could not be written (the refusal stands; the request log keeps the reason). */
  lost: (err: unknown) => void;
}

/** The reading context of a request: its person and client, and whether it came from a search result. */
export function readContext(req: FastifyRequest): ReadContext {
  const query = req.query as { from?: unknown } | undefined;
  return {
    who: auditWho(req),
    fromSearch: query?.from === 'search',
    lost: (err) => req.log.error({ err }, 'audit trail: a refusal could not be recorded'),
  };
}

/**
 * Records a served opening of `item`, before anything is sent: `action`, or `search_hit_opened` (with the action it
 * was in `details.opened`) when the person came from a search result. Throws 503 `audit.unavailable` when the row
 * cannot be written: the caller must then not serve (fail closed, decision 070).
 */
export function recordRead(
  db: DbOrTx,
  ctx: ReadContext,
  item: RecordedItem,
  action: ReadAction,
  details: Record<string, unknown> = {},
  id?: string,
): Promise<AuditReceipt> {
  const all = ctx.fromSearch ? { opened: action, ...details } : details;
  return recordAudit(db, ctx.who, {
    id,
    action: ctx.fromSearch ? 'search_hit_opened' : action,
    object: item.object,
    classification: item.classification,
    outcome: 'success',
    details: Object.keys(all).length ? all : null,
  });
}

/**
 * Records the refusal `err` of an opening of `item` (`access_refused`, outcome refused, with the refusal's code and
 * status and what was attempted), whatever the refusal answers (a 404 hides the item from the person, not from the
 * trail). Anything but a refusal (a failure, the audit trail's own 503) is not one and is not recorded here. The
 * refusal stands whether or not its row could be written: nothing is served either way (decision 070).
 */
export async function recordRefusal(
  db: DbOrTx,
  ctx: ReadContext,
  item: RecordedItem,
  attempted: ReadAction,
  err: unknown,
): Promise<void> {
  if (!(err instanceof AppError) || err.statusCode >= 500) return;
  try {
    await recordAudit(db, ctx.who, {
      action: 'access_refused',
      object: item.object,
      classification: item.classification,
      outcome: 'refused',
      details: { code: err.code, status: err.statusCode, attempted, ...(ctx.fromSearch ? { from: 'search' } : {}) },
    });
  } catch (auditErr) {
    ctx.lost(auditErr);
  }
}

/** Runs the checks of an opening of `item`; a refusal they throw is recorded (recordRefusal), then thrown on. */
export async function refusalsRecorded<T>(
  db: DbOrTx,
  ctx: ReadContext,
  item: RecordedItem | null,
  attempted: ReadAction,
  checks: () => Promise<T>,
): Promise<T> {
  try {
    return await checks();
  } catch (err) {
    if (item) await recordRefusal(db, ctx, item, attempted, err);
    throw err;
  }
}
