import { count, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyReply, FastifyRequest } from 'fastify';

import type { DbOrTx } from '#server/db/client.ts';

// Lists that answer the spec's array a page at a time say so in headers, never in the body (decision 009; README
// "API"): `X-Total-Count` (every match of the filters, this page's or not) and `Link: <…>; rel="next"` while another
// page follows. A count that stops at a cap (the letters register, the activity log: an exact count of a broad search
// would read every matching row) adds `X-Total-Count-Capped: true`, and X-Total-Count is then the cap.

declare module 'fastify' {
  interface FastifyContextConfig {
    /** This route answers its list a page at a time: the API docs name its paging headers (server/lib/paging.ts). */
    paged?: boolean;
  }
}

export interface PageFacts {
  limit: number;
  offset: number;
  /** Items in this page. */
  count: number;
  /** Matches of the filters, all pages (the cap, when `capped`). */
  total: number;
  /** More than `total` match: the count stopped at its cap. */
  capped?: boolean;
  /** Whether another page follows, when the caller knows it better than the count (a capped count). */
  hasNext?: boolean;
  /** The query parameter that carries the offset (`skip` for the gallery, spec §7). */
  offsetParam?: string;
}

/** The address of the page after this one: the request's own path and query, with the next limit and offset. */
export function nextPageUrl(url: string, limit: number, offset: number, offsetParam = 'offset'): string {
  const parsed = new URL(url, 'http://portal.invalid');
  parsed.searchParams.set('limit', String(limit));
  parsed.searchParams.set(offsetParam, String(offset));
  return `${parsed.pathname}?${parsed.searchParams.toString()}`;
}

/** X-Total-Count (and X-Total-Count-Capped) and, while another page follows, Link rel="next", for the page at `url`. */
export function pagingHeaders(url: string, page: PageFacts): Record<string, string> {
  const headers: Record<string, string> = { 'X-Total-Count': String(page.total) };
  if (page.capped) headers['X-Total-Count-Capped'] = 'true';
  const nextOffset = page.offset + page.count;
  const hasNext = page.hasNext ?? (page.count > 0 && (nextOffset < page.total || Boolean(page.capped)));
  if (hasNext) headers.Link = `<${nextPageUrl(url, page.limit, nextOffset, page.offsetParam)}>; rel="next"`;
  return headers;
}

/** Sets the paging headers of this request's page (pagingHeaders). */
export function sendPagingHeaders(req: FastifyRequest, reply: FastifyReply, page: PageFacts): void {
  reply.headers(pagingHeaders(req.url, page));
}

/**
 * The total when this page shows it without counting: a page shorter than the limit is the last, so everything
 * before it plus its own items is every match. Undefined when a count is needed (a full page, or past the end).
 */
export function totalFromLastPage(page: { limit: number; offset: number }, returned: number): number | undefined {
  return returned < page.limit && (returned > 0 || page.offset === 0) ? page.offset + returned : undefined;
}

/** `select count(*) from table where …`: the same filter as the page, on the same indexes. */
export async function countWhere(db: DbOrTx, table: PgTable, where: SQL | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(table).where(where);
  return row?.n ?? 0;
}

/**
 * The paging headers of one answered page: the total from the page itself when it is the last, else from `countAll`
 * (one count query with the page's filter).
 */
export async function sendPage(
  req: FastifyRequest,
  reply: FastifyReply,
  page: { limit: number; offset: number; offsetParam?: string },
  returned: number,
  countAll: () => Promise<number>,
): Promise<void> {
  const total = totalFromLastPage(page, returned) ?? (await countAll());
  sendPagingHeaders(req, reply, { ...page, count: returned, total });
}
