import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';

import fastifyStatic from '@fastify/static';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LRUCache } from 'lru-cache';
import rangeParser from 'range-parser';
import { z } from 'zod';

import { messageText, msg } from '#shared/messages/index.ts';

import { prepared } from '#server/db/prepared.ts';
import { type FileRow, files } from '#server/db/schema/index.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import { recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import {
  type ReadContext,
  readContext,
  recordRead,
  refusalsRecorded,
} from '#server/modules/audit-trail/classified-reads.ts';
import { findUserById } from '#server/modules/users/users.queries.ts';
import { type Actor, signedInActor } from '#server/plugins/auth.ts';

import type { ByteRange, StorageDriver } from './drivers/types.ts';
import type { RecordedFile } from './file-access.ts';
import { filesPolicy } from './files.policy.ts';
import { DEFAULT_STAMPER_LIMITS, PdfStamper, StampLimitExceeded, UnstampablePdf } from './pdf-stamp.ts';
import { previewName, previewOf, previewState, type PreviewVariant, viewerUpdateOf } from './previews.ts';
import { type Area, AREAS, PUBLIC_AREAS } from './storage-areas.ts';

/** RFC 6266 Content-Disposition with the original file name, safe for any characters. */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const INLINE = /^(application\/pdf|image\/(png|jpeg|gif|webp)|video\/|text\/plain)/;

/** What @fastify/static works out for a local file: Range/206/416, If-Range, ETag, Last-Modified, If-None-Match/304. */
const SEND_OPTIONS = { acceptRanges: true, etag: true, lastModified: true, cacheControl: false, contentType: false };

/**
 * Public files up to this size (photos, portraits, most notices) are kept in memory after their first reading, up to
 * KEPT_FILES_BYTES in all, least recently used out first: the lab home's photos are asked for by every visitor, and
 * each reading from disk cost three times a cached JSON answer (or a round trip to S3). A stored file never changes
 * (a new upload gets a new name) and every request still looks its row up, so a deleted file is never served.
 */
export const KEPT_FILE_MAX_BYTES = 256 * 1024;
const KEPT_FILES_BYTES = 32 * 1024 * 1024;

/** Does the conditional request name this validator (If-None-Match: a list, or *)? */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === etag || `W/${t}` === etag || t === etag.slice(2);
  });
}

/**
 * GET /uploads/{area}/{fileName}: public areas for everyone, private ones after an access check. The local disk is
 * served by @fastify/static's reply.sendFile after that check (ranges for 2 GB videos and repository ZIPs, resume,
 * ETag and 304 come from the library); an S3 object streams through the portal (decision 022).
 */
