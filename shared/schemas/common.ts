import { z } from 'zod';

import { DATE_YEAR_MAX, DATE_YEAR_MIN, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../constants.ts';
import { withoutBidiControls } from '../format.ts';
import { type CodedMessage, type MessageCode, type MessageParams, messageText, msg } from '../messages/index.ts';

/**
 * Free text a person types: without bidirectional controls (decision 049), then trimmed. Still a string schema,
 * so `.min`, `.max` and `.default` follow as usual. Every free-text input of the shared schemas is built on it.
 */
export const plainText = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).overwrite(withoutBidiControls).trim();

/** Optional free text: trimmed, absent means ''. */
export const optionalText = plainText().max(5000).default('');
export const DATE_RANGE_MESSAGE = msg('common.date_out_of_range', { min: DATE_YEAR_MIN, max: DATE_YEAR_MAX });
/** Is this YYYY-MM-DD date within the years the portal accepts? */
export const inDateRange = (v: string) => {
  const year = Number(v.slice(0, 4));
  return year >= DATE_YEAR_MIN && year <= DATE_YEAR_MAX;
};
/** A real YYYY-MM-DD calendar date in the accepted years: every date input of the portal goes through it. */
export const isoDate = (message = msg('common.date_invalid')) =>
  z.iso.date(message).refine(inDateRange, DATE_RANGE_MESSAGE);
/** A YYYY-MM-DD date, or '' / null for none. */
export const optionalDate = z
  .union([isoDate(), z.literal(''), z.null()])
  .optional()
  .transform((v) => (v ? v : null));
export const uuidParam = z.object({ id: z.uuid(msg('common.invalid_id')) });
/**
 * `?from=search` on the opening of a classified item that a search result linked to: the audit trail records it as
 * a search hit opened (decision 070). Anything else is ignored, never refused.
 */
export const openedFrom = z.object({ from: z.enum(['search']).optional().catch(undefined) });
/** Optional server-side paging (?limit&offset). */
export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).default(0),
});
export const messageJson = z.object({ message: z.string() });
export const errorJson = z.object({ error: z.string(), message: z.string(), field: z.string().optional() });

/**
 * A custom issue whose sentence carries a value the caller sent (an unknown search kind): its code and params ride in
 * the issue's `params.coded`, where the API's validation answer finds them (server/lib/errors.ts codedIssueOf), as
 * msg() would remember one sentence per value sent.
 */
export function codedIssue(
  ctx: z.RefinementCtx,
  code: MessageCode,
  params: MessageParams,
  path?: (string | number)[],
): void {
  const coded: CodedMessage = { code, params };
  ctx.addIssue({ code: 'custom', message: messageText(code, params), params: { coded }, ...(path ? { path } : {}) });
}
