import { z } from 'zod';

/** Everything the portal search finds (issue 14), in the order the results page lists the groups. */
export const SEARCH_KINDS = [
  'person',
  'group',
  'notice',
  'circular',
  'product',
  'advertisement',
  'photo',
  'group-notice',
  'group-circular',
  'project',
  'patent',
  'technology',
  'course',
  'publication',
  'letter',
  'close-group-document',
  'software-repository',
  'trial-repository',
] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** Results per page, and the header box's suggestions. */
export const SEARCH_PAGE_SIZE = 20;
export const SEARCH_SUGGESTION_LIMIT = 6;
export const SEARCH_MAX_LIMIT = 50;
/**
 * Matches counted, at most, in all (docs/decisions/015-search.md, "Speed"): counting every match of a word found in
 * most documents would read them all. When this many match, the counts are those of the newest SEARCH_COUNT_CAP
 * matches and `countsCapped` is true: each kind has at least that many ("12+").
 */
export const SEARCH_COUNT_CAP = 200;
/** Longest query accepted. */
export const SEARCH_MAX_LENGTH = 200;

/** The marks around matched words in a snippet (rendered as <mark> by the web, never as HTML). */
export const MARK_START = '\u00ab';
export const MARK_END = '\u00bb';

const SHORT = 'Type at least 2 characters to search.';

/** GET /api/search query string. */
export const searchQuery = z.object({
  q: z
    .string({ error: SHORT })
    .trim()
    .min(2, SHORT)
    .max(SEARCH_MAX_LENGTH, `Search text must be at most ${SEARCH_MAX_LENGTH} characters.`),
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
        ctx.addIssue({ code: 'custom', message: `Unknown kind "${unknown}". Kinds: ${SEARCH_KINDS.join(', ')}.` });
        return z.NEVER;
      }
      return list as SearchKind[];
    }),
  limit: z.coerce
    .number({ error: `Limit must be a whole number from 1 to ${SEARCH_MAX_LIMIT}.` })
    .int(`Limit must be a whole number from 1 to ${SEARCH_MAX_LIMIT}.`)
    .min(1, `Limit must be a whole number from 1 to ${SEARCH_MAX_LIMIT}.`)
    .max(SEARCH_MAX_LIMIT, `Limit must be a whole number from 1 to ${SEARCH_MAX_LIMIT}.`)
    .default(SEARCH_PAGE_SIZE),
  cursor: z.string().max(500, 'This list has changed. Please search again.').optional(),
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

/** A count as shown: "12+" when the counts are capped (at least that many). */
export const countLabel = (n: number, capped: boolean) => (capped ? `${n}+` : String(n));

/** Splits a snippet into plain and marked pieces, for rendering as text (never as HTML). */
export function snippetParts(snippet: string): { text: string; marked: boolean }[] {
  const parts: { text: string; marked: boolean }[] = [];
  let rest = snippet;
  while (rest) {
    const start = rest.indexOf(MARK_START);
    if (start < 0) {
      parts.push({ text: rest, marked: false });
      break;
    }
    const end = rest.indexOf(MARK_END, start + 1);
    if (end < 0) {
      parts.push({ text: rest.replace(MARK_START, ''), marked: false });
      break;
    }
    if (start > 0) parts.push({ text: rest.slice(0, start), marked: false });
    parts.push({ text: rest.slice(start + 1, end), marked: true });
    rest = rest.slice(end + 1);
  }
  return parts;
}
