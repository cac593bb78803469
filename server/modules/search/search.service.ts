import { type SQL, sql } from 'drizzle-orm';

import {
  MARK_END,
  MARK_START,
  SEARCH_COUNT_CAP,
  SEARCH_KINDS,
  type SearchAnswerJson,
  type SearchKind,
  type SearchResultJson,
} from '#shared/schemas/search.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { searchDocuments as sd } from '#server/db/schema/index.ts';
import { decodeCursor, encodeCursor, isPossibleTimestamp } from '#server/lib/cursor.ts';
import { isUuid } from '#server/lib/ids.ts';
import { containsPattern } from '#server/lib/search.ts';
import { RECORDED_LETTER_CLASSIFICATIONS } from '#server/modules/audit-trail/classified-reads.ts';
import { hiddenCloseGroupDocuments } from '#server/modules/close-groups/close-groups.files.ts';
import { closeGroupIdsOfMember } from '#server/modules/close-groups/close-groups.queries.ts';
import { managedGroupIds } from '#server/modules/groups/groups.queries.ts';
import type { Actor } from '#server/plugins/auth.ts';

import {
  classifiedDocument,
  closedClassifications,
  listsDocument,
  opensDocument,
  readerOf,
  type SearchReader,
} from './search.policy.ts';

/**
 * The portal search (docs/decisions/015-search.md): PostgreSQL full-text search over search_documents
 * (English stems and the `simple` configuration, so Hindi words and exact IDs match too), the last word taken as a
 * prefix (suggestions while typing), plus trigram matching of titles for partial names and IDs. Permissions are part
 * of the WHERE clause (access tokens, search.policy.ts), answered by the GIN indexes.
 *
 * Speed (decision 015, "Speed"): a word found in tens of thousands of documents must not make PostgreSQL rank and
 * count them all. So
 * - results are ranked a window at a time: the RANK_WINDOW newest matching documents (walked in date order, or taken
 *   from the GIN indexes and sorted when the word is rare: the planner chooses, the words being constants it has
 *   statistics for), ranked by ts_rank and title similarity; the next pages continue within that window, then with
 *   the next older window. A word found in fewer documents than the window is ranked over all of them;
 * - counts are those of the newest SEARCH_COUNT_CAP matches: exact below it, else `countsCapped` (shown as "200+");
 * - snippets (ts_headline, the dearest part) are made for the page's rows only.
 */
export interface SearchInput {
  q: string;
  kinds?: SearchKind[];
  limit: number;
  cursor?: string;
}

/** How many of the newest matches are ranked together. */
export const RANK_WINDOW = 200;
/**
 * Added to the score of a result whose title matches: more than the rest of a score can reach (ts_rank and similarity
 * are at most 1 each, half a file's ts_rank at most 0.5), so those results come first.
 */
const TITLE_TIER = 3;
/** Step 1 of newestMatches reads at most this many of the newest documents. */
const PROBE_ROWS = 1000;

/** Where a window starts: after (older than) this document, in (date, kind, id) order; null for the newest. */
type WindowStart = { at: string; kind: string; id: string } | null;
/** A place in a window's ranking. */
type Position = { score: number; kind: string; id: string };
interface Cursor {
  window: WindowStart;
  /** The last result shown, in that window's ranking; null: the window's first result is next. */
  after: Position | null;
}

const isKind = (kind: unknown): kind is string =>
  typeof kind === 'string' && (SEARCH_KINDS as readonly string[]).includes(kind);

const encodeSearchCursor = (c: Cursor) =>
  encodeCursor([
    c.window ? [c.window.at, c.window.kind, c.window.id] : null,
    c.after ? [c.after.score, c.after.kind, c.after.id] : null,
  ]);

/**
 * Reads a cursor from the query string; a tampered one (or one naming an impossible time) is a 400, never a 500. The
 * window's time is a document's date as the window queries print it (UTC, microseconds).
 */
const decodeSearchCursor = (raw: string): Cursor =>
  decodeCursor(raw, 'search.bad_cursor', (parts) => {
    const [window, after] = parts as [unknown, unknown];
    const cursor: Cursor = { window: null, after: null };
    if (window !== null) {
      const [at, kind, id] = window as unknown[];
      if (!isPossibleTimestamp(at) || !isKind(kind) || !isUuid(id)) throw new Error('window');
      cursor.window = { at, kind, id };
    }
    if (after !== null) {
      const [score, kind, id] = after as unknown[];
      if (typeof score !== 'number' || !Number.isFinite(score) || !isKind(kind) || !isUuid(id)) {
        throw new Error('after');
      }
      cursor.after = { score, kind, id };
    }
    return cursor.window || cursor.after ? cursor : null;
  });