export const filesRoutes: FastifyPluginAsyncZod = async (app) => {
  // @fastify/static for downloads alone (the web build is served from memory by web.ts): reply.sendFile with the
  // uploads folder as the root of each call.
  if (!app.hasReplyDecorator('sendFile')) await app.register(fastifyStatic, { serve: false });
  // Classified PDFs are stamped in worker threads, each stamp under STAMP_TIMEOUT_SECONDS (decision 096).
  const stamper = new PdfStamper({ ...DEFAULT_STAMPER_LIMITS, timeoutMs: app.config.stampTimeoutSeconds * 1000 });
  app.addHook('onClose', () => stamper.close());
  const kept = new LRUCache<string, Buffer>({
    maxSize: KEPT_FILES_BYTES,
    sizeCalculation: (bytes) => bytes.length || 1,
  });

  // @fastify/static's own refusals in the portal's words: a range past the end (416, with the file's size).
  // Any refusal is the portal's JSON, not the file: its name goes (Fastify drops the file's type itself).
  app.setErrorHandler((err, _req, reply) => {
    reply.removeHeader('Content-Disposition');
    if ((err as { statusCode?: number }).statusCode !== 416) throw err;
    const range = (err as { headers?: Record<string, string> }).headers?.['Content-Range'];
    if (range) reply.header('Content-Range', range);
    return reply.code(416).send(PAST_END);
  });

  const params = z.object({
    area: z.enum(AREAS, msg('files.not_found')),
    name: z.uuid(msg('files.not_found')),
  });
  // Public areas need no sign-in; a private area authenticates in the handler (decision 048).
  app.get('/uploads/:area/:name', { config: { public: true }, schema: { params } }, (req, reply) =>
    serve(req, reply, req.params, 'original'),
  );
  // The PDF a document is shown as in the viewer (issue 33, decision 084): a PDF itself, or the PDF an Office file
  // was converted to. Under the download's rules, stamped alike (decision 085).
  app.get('/uploads/:area/:name/pdf', { config: { public: true }, schema: { params } }, (req, reply) =>
    serve(req, reply, req.params, 'pdf'),
  );
  // Its thumbnail: under the download's rules, never for classified material (decision 084).
  app.get('/uploads/:area/:name/thumbnail', { config: { public: true }, schema: { params } }, (req, reply) =>
    serve(req, reply, req.params, 'thumbnail'),
  );

  // What the viewer shows for a document: its PDF (itself, or its converted copy: ready), still being converted
  // (pending), or nothing (unavailable: the viewer offers the download). Refused as its download is.
  app.get('/api/previews/:area/:name', { config: { public: true }, schema: { params } }, async (req, reply) => {
    const area = req.params.area as Area;
    const isPublic = PUBLIC_AREAS.has(area);
    if (!isPublic) await app.authenticate(req, reply);
    const [file] = await fileByName(app.db, { area, storedName: req.params.name });
    if (!file || file.derivedFrom) throw notFound('files.not_found');
    if (!isPublic) {
      const actor = signedInActor(req);
      const areaAllows = await app.fileAccess.canDownload(app.db, actor, file);
      filesPolicy.authorize(actor, 'files.download', { areaAllows });
    }
    const state = await previewState(app.db, file);
    // A classified document's first page is never a thumbnail (decision 084).
    if (!isPublic && state.thumbnailUrl && (await app.fileAccess.recordedFile(app.db, file))) state.thumbnailUrl = null;
    return reply.header('Cache-Control', 'private, no-store').send(state);
  });

  async function serve(
    req: FastifyRequest,
    reply: FastifyReply,
    params: { area: string; name: string },
    variant: 'original' | Exclude<PreviewVariant, 'original'>,
  ) {
    const area = params.area as Area;
    const isPublic = PUBLIC_AREAS.has(area);
    if (!isPublic) await app.authenticate(req, reply);
    const [file] = await fileByName(app.db, { area, storedName: params.name });
    if (!file || file.derivedFrom) throw notFound('files.not_found');
    // What is sent: the file itself, or the copy the preview job made of it (its thumbnail, its PDF).
    const sent = await previewOf(app.db, file, variant);
    let downloadId: string | undefined;
    if (!isPublic) {
      const actor = signedInActor(req);
      const allow = async () => {
        const areaAllows = await app.fileAccess.canDownload(app.db, actor, file);
        filesPolicy.authorize(actor, 'files.download', { areaAllows });
      };
      // Classified material (decision 070): the refusal or the download is in the audit trail before any answer.
      const recorded = await app.fileAccess.recordedFile(app.db, file);
      if (recorded) {
        // A thumbnail would show a classified first page unrecorded: there is none to anyone (decision 084). Its
        // request is still refused as the download would be, the fresh check included (decision 095), unrecorded:
        // nothing of the item is read.
        if (variant === 'thumbnail') {
          await allow();
          throw notFound('files.not_found');
        }
        const ctx = readContext(req);
        await refusalsRecorded(app.db, ctx, recorded, recorded.action, allow);
        if (!sent) throw notFound('files.preview_unavailable');
        if (recorded.stamp && sent.mimeType === 'application/pdf') {
          return sendStamped(req, reply, { file, sent, actor, item: recorded, ctx });
        }
        downloadId = (await recordRead(app.db, ctx, recorded, recorded.action, { stamped: false })).id;
      } else {
        await allow();
      }
    }
    if (!sent) throw notFound(variant === 'thumbnail' ? 'files.not_found' : 'files.preview_unavailable');
    // The viewer reads a PDF with its update appended, when it has one (decision 088); never a stamped one (above).
    const update = variant === 'pdf' && sent === file ? await viewerUpdateOf(app.db, file) : null;
    const name = variant === 'original' ? file.originalName : previewName(file.originalName, variant);
    // Public files may be kept an hour by browsers and proxies; private ones never (decision 022). A thumbnail never
    // changes (a new upload is a new file): a year, in the person's own browser only when the file is private.
    const cache =
      variant === 'thumbnail'
        ? `${isPublic ? 'public' : 'private'}, max-age=31536000, immutable`
        : isPublic
          ? 'public, max-age=3600'
          : 'private, no-store';
    reply
      .header('Content-Type', sent.mimeType)
      .header('Content-Disposition', contentDisposition(INLINE.test(sent.mimeType) ? 'inline' : 'attachment', name))
      .header('Cache-Control', cache);
    // A recorded download names its audit event, as a stamped one does (sent as it is: not a PDF, or not stamped).
    if (downloadId) reply.header('X-Download-Id', downloadId);

    const driver = app.storage.driver;
    if (update)
      return sendStreamed(req, reply, { ...update, size: sent.size + update.size }, appended(driver, sent, update));
    if (sent.size <= KEPT_FILE_MAX_BYTES && !req.headers.range && (isPublic || variant === 'thumbnail')) {
      if (answeredUnchanged(req, reply, sent)) return reply;
      const key = `${sent.area}/${sent.storedName}`;
      let bytes = kept.get(key);
      if (!bytes) {
        const stream = await driver.read(sent.area, sent.storedName).catch(() => null);
        if (!stream) throw notFound('files.not_found');
        bytes = await buffer(stream);
        kept.set(key, bytes);
      }
      return reply.header('Content-Length', bytes.length).send(bytes);
    }
    const local = driver.localPath?.(sent.area, sent.storedName);
    if (local) {
      // A row whose bytes are gone answers the portal's 404 rather than @fastify/static's "no such address".
      if (!(await stat(local).catch(() => null))?.isFile()) throw notFound('files.not_found');
      return reply.sendFile(path.basename(local), path.dirname(local), SEND_OPTIONS);
    }
    return sendStreamed(req, reply, sent, driver);
  }

  /**
   * A PDF of a classified item, stamped for this person (decision 071): its bytes read whole, stamped with their name,
   * PIS number, the time and the download id, the download recorded under that id, then the stamped copy sent. Never
   * the original: no range, no validator, no 304, nothing kept. A PDF that cannot be stamped is refused with 422
   * `files.unstampable`, one whose stamp runs out of its thread's time or memory with 422 `files.stamp_too_heavy`
   * (decision 096), each recorded as a failure.
   */
  async function sendStamped(
    req: FastifyRequest,
    reply: FastifyReply,
    {
      file,
      sent,
      actor,
      item,
      ctx,
    }: { file: FileRow; sent: FileRow; actor: Actor; item: RecordedFile; ctx: ReadContext },
  ) {
    const stream = await app.storage.driver.read(sent.area, sent.storedName).catch(() => null);
    if (!stream) throw notFound('files.not_found');
    const original = await buffer(stream);
    const downloadId = randomUUID();
    const person = await findUserById(app.db, actor.id);
    let stamped: Uint8Array;
    try {
      stamped = await stamper.stamp(original, {
        name: actor.name,
        pis: person?.user.pis ?? '',
        at: new Date(),
        downloadId,
      });
    } catch (err) {
      if (!(err instanceof UnstampablePdf || err instanceof StampLimitExceeded)) throw err;
      // Unreadable (decision 071), or over its thread's time or memory (decision 096): refused, never sent unstamped.
      const code = err instanceof UnstampablePdf ? 'files.unstampable' : 'files.stamp_too_heavy';
      req.log.warn({ err, file: file.id, code }, 'a classified PDF could not be stamped: refused');
      await recordAudit(app.db, ctx.who, {
        id: downloadId,
        action: item.action,
        object: item.object,
        classification: item.classification,
        outcome: 'failure',
        details: { code, reason: err.message },
      });
      throw new AppError(422, code);
    }
    await recordRead(app.db, ctx, item, item.action, { stamped: true }, downloadId);
    return (
      reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', contentDisposition('inline', previewName(file.originalName, 'pdf')))
        .header('Cache-Control', 'private, no-store')
        .header('X-Download-Id', downloadId)
        .header('Content-Length', stamped.length)
        // As a stream: @fastify/etag gives a buffer a validator (and would answer 304 for it); a stamped copy has none.
        .send(Readable.from([Buffer.from(stamped.buffer, stamped.byteOffset, stamped.length)]))
    );
  }
};

// Every photo and download looks its file up: built once (db/prepared.ts).
const fileByName = prepared('file_by_area_and_name', (db) =>
  db
    .select()
    .from(files)
    .where(and(eq(files.area, sql.placeholder('area')), eq(files.storedName, sql.placeholder('storedName'))))
    .limit(1),
);

/** A range past the end's 416 (RFC 9110 §15.5.17), in the portal's error shape. */
const PAST_END = {
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
function answeredUnchanged(req: FastifyRequest, reply: FastifyReply, file: FileRow): boolean {
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
async function sendStreamed(req: FastifyRequest, reply: FastifyReply, file: FileRow, driver: StoredBytes) {
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
function appended(driver: StorageDriver, first: FileRow, second: FileRow): StoredBytes {
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
