import type { MessageCode } from '#shared/messages/index.ts';

import { badRequest } from './errors.ts';
import { isUuid } from './ids.ts';

/**
 * Keyset cursors (the letters register GET /api/dac/page, the inbox GET /api/dac/inbox, the portal search
 * GET /api/search): where the next page starts, as base64url JSON of its parts, handed out by the server and sent
 * back in `?cursor=`. A cursor is read back only when every part is what that cursor holds (a time that exists, ids
 * that are UUIDs), so a tampered one is a 400 on `cursor` with its list's refusal (a message code), never a 500 from
 * the database.
 */

/** A cursor for the query string: its parts as base64url JSON. */
export const encodeCursor = (parts: unknown): string => Buffer.from(JSON.stringify(parts)).toString('base64url');

/**
 * Reads a cursor from the query string: `read` gets its parts and returns the cursor, or null (or throws) when any part
 * is not what it should be. Anything else than a cursor (not base64url JSON, parts missing or wrong) is `refusal`.
 */
export function decodeCursor<T>(raw: string, refusal: MessageCode, read: (parts: unknown) => T | null): T {
  try {
    const cursor = read(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
    if (cursor !== null) return cursor;
  } catch {
    // fall through
  }
  throw badRequest(refusal, 'cursor');
}

/** The first and last year a cursor's time may name. */
export type YearRange = readonly [from: number, to: number];
const ANY_YEAR: YearRange = [1, 9999];
/** Times the server stamped itself (a letter's upload, a marking): a day between 1900 and 2200 (decision 029). */
export const SERVER_YEARS: YearRange = [1900, 2200];

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|([+-])(\d{2})(?::(\d{2}))?)$/;

/**
 * Is this a time that exists, as PostgreSQL prints a timestamptz ("2026-11-21 10:15:30.123+05:30") or as an ISO UTC
 * time ("2026-11-21T04:45:30.123456Z")? The shape alone let "2024-13-45 25:61:00+00" through to the database, which
 * refused it with a 500: month, day (no 30 February), hour, minute, second and offset are checked, and the
 * year is within `years` (by default 0001–9999: PostgreSQL has no year 0).
 */
export function isPossibleTimestamp(at: unknown, years: YearRange = ANY_YEAR): at is string {
  if (typeof at !== 'string') return false;
  const m = TIMESTAMP.exec(at);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, ...number[]];
  const [offsetHours, offsetMinutes] = [Number(m[8] ?? 0), Number(m[9] ?? 0)];
  const date = new Date(0);
  date.setUTCFullYear(year, month! - 1, day); // not Date.UTC, which reads the years 0–99 as 1900–1999
  return (
    year >= years[0] &&
    year <= years[1] &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month! - 1 &&
    date.getUTCDate() === day &&
    hour! < 24 &&
    minute! < 60 &&
    second! < 60 &&
    offsetHours <= 15 &&
    offsetMinutes < 60
  );
}

/** The `[time, id]` cursor of a list in (time, id) order, newest first: the letters register's and the inbox's. */
export interface TimeCursor {
  /** The time as PostgreSQL prints it (microseconds kept). */
  at: string;
  id: string;
}

export const encodeTimeCursor = (c: TimeCursor) => encodeCursor([c.at, c.id]);

/** Reads a `[time, id]` cursor: a time that exists (in `years`) and a UUID, else `refusal`. */
export const decodeTimeCursor = (raw: string, refusal: MessageCode, years = SERVER_YEARS): TimeCursor =>
  decodeCursor(raw, refusal, (parts) => {
    if (!Array.isArray(parts)) return null;
    const [at, id] = parts as unknown[];
    return isPossibleTimestamp(at, years) && isUuid(id) ? { at, id } : null;
  });
