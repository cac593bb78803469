// What the search's screens and its API share that needs no zod: the header's search box loads with every page,
// so it must not bring the schema library into the first load.

/** Everything the portal search finds (decision 015), in the order the results page lists the groups. */
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
  // A letter sent out of the lab under an outward number (decision 120).
  'dispatch',
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
/** Shortest query accepted, once trimmed: the header box says so rather than searching (decision 015). */
export const SEARCH_MIN_LENGTH = 2;
/** Longest query accepted. */
export const SEARCH_MAX_LENGTH = 200;

/** The marks around matched words in a snippet (rendered as <mark> by the web, never as HTML). */
export const MARK_START = '\u00ab';
export const MARK_END = '\u00bb';

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