/** The words of the query, lower-cased: letters, digits and combining marks (Devanagari vowel signs) only. */
export const queryWords = (q: string) =>
  q
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter(Boolean)
    .slice(0, 12);

/** to_tsquery text for the `simple` configuration: every word, the last one as a prefix ("zorbl" finds "zorblax"). */
export function prefixQuery(q: string): string {
  const words = queryWords(q);
  return words.map((w, i) => `'${w}'${i === words.length - 1 ? ':*' : ''}`).join(' & ');
}

/** Our marks must stay ours: the same characters in stored text become plain quotes before a snippet is made. */
const unmarked = (text: SQL) => sql`translate(${text}, ${MARK_START + MARK_END}, ${'""'})`;

const HEADLINE = `StartSel=${MARK_START}, StopSel=${MARK_END}, MaxWords=28, MinWords=10, ShortWord=2, MaxFragments=2, FragmentDelimiter=" … "`;

type Row = {
  kind: SearchKind;
  id: string;
  title: string;
  url: string;
  file_url: string | null;
  classification: string | null;
  opens: boolean;
  date: string;
  /** The date as cursors carry it (AT). */
  at: string;
  score: number;
};

/**
 * The link that opens a result for this reader (the file when they may open it, else the page; a letter of a
 * classification guarded by the step-up its register page, decision 066, and a close-group document of one its
 * close groups' page, where "View" asks for the check before the viewer opens, decision 095).
 */
function resultUrl(row: Row, guarded: readonly string[]): string {
  if (row.kind === 'person') return `${row.url}?q=${encodeURIComponent(row.title)}`;
  // Opening a classified letter or a close-group document is recorded in the audit trail (decision 070): its link
  // says that it came from a search, and the opening is recorded as a search hit opened.
  const recorded =
    row.kind === 'close-group-document' ||
    (row.kind === 'letter' && RECORDED_LETTER_CLASSIFICATIONS.includes(row.classification ?? ''));
  const marked = (url: string) => (recorded ? `${url}${url.includes('?') ? '&' : '?'}from=search` : url);
  const isGuarded = row.classification !== null && guarded.includes(row.classification);
  if (row.kind === 'letter' && isGuarded) return marked(row.url);
  if (row.kind === 'close-group-document' && isGuarded) return row.url;
  if (!row.opens) return '/'; // a public listing (lab home, Product & Achievements) whose group page is closed to them
  if (row.kind === 'group' || row.kind === 'software-repository' || row.kind === 'trial-repository') return row.url;
  return marked(row.file_url ?? row.url);
}

/** Ranking order: best score first, then kind and id (descending), as a comparison for Array.sort. */
const byRank = (a: Position, b: Position) =>
  b.score - a.score || (a.kind < b.kind ? 1 : a.kind > b.kind ? -1 : 0) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

