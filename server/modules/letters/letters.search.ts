import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { letters } from '#server/db/schema/index.ts';
import { decodeTimeCursor, type TimeCursor } from '#server/lib/cursor.ts';
import { containsPattern } from '#server/lib/search.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { visibleLetters } from './letters.policy.ts';

/**
 * Search of the letters register, in the database (decision 009; docs/decisions/ "letters register").
 *
 * Every letter carries `search_text` (its ID, subject, docket no, letter no, category, establishment, language,
 * communicated by and uploader's name, lower-cased, kept by a trigger) under a pg_trgm GIN index, so `LIKE '%…%'`
 * finds any part of any of those fields. Results come newest upload first, a page at a time, and never with an
 * exact count. Which plan is fast depends on how common the searched text is, and PGlite keeps no statistics
 * (no autovacuum), so the choice is made here rather than left to the planner:
 * 0. a complete Letter ID (L-2026-000123) is looked up in its unique index;
 * 1. a text found in many letters: walk the newest letters in upload order and keep the matches, stopping as soon
 *    as the page is full, or after a window of a few thousand letters;
 * 2. otherwise the text is rare (fewer than one letter in ~250 match): ask the trigram index for every match and
 *    sort those few — the ORDER BY on an expression keeps the planner off the upload-date index, which for a rare or
 *    absent text would walk the whole table.
 */

/** letter_upload_date as PostgreSQL prints it (microseconds kept), and the letter's id. */
export type LetterCursor = TimeCursor;

export interface LetterSearch {
  /** Trimmed search text; '' lists everything visible. */
  q: string;
  /** Only the letters the actor uploaded. */
  mine?: boolean;
  limit: number;
  offset?: number;
  after?: LetterCursor;
  /** Size of the step-1 window; tests and the bench set it, the routes leave it to the rule below. */
  probeWindow?: number;
}

export interface LetterSearchResult {
  /** Ids of the page, newest upload first. */
  ids: string[];
  /** Where the next page starts, or null at the end. */
  next: LetterCursor | null;
}

/** Step 1 reads at most this many newest letters per row it needs (bounded below and above). */
const PROBE_ROWS_PER_HIT = 250;
const PROBE_MIN = 5000;
const PROBE_MAX = 50000;
/** A complete Letter ID, as the server hands them out. */
const FULL_LETTER_ID = /^l-\d{4}-\d{6,}$/i;

/** The register's cursor (GET /api/dac/page): a tampered one is a 400, never a 500 (decision 029). */
export const decodeCursor = (raw: string): LetterCursor => decodeTimeCursor(raw, 'letters.register_bad_cursor');

type Hit = { id: string; at: string };

/**
 * Finds one page of the letters this actor may see that match the search, newest upload first. Callers pass the
 * signed-in actor; the visibility rule is applied here, in the query.
 */
export async function searchLetterIds(db: DbOrTx, actor: Actor, search: LetterSearch): Promise<LetterSearchResult> {
  const offset = search.offset ?? 0;
  const want = offset + search.limit + 1; // one more than the page tells whether another page follows
  const conditions: (SQL | undefined)[] = [visibleLetters(actor)];
  if (search.mine) conditions.push(eq(letters.uploadedBy, actor.id));
  if (search.after) {
    conditions.push(
      sql`(${letters.letterUploadDate}, ${letters.id}) < (${search.after.at}::timestamptz, ${search.after.id}::uuid)`,
    );
  }
  const base = and(...conditions)!;
  const at = sql<string>`${letters.letterUploadDate}::text`;

  const order = [desc(letters.letterUploadDate), desc(letters.id)];
  let hits: Hit[];
  if (!search.q) {
    hits = await db
      .select({ id: letters.id, at })
      .from(letters)
      .where(base)
      .orderBy(...order)
      .offset(offset)
      .limit(search.limit + 1);
  } else if (FULL_LETTER_ID.test(search.q)) {
    // Step 0: Letter IDs are stored upper-case (L-…) and unique.
    hits = await db
      .select({ id: letters.id, at })
      .from(letters)
      .where(and(base, eq(letters.letterId, search.q.toUpperCase())))
      .offset(offset)
      .limit(search.limit + 1);
  } else {
    const pattern = containsPattern(search.q);
    // Step 1: the newest letters in upload order, matches kept as they stream past; Postgres stops reading as soon
    // as `want` matches are out, or at the end of the window. When it runs out first, the last row says how many
    // letters the window held: fewer than its size means every visible letter was read, and its matches are all.
    const window = search.probeWindow ?? Math.min(PROBE_MAX, Math.max(PROBE_MIN, want * PROBE_ROWS_PER_HIT));
    const { rows } = await db.execute<{ id: string | null; at: string }>(sql`
      with probe as (
        select ${letters.id} as id, ${letters.letterUploadDate} as at, ${letters.searchText} like lower(${pattern}) as hit
        from ${letters} where ${base}
        order by ${letters.letterUploadDate} desc, ${letters.id} desc limit ${window}
      )
      (select id, at::text as at from probe where hit limit ${want})
      union all (select null, count(*)::text from probe)
      limit ${want}`);
    const probed = rows.filter((r): r is Hit => r.id !== null);
    const read = rows.find((r) => r.id === null);
    if (probed.length >= want || (read && Number(read.at) < window)) {
      hits = probed.slice(offset); // in upload order, as the window streamed them
    } else {
      // Step 2: a rare text in a register longer than the window: every match from the trigram index, then a sort of
      // those few.
      hits = await db
        .select({ id: letters.id, at })
        .from(letters)
        .where(and(base, sql`${letters.searchText} like lower(${pattern})`))
        .orderBy(sql`${letters.letterUploadDate} + interval '0 seconds' desc`, desc(letters.id))
        .offset(offset)
        .limit(search.limit + 1);
    }
  }
  const page = hits.slice(0, search.limit);
  const last = page[page.length - 1];
  return { ids: page.map((h) => h.id), next: hits.length > search.limit && last ? { at: last.at, id: last.id } : null };
}

/**
 * X-Total-Count of GET /api/dac stops here (the CSV export's limit too): beyond it the header says
 * `X-Total-Count-Capped: true`. An exact count of a broad search would read every matching letter; this reads at most
 * LETTER_COUNT_LIMIT + 1 of them, on the same indexes as the page.
 */
export const LETTER_COUNT_LIMIT = 10000;

/**
 * How many letters this actor may see match the search (the same rule and text match as searchLetterIds, without
 * its page), counted up to `cap`.
 */
export async function countLetterMatches(
  db: DbOrTx,
  actor: Actor,
  search: Pick<LetterSearch, 'q' | 'mine'>,
  cap = LETTER_COUNT_LIMIT,
): Promise<{ total: number; capped: boolean }> {
  const conditions: (SQL | undefined)[] = [visibleLetters(actor)];
  if (search.mine) conditions.push(eq(letters.uploadedBy, actor.id));
  if (FULL_LETTER_ID.test(search.q)) conditions.push(eq(letters.letterId, search.q.toUpperCase()));
  else if (search.q) conditions.push(sql`${letters.searchText} like lower(${containsPattern(search.q)})`);
  const matches = db
    .select({ one: sql`1` })
    .from(letters)
    .where(and(...conditions))
    .limit(cap + 1)
    .as('matches');
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(matches);
  return { total: Math.min(n, cap), capped: n > cap };
}
