import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';

import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';

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

import type { RecordedFile } from './file-access.ts';
import { filesPolicy } from './files.policy.ts';
import { answeredUnchanged, appended, sendStreamed } from './files.send.ts';
import {
  DEFAULT_WATERMARKER_LIMITS,
  PdfWatermarker,
  UnwatermarkablePdf,
  WatermarkLimitExceeded,
} from './pdf-watermark.ts';
import { previewName, previewOf, type PreviewVariant, viewerUpdateOf } from './previews.ts';
import { type Area, PUBLIC_AREAS } from './storage-areas.ts';

/**
 * Serving a stored file (docs/decisions/022, 105): GET /uploads/{area}/{fileName} and its PDF and thumbnail
 * (files.routes.ts). A private area's file after the access check, a classified one recorded in the audit trail and,
 * when a PDF, watermarked for the person (decisions 070-071); the local disk by @fastify/static, small public files from
 * memory, anything else streamed (files.send.ts).
 */

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

// Every photo and download looks its file up: built once (db/prepared.ts).
export const fileByName = prepared('file_by_area_and_name', (db) =>
  db
    .select()
    .from(files)
    .where(and(eq(files.area, sql.placeholder('area')), eq(files.storedName, sql.placeholder('storedName'))))
    .limit(1),
);

/** The file server of one app: `serve` answers a request for a stored file; `close` stops the watermark's threads. */
export function fileServer(app: FastifyInstance) {
  // Classified PDFs are watermarked in worker threads, each watermark under STAMP_TIMEOUT_SECONDS (decision 096).
  const watermarker = new PdfWatermarker({
    ...DEFAULT_WATERMARKER_LIMITS,
    timeoutMs: app.config.watermarkTimeoutSeconds * 1000,
  });
  const kept = new LRUCache<string, Buffer>({
    maxSize: KEPT_FILES_BYTES,
    sizeCalculation: (bytes) => bytes.length || 1,
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
        // request is still refused as the download would be, the step-up included (decision 095), unrecorded:
        // nothing of the item is read.
        if (variant === 'thumbnail') {
          await allow();
          throw notFound('files.not_found');
        }
        const ctx = readContext(req);
        await refusalsRecorded(app.db, ctx, recorded, recorded.action, allow);
        if (!sent) throw notFound('files.preview_unavailable');
        if (recorded.watermark && sent.mimeType === 'application/pdf') {
          return sendWatermarked(req, reply, { file, sent, actor, item: recorded, ctx });
        }
        downloadId = (await recordRead(app.db, ctx, recorded, recorded.action, { stamped: false })).id;
      } else {
        await allow();
      }
    }
    if (!sent) throw notFound(variant === 'thumbnail' ? 'files.not_found' : 'files.preview_unavailable');
    // The viewer reads a PDF with its update appended, when it has one (decision 088); never a watermarked one (above).
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
    // A recorded download names its audit event, as a watermarked one does (sent as it is: not a PDF, or not watermarked).
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
   * A PDF of a classified item, watermarked for this person (decision 071): its bytes read whole, watermarked with their name,
   * PIS number, the time and the download id, the download recorded under that id, then the watermarked copy sent. Never
   * the original: no range, no validator, no 304, nothing kept. A PDF that cannot be watermarked is refused with 422
   * `files.unstampable`, one whose watermark runs out of its thread's time or memory with 422 `files.stamp_too_heavy`
   * (decision 096), each recorded as a failure.
   */
  async function sendWatermarked(
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
    let watermarked: Uint8Array;
    try {
      watermarked = await watermarker.watermark(original, {
        name: actor.name,
        pis: person?.user.pis ?? '',
        at: new Date(),
        downloadId,
      });
    } catch (err) {
      if (!(err instanceof UnwatermarkablePdf || err instanceof WatermarkLimitExceeded)) throw err;
      // Unreadable (decision 071), or over its thread's time or memory (decision 096): refused, never sent without its watermark.
      const code = err instanceof UnwatermarkablePdf ? 'files.unstampable' : 'files.stamp_too_heavy';
      req.log.warn({ err, file: file.id, code }, 'a classified PDF could not be watermarked: refused');
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
        .header('Content-Length', watermarked.length)
        // As a stream: @fastify/etag gives a buffer a validator (and would answer 304 for it); a watermarked copy has none.
        .send(Readable.from([Buffer.from(watermarked.buffer, watermarked.byteOffset, watermarked.length)]))
    );
  }

  return { serve, close: () => watermarker.close() };
}