const rowsOf = async <T>(db: DbOrTx, query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/**
 * Finds what this reader may see that matches `q`: one page, the cursor of the next, and the number of matches of
 * each kind (counted up to SEARCH_COUNT_CAP matches in all). Anyone may call it; visibility is applied here, in the query.
 */
export async function searchPortal(db: DbOrTx, reader: SearchReader, input: SearchInput): Promise<SearchAnswerJson> {
  const cursor = input.cursor ? decodeSearchCursor(input.cursor) : null;
  // Letters of these classifications open on their register page, which asks for the step-up before the file
  // opens, rather than as a file in a new tab (decision 066).
  const guarded: readonly string[] = reader.actor?.session?.stepUp.classifications ?? [];
  const prefix = prefixQuery(input.q);
  // Written out (not a CTE) so the planner sees the query as a constant and uses the words' statistics.
  const tsq = prefix
    ? sql`(plainto_tsquery('english', ${input.q}) || to_tsquery('simple', ${prefix}))`
    : sql`plainto_tsquery('english', ${input.q})`;
  const pattern = containsPattern(input.q);
  // A title containing the query: pg_trgm's index under the C locale knows ASCII letters and digits only, so a query
  // with any other character (Hindi) is looked up by the title's three-character pieces instead (decision 031; the
  // ILIKE stays the test). Shorter than three characters there is no piece to look up, as with pg_trgm.
  const titleMatch =
    /[^ -~]/.test(input.q) && [...input.q].length >= 3
      ? sql`(${sd.title} ilike ${pattern} and search_title_grams(${sd.title}) @> search_title_grams(${input.q}))`
      : sql`${sd.title} ilike ${pattern}`;
  // The title holds the words (its A-weighted part of the meta vector, or the fragment): ranked above every match
  // found only in a description or inside a file, such as a person's name in the member list a close group's
  // document carries (decision 015).
  const inTitle = sql`(${titleMatch} or ts_filter(${sd.metaVector}, '{a}') @@ ${tsq})`;
  const kinds = input.kinds?.length ? input.kinds : SEARCH_KINDS;
  // Title and description for whoever may see the listing; the text inside the file only for whoever may open it.
  // The access tokens carry the kind, so they also keep to the kinds asked for.
  // A letter or close-group document of a classification this reader may not open now without a step-up
  // (decisions 066 and 095): its file's text is neither searched nor shown until they give it (its title and register
  // fields still are).
  const stale = closedClassifications(reader);
  const fresh = stale.length
    ? sql` and not (${sd.kind} in ('letter', 'close-group-document') and coalesce(${sd.classification}, '') in (${sql.join(
        stale.map((c) => sql`${c}`),
        sql`, `,
      )}))`
    : sql``;
  const opensNow = (only?: readonly SearchKind[]) => sql`(${opensDocument(reader, only)}${fresh})`;
  const matching = (only: readonly SearchKind[]) =>
    sql`((${listsDocument(reader, only)} and (${sd.metaVector} @@ ${tsq} or ${titleMatch})) or (${opensNow(only)} and ${sd.fileVector} @@ ${tsq}))`;
  const matches = matching(kinds);
  const opens = opensNow();

  const newestFirst = sql`order by ${sd.date} desc, ${sd.kind} desc, ${sd.itemId} desc`;
  /**
   * Keys of the `want` newest documents matching `where` (after `start`), found in two steps chosen here rather than
   * left to the planner, which cannot tell from its statistics how many documents a title fragment or a word of the
   * file text matches (as letters.search.ts does): 1. walk the PROBE_ROWS newest documents in date order and keep the
   * matches, stopping once `want` are out (a common word); 2. else the word is rare: every match from the GIN
   * indexes, then a sort of those (the ORDER BY on an expression keeps the planner off the date index).
   */
  const newestMatches = async (where: SQL, start: WindowStart, want: number) => {
    const after = start
      ? sql`and (${sd.date}, ${sd.kind}, ${sd.itemId}) < (${start.at}::timestamptz, ${start.kind}, ${start.id}::uuid)`
      : sql``;
    const probed = await rowsOf<{ kind: SearchKind; id: string }>(
      db,
      sql`select p.kind, p.id from (
            select ${sd.kind} as kind, ${sd.itemId} as id, ${where} as hit from ${sd} where true ${after}
            ${newestFirst} limit ${PROBE_ROWS}) p
          where p.hit limit ${want}`,
    );
    if (probed.length >= want) return probed;
    // Just short of `want` in the newest PROBE_ROWS (a middling word, decision 031): walk on, as far as the matches
    // seen so far say is needed (twice that, at most 4 × PROBE_ROWS more), before reading every match from the indexes.
    if (probed.length >= want / 8) {
      const more = Math.min(4 * PROBE_ROWS, Math.ceil(((want - probed.length) * PROBE_ROWS * 2) / probed.length));
      // The subquery is named after the table so that `where` reads its columns; the rows skipped are not tested.
      const further = await rowsOf<{ kind: SearchKind; id: string }>(
        db,
        sql`select ${sd}.kind, ${sd}.item_id as id from (
              select * from ${sd} where true ${after} ${newestFirst} offset ${PROBE_ROWS} limit ${more}) as ${sd}
            where ${where} limit ${want - probed.length}`,
      );
      if (probed.length + further.length >= want) return [...probed, ...further];
    }
    return rowsOf<{ kind: SearchKind; id: string }>(
      db,
      sql`select ${sd.kind} as kind, ${sd.itemId} as id from ${sd} where ${where} ${after}
          order by ${sd.date} + interval '0 seconds' desc, ${sd.kind} desc, ${sd.itemId} desc limit ${want}`,
    );
  };

  /** One window: up to RANK_WINDOW matches older than `start`, newest first, each with its score. */
  const windowRows = async (start: WindowStart) => {
    const keys = await newestMatches(matches, start, RANK_WINDOW);
    if (!keys.length) return [];
    return rowsOf<Row>(
      db,
      sql`
      select ${sd.kind} as kind, ${sd.itemId} as id, ${sd.title} as title, ${sd.url} as url, ${sd.fileUrl} as file_url,
        ${sd.classification} as classification,
        ${opens} as opens, ${sd.date}::text as date,
        to_char(${sd.date} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
        (case when ${inTitle} then ${sql.raw(String(TITLE_TIER))} else 0 end
          + ts_rank(${sd.metaVector}, ${tsq}) + similarity(${sd.title}, ${input.q})
          + case when ${opens} then 0.5 * ts_rank(${sd.fileVector}, ${tsq}) else 0 end)::float8 as score
      from ${sd}
      where (${sd.itemId}, ${sd.kind}) in (${sql.join(
        keys.map((k) => sql`(${k.id}::uuid, ${k.kind})`),
        sql`, `,
      )})
      ${newestFirst}`,
    );
  };

  // Matches per kind among the newest SEARCH_COUNT_CAP matches (every kind, whatever `kinds` asked for): exact when
  // fewer match, else marked as capped.
  const countRows = newestMatches(matching(SEARCH_KINDS), null, SEARCH_COUNT_CAP);

  // The page: windows in turn until limit + 1 results (the one more tells whether another page follows).
  const found: { row: Row; window: WindowStart }[] = [];
  let window = cursor?.window ?? null;
  let after = cursor?.after ?? null;
  for (;;) {
    const rows = await windowRows(window);
    const ranked = [...rows].sort(byRank).filter((r) => !after || byRank(after, r) < 0);
    for (const row of ranked.slice(0, input.limit + 1 - found.length)) found.push({ row, window });
    const last = rows[rows.length - 1];
    if (found.length > input.limit || rows.length < RANK_WINDOW || !last) break;
    window = { at: last.at, kind: last.kind, id: last.id };
    after = null;
  }
  const shown = found.slice(0, input.limit);
  const lastShown = shown[shown.length - 1];

  // Snippets for the page only: the text inside the file where it matched and the reader may open it. None of
  // classified material, to anyone: its title only (decision 095).
  const snippets = new Map<string, string>();
  if (shown.length) {
    const keys = sql.join(
      shown.map(({ row }) => sql`(${row.id}::uuid, ${row.kind})`),
      sql`, `,
    );
    const text = sql`case when ${opens} and ${sd.fileVector} @@ ${tsq} then ${sd.fileText}
      when ${sd.body} <> '' then ${sd.body} else ${sd.title} end`;
    const rows = await rowsOf<{ kind: string; id: string; snippet: string }>(
      db,
      sql`select ${sd.kind} as kind, ${sd.itemId} as id,
            ts_headline('english', ${unmarked(text)}, ${tsq}, ${HEADLINE}) as snippet
          from ${sd} where (${sd.itemId}, ${sd.kind}) in (${keys}) and not ${classifiedDocument()}`,
    );
    for (const r of rows) snippets.set(`${r.kind}:${r.id}`, r.snippet);
  }

  const counted = await countRows;
  const counts: SearchAnswerJson['counts'] = {};
  for (const { kind } of counted) counts[kind] = (counts[kind] ?? 0) + 1;
  const results: SearchResultJson[] = shown.map(({ row }) => ({
    kind: row.kind,
    _id: row.id,
    title: row.title,
    snippet: snippets.get(`${row.kind}:${row.id}`) ?? '',
    url: resultUrl(row, guarded),
    date: new Date(row.date).toISOString(),
  }));
  return {
    results,
    next:
      found.length > input.limit && lastShown
        ? encodeSearchCursor({
            window: lastShown.window,
            after: { score: lastShown.row.score, kind: lastShown.row.kind, id: lastShown.row.id },
          })
        : null,
    counts,
    countsCapped: counted.length >= SEARCH_COUNT_CAP,
  };
}

/** Loads what the reader's search tokens are made of (the groups they lead, their close groups): search.policy readerOf. */
export async function searchReader(db: DbOrTx, actor: Actor | null): Promise<SearchReader> {
  if (!actor) return readerOf(null, { managed: [], closeGroups: [] });
  const [managed, closeGroups, hidden] = await Promise.all([
    managedGroupIds(db, actor),
    closeGroupIdsOfMember(db, actor.id),
    hiddenCloseGroupDocuments(db, actor),
  ]);
  return readerOf(actor, { managed, closeGroups, hidden });
}
