import { sql } from 'drizzle-orm';

import type { EfileBox } from '#shared/schemas/efile.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { decodeTimeCursor, type TimeCursor } from '#server/lib/cursor.ts';
import { groupsLedBy } from '#server/modules/groups/groups.queries.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { visibleEfiles } from './efiles.policy.ts';

/** A row of a list of files (My files, the search). */
export interface EfileListRow extends Record<string, unknown> {
  id: string;
  number: string;
  subject: string;
  classification: string;
  state: 'open' | 'parked' | 'closed';
  head_code: string;
  head_name: string;
  holder_id: string;
  holder_name: string;
  holder_designation: string;
  in_transit: boolean;
  moved_at: Date;
  created_at: Date;
}

const LIST_LIMIT = 100;

const columns = sql`e.id, e.number, e.subject, e.classification, e.state, h.code as head_code, h.name as head_name,
  e.holder_id, u.name as holder_name, u.designation as holder_designation, e.moved_at, e.created_at,
  exists (select 1 from efile_movements m where m.efile_id = e.id and m.kind in ('sent', 'returned')
    and m.received_at is null and m.pulled_back_at is null) as in_transit`;
const joins = sql`join efile_heads h on h.id = e.head_id join users u on u.id = e.holder_id`;

/** A page of My files: its rows and where the next page starts (null at the end). */
export interface EfilePage {
  rows: EfileListRow[];
  next: TimeCursor | null;
}

/** Reads the `?cursor=` of My files (the project's keyset cursor): a tampered one is a 400 on `cursor`. */
export const decodeEfileCursor = (raw: string): TimeCursor => decodeTimeCursor(raw, 'efiles.bad_cursor');

/**
 * My files (decision 107): with me, created by me, sent by me and not yet received, parked, closed, copies — a page
 * at a time, latest moved first, by a keyset on (moved_at, id) (decision 121). Each box walks an index in that order
 * (migration 0048) and stops at the page's end, however many files the person has had.
 */
export async function listEfiles(
  db: DbOrTx,
  actor: Actor,
  query: { box: EfileBox; limit: number; after?: TimeCursor },
): Promise<EfilePage> {
  const me = actor.id;
  const where = {
    with_me: sql`e.holder_id = ${me} and e.state = 'open'`,
    created: sql`e.created_by = ${me}`,
    sent: sql`e.id in (select m.efile_id from efile_movements m where m.from_user_id = ${me}
      and m.kind in ('sent', 'returned') and m.received_at is null and m.pulled_back_at is null)`,
    parked: sql`e.holder_id = ${me} and e.state = 'parked'`,
    closed: sql`e.state = 'closed' and exists (select 1 from efile_participants p where p.efile_id = e.id and p.user_id = ${me})`,
    copies: sql`e.id in (select efile_id from efile_copies where user_id = ${me})`,
  }[query.box];
  const after = query.after
    ? sql`and (e.moved_at, e.id) < (${query.after.at}::timestamptz, ${query.after.id}::uuid)`
    : sql``;
  const found = await db.execute<EfileListRow & { moved_key: string }>(sql`
    select ${columns}, e.moved_at::text as moved_key from efiles e ${joins}
    where ${where} ${after} order by e.moved_at desc, e.id desc limit ${query.limit + 1}`);
  const rows = found.rows.slice(0, query.limit);
  const last = rows[rows.length - 1];
  return { rows, next: found.rows.length > query.limit && last ? { at: last.moved_key, id: last.id } : null };
}

/**
 * The search (GET /api/efiles/search): number, subject, note text and correspondence text, among the files the actor
 * may see (visibleEfiles) — nobody finds a file they may not open.
 */
export async function searchEfiles(db: DbOrTx, actor: Actor, q: string): Promise<EfileListRow[]> {
  const like = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const led = await groupsLedBy(db, actor);
  const rows = await db.execute<EfileListRow>(sql`
    select ${columns} from efiles e ${joins}
    where ${visibleEfiles(actor, led)} and (
      e.search_text like ${like}
      or e.id in (select n.efile_id from efile_notes n where lower(n.text) like ${like})
      or e.id in (select i.efile_id from efile_items i where lower(i.title || ' ' || i.text) like ${like}))
    order by e.moved_at desc, e.id desc limit ${LIST_LIMIT}`);
  return rows.rows;
}

/** The refs and subjects of the files this person may see, of these ids (the bell's notices). */
export async function describeVisibleEfiles(db: DbOrTx, actor: Actor, ids: string[]) {
  const out = new Map<string, { ref: string; title: string }>();
  if (!ids.length) return out;
  const led = await groupsLedBy(db, actor);
  const rows = await db.execute<{ id: string; number: string; subject: string; classification: string }>(sql`
    select e.id, e.number, e.subject, e.classification from efiles e
    where e.id = any(${sql`array[${sql.join(
      ids.map((i) => sql`${i}::uuid`),
      sql`, `,
    )}]`}) and ${visibleEfiles(actor, led)}`);
  for (const r of rows.rows) {
    out.set(r.id, { ref: r.number, title: r.classification === 'Unclassified' ? r.subject : r.number });
  }
  return out;
}
