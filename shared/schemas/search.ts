import { z } from 'zod';

import { msg } from '../messages/index.ts';
import {
  SEARCH_KINDS,
  SEARCH_MAX_LENGTH,
  SEARCH_MAX_LIMIT,
  SEARCH_MIN_LENGTH,
  SEARCH_PAGE_SIZE,
  type SearchKind,
} from '../search.ts';
import { codedIssue, plainText } from './common.ts';

export * from '../search.ts';

const SHORT = msg('search.query_too_short', { min: SEARCH_MIN_LENGTH });
const LIMIT = msg('search.limit_invalid', { max: SEARCH_MAX_LIMIT });

/** GET /api/search query string. */
export const searchQuery = z.object({
  q: plainText({ error: SHORT })
    .min(SEARCH_MIN_LENGTH, SHORT)
    .max(SEARCH_MAX_LENGTH, msg('search.query_too_long', { max: SEARCH_MAX_LENGTH })),
  kinds: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v) return undefined;
      const list = v
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean);
      const unknown = list.find((k) => !(SEARCH_KINDS as readonly string[]).includes(k));
      if (unknown) {
        codedIssue(ctx, 'search.unknown_kind', { kind: unknown, kinds: SEARCH_KINDS.join(', ') });
        return z.NEVER;
      }
      return list as SearchKind[];
    }),
  limit: z.coerce
    .number({ error: LIMIT })
    .int(LIMIT)
    .min(1, LIMIT)
    .max(SEARCH_MAX_LIMIT, LIMIT)
    .default(SEARCH_PAGE_SIZE),
  cursor: z.string().max(500, msg('search.bad_cursor')).optional(),
});
export type SearchQuery = z.infer<typeof searchQuery>;

export const searchResultJson = z.object({
  kind: z.enum(SEARCH_KINDS),
  _id: z.uuid(),
  title: z.string(),
  /** Text around the matched words, each match between MARK_START and MARK_END. */
  snippet: z.string(),
  url: z.string(),
  date: z.string(),
});
export type SearchResultJson = z.infer<typeof searchResultJson>;

export const searchAnswerJson = z.object({
  results: z.array(searchResultJson),
  next: z.string().nullable(),
  /**
   * Matches per kind the reader may see (every kind, whatever `kinds` asked for); when `countsCapped`, among the
   * newest SEARCH_COUNT_CAP matches only, so each is a lower bound.
   */
  counts: z.partialRecord(z.enum(SEARCH_KINDS), z.number().int()),
  /** More than SEARCH_COUNT_CAP matches: `counts` are lower bounds, shown as "12+". */
  countsCapped: z.boolean(),
});
export type SearchAnswerJson = z.infer<typeof searchAnswerJson>;
