import { Readable } from 'node:stream';

import type { FastifyReply, FastifyRequest } from 'fastify';
import rangeParser from 'range-parser';

import { messageText } from '#shared/messages/index.ts';

import type { FileRow } from '#server/db/schema/index.ts';
import { notFound } from '#server/lib/errors.ts';

import type { ByteRange, StorageDriver } from './drivers/types.ts';

/**
 * Sending a stored file's bytes over HTTP (docs/decisions/022, 088, 105): its validators and the 304, one byte range
 * (206) or a range past the end (416), and a PDF followed by the viewer's update read as one file.
 */

/** Does the conditional request name this validator (If-None-Match: a list, or *)? */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === etag || `W/${t}` === etag || t === etag.slice(2);
  });
}

/** A range past the end's 416 (RFC 9110 §15.5.17), in the portal's error shape. */
export const PAST_END = {
  error: messageText('files.past_end'),
  message: messageText('files.past_end'),
  code: 'files.past_end',
} as const;

/**
 * A stored file never changes (a new upload gets a new name), so its name is its ETag and its row's time its
 * Last-Modified (files kept in memory, S3 objects). Sets both; true when the browser's copy is current and a 304 was
 * sent.
 */
const validatorsOf = (file: FileRow) => ({
  etag: `W/"${file.storedName}"`,
  modified: new Date(Math.floor(file.createdAt.getTime() / 1000) * 1000),
});
export function answeredUnchanged(req: FastifyRequest, reply: FastifyReply, file: FileRow): boolean {
  const { etag, modified } = validatorsOf(file);
  reply.header('ETag', etag).header('Last-Modified', modified.toUTCString()).header('Accept-Ranges', 'bytes');
  if (!matches(req.headers['if-none-match'], etag)) return false;
  reply.code(304).send();
  return true;
}

/** What sendStreamed reads: a storage driver, or two stored files read as one (`appended`). */
type StoredBytes = Pick<StorageDriver, 'read' | 'readRange'>;

/**
 * An object in a store that is not this machine's disk (S3), or a PDF with the viewer's update: streamed through the
 * portal, one byte range as a ranged read: 304 for If-None-Match, the range only while If-Range still names this file.
 */
export async function sendStreamed(req: FastifyRequest, reply: FastifyReply, file: FileRow, driver: StoredBytes) {
  if (answeredUnchanged(req, reply, file)) return reply;
  const { etag, modified } = validatorsOf(file);
  // One byte range (a video's seek, a resumed download) is answered with 206; several, or a malformed header, with
  // the whole file, as RFC 9110 allows; a range past the end with 416.
  const ifRange = String(req.headers['if-range'] ?? '');
  const fresh = !ifRange || ifRange === etag || Date.parse(ifRange) >= modified.getTime();
  const parsed = req.headers.range && fresh ? rangeParser(file.size, req.headers.range, { combine: true }) : undefined;
  if (parsed === -1) {
    reply.removeHeader('Content-Disposition').removeHeader('Content-Type');
    return reply.code(416).header('Content-Range', `bytes */${file.size}`).send(PAST_END);
  }
  const range = Array.isArray(parsed) && parsed.type === 'bytes' && parsed.length === 1 ? parsed[0] : undefined;
  const body = range
    ? await driver.readRange(file.area, file.storedName, range)
    : await driver.read(file.area, file.storedName);
  if (!body) throw notFound('files.not_found');
  if (range) reply.code(206).header('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
  return reply.header('Content-Length', range ? range.end - range.start + 1 : file.size).send(body);
}

/**
 * A stored file followed by another, read as one (a PDF and the viewer's update, decision 088): a range is read from
 * either or both. Its validators are the second file's (sendStreamed): both are immutable, and the second is made from
 * the first alone.
 */
export function appended(driver: StorageDriver, first: FileRow, second: FileRow): StoredBytes {
  const readRange = async (_area: string, _id: string, { start, end }: ByteRange): Promise<Readable | null> => {
    const parts: (Readable | null)[] = [];
    if (start < first.size) {
      parts.push(await driver.readRange(first.area, first.storedName, { start, end: Math.min(end, first.size - 1) }));
    }
    if (end >= first.size) {
      const range = { start: Math.max(start - first.size, 0), end: end - first.size };
      parts.push(await driver.readRange(second.area, second.storedName, range));
    }
    // Both opened before the answer starts: a missing one is the portal's 404, not a response cut short.
    if (parts.some((part) => !part)) {
      for (const part of parts) part?.destroy();
      return null;
    }
    return Readable.from(inTurn(parts as Readable[]), { objectMode: false });
  };
  return {
    read: (area, id) => readRange(area, id, { start: 0, end: first.size + second.size - 1 }),
    readRange,
  };
}

async function* inTurn(streams: Readable[]): AsyncGenerator<Buffer> {
  try {
    for (const stream of streams) yield* stream;
  } finally {
    for (const stream of streams) stream.destroy(); // the answer ended early (a closed connection): release them
  }
}
