import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';

import { formatDate } from '#shared/format.ts';
import type { DispatchJson, DispatchListQuery } from '#shared/schemas/dispatch.ts';

import type { DbOrTx } from '#server/db/client.ts';
import {
  dispatches,
  type DispatchRecipientRow,
  dispatchRecipients,
  type DispatchRow,
} from '#server/db/schema/index.ts';
import { notFound } from '#server/lib/errors.ts';
import { accessFile } from '#server/modules/efiles/efiles.access.ts';
import { fileUrl } from '#server/modules/files/storage-areas.ts';
import { csvLine } from '#server/modules/letters/letters.export.ts';
import { outboxStatuses } from '#server/modules/mail/mail.outbox.ts';
import { namesByIds } from '#server/modules/users/users.queries.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { visibleDispatches } from './dispatch.policy.ts';

/** The dispatch register (decision 120): the lab's outward letters, newest first, searched and paged on the server. */

const MODE_WORDS = { post: 'Post', speed_post: 'Speed post', hand: 'By hand', email: 'Email' } as const;
const EXPORT_MAX = 10_000;

/** The register's condition: what the reader sees, and the filters. */
function where(actor: Actor, q: Omit<DispatchListQuery, 'limit' | 'offset'>): SQL {
  const parts: SQL[] = [visibleDispatches(actor)];
  if (q.q) parts.push(sql`${dispatches.searchText} like ${`%${q.q.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`}`);
  if (q.mode) parts.push(eq(dispatches.mode, q.mode));
  if (q.year) parts.push(eq(dispatches.year, q.year));
  return and(...parts)!;
}

/** One page of the register and how many match in all. */
export async function listDispatches(db: DbOrTx, actor: Actor, q: DispatchListQuery) {
  const condition = where(actor, q);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(dispatches)
      .where(condition)
      .orderBy(desc(dispatches.dispatchDate), desc(dispatches.year), desc(dispatches.serial))
      .limit(q.limit)
      .offset(q.offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(dispatches)
      .where(condition),
  ]);
  return { items: await present(db, rows), total: total?.n ?? 0 };
}

/** The dispatches of one e-file, for its correspondence side: whoever may see the file (404 otherwise). */
export async function dispatchesOfFile(db: DbOrTx, actor: Actor, efileId: string) {
  await accessFile(db, actor, efileId);
  const rows = await db
    .select()
    .from(dispatches)
    .where(eq(dispatches.efileId, efileId))
    .orderBy(asc(dispatches.itemSeq));
  return present(db, rows);
}

/**
 * One dispatch, for whoever sees it in the register; `own`: the one the actor has just made, shown to them whatever
 * the register would (an uncleared holder of a Confidential file dispatches its letter).
 */
export async function dispatchById(db: DbOrTx, actor: Actor, id: string, own = false): Promise<DispatchJson> {
  const condition = own ? eq(dispatches.id, id) : and(visibleDispatches(actor), eq(dispatches.id, id));
  const rows = await db.select().from(dispatches).where(condition);
  const [one] = await present(db, rows);
  if (!one) throw notFound('dispatch.not_found');
  return one;
}

/** The register's matches as CSV, at most EXPORT_MAX rows, dates the Indian way. */
export async function* dispatchesCsv(db: DbOrTx, actor: Actor, q: Omit<DispatchListQuery, 'limit' | 'offset'>) {
  yield csvLine(['Outward No.', 'Date', 'Mode', 'Subject', 'File', 'Item', 'Recipients', 'Delivery']);
  const { items } = await listDispatches(db, actor, { ...q, limit: EXPORT_MAX, offset: 0 });
  for (const d of items) {
    yield csvLine([
      d.outwardNumber,
      formatDate(d.date),
      MODE_WORDS[d.mode],
      d.subject,
      d.efile.number,
      d.itemSeq === null ? '' : `C/${d.itemSeq}`,
      d.recipients.map((r) => [r.name, r.address, r.email].filter(Boolean).join(', ')).join('; '),
      d.recipients
        .map((r) => r.delivery)
        .filter(Boolean)
        .join('; '),
    ]);
  }
}

/** Rows as the spec's JSON, with their recipients, the delivery of each mail and who dispatched. */
async function present(db: DbOrTx, rows: DispatchRow[]): Promise<DispatchJson[]> {
  if (!rows.length) return [];
  const recipients = await db
    .select()
    .from(dispatchRecipients)
    .where(
      inArray(
        dispatchRecipients.dispatchId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(dispatchRecipients.position));
  const mails = await outboxStatuses(
    db,
    recipients.map((r) => r.mailId).filter((m): m is string => Boolean(m)),
  );
  const people = await namesByIds(
    db,
    rows.map((r) => r.dispatchedBy).filter((u): u is string => Boolean(u)),
  );
  const names = new Map(people.map((p) => [p.id, p.name]));
  const byDispatch = new Map<string, DispatchRecipientRow[]>();
  for (const r of recipients) byDispatch.set(r.dispatchId, [...(byDispatch.get(r.dispatchId) ?? []), r]);
  return rows.map((d) => ({
    _id: d.id,
    outwardNumber: d.outwardNumber,
    serial: d.serial,
    year: d.year,
    date: d.dispatchDate,
    mode: d.mode,
    subject: d.subject,
    classification: d.classification,
    efile: { _id: d.efileId, number: d.efileNumber },
    itemId: d.itemId,
    itemSeq: d.itemSeq,
    fileUrl: fileUrl('efiles', d.fileId)!,
    dispatchedBy: d.dispatchedBy ? (names.get(d.dispatchedBy) ?? null) : null,
    createdAt: new Date(d.createdAt).toISOString(),
    recipients: (byDispatch.get(d.id) ?? []).map((r) => {
      const mail = r.mailId ? mails.get(r.mailId) : undefined;
      return {
        name: r.name,
        address: r.address,
        email: r.email,
        delivery: r.mailId ? (mail?.status ?? 'sent') : null,
        deliveredAt: mail?.doneAt ? mail.doneAt.toISOString() : null,
      };
    }),
  }));
}
