import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import type { FastifyRequest } from 'fastify';

import { FILE_TYPES, type FileKind } from '#shared/constants.ts';
import { cleanFileName } from '#shared/format.ts';

import { AppError, badRequest, tooLarge } from '#server/lib/errors.ts';

import { checkContent, extensionOf, typeNotAllowed } from './content-check.ts';
import type { ScanSession } from './scan-session.ts';
import type { StoredFile } from './storage.ts';
import type { Area } from './storage-areas.ts';
import { isStorageFull, storageFull } from './storage-full.ts';
import { scanTap, scanUpload, startUploadScan } from './upload-scan.ts';

// Receiving an upload: the multipart request read, its one file streamed to disk, checked and stored.

export interface UploadOptions {
  area: Area;
  /** Which extensions are allowed (spec §9). */
  kind: FileKind;
  /** Name of the multipart file field (e.g. "file", "photo", "document"). */
  fileField: string;
  maxBytes: number;
  /**
   * Runs as the file part begins, with the text fields sent before it; throw to refuse before any byte is written
   * (a 1 GB upload to a group the sender may not use). Fields sent after the file are not there yet.
   */
  beforeFile?: (fields: Record<string, string>) => void | Promise<void>;
}

export interface ReceivedUpload {
  fields: Record<string, string>;
  file: StoredFile | null;
  /** Another stored file made from the upload (a resized copy): discarded with it if the handler fails. */
  alsoDiscardOnFailure: (file: StoredFile) => StoredFile;
  /**
   * Keeps `file` instead of the upload (a profile photo keeps only its small copy): the upload goes now, and `file` is
   * the one discarded if the handler fails later.
   */
  replaceWith: (file: StoredFile) => Promise<StoredFile>;
}

/** "25 MB", "2 GB", "64 KB": the limit as the refusal names it. */
export const humanSize = (bytes: number) =>
  bytes >= 1024 ** 3
    ? `${+(bytes / 1024 ** 3).toFixed(1)} GB`
    : bytes >= 1024 ** 2
      ? `${+(bytes / 1024 ** 2).toFixed(1)} MB`
      : `${Math.round(bytes / 1024)} KB`;

/** 413: the file is over this upload's limit (busboy tells it in three ways, the words are the same). */
const fileTooLarge = (maxBytes: number) => tooLarge('storage.too_large', { limit: humanSize(maxBytes) });

/**
 * Reads a multipart request: text fields into `fields`, the one file streamed to disk (never held in memory) and
 * checked by extension and content, and stored through `req.server.storage`. On any failure nothing is left.
 */
async function receiveMultipart(
  req: FastifyRequest,
  opts: UploadOptions,
): Promise<{ fields: Record<string, string>; file: StoredFile | null }> {
  if (!req.isMultipart()) throw badRequest('storage.not_multipart');
  const store = req.server.storage;
  const fields: Record<string, string> = {};
  let file: StoredFile | null = null;
  let scan: ScanSession | null = null;
  const discard = async () => {
    scan?.abort();
    if (file) await store.discard(file);
  };
  try {
    for await (const part of req.parts({ limits: { fileSize: opts.maxBytes, files: 1 } })) {
      if (part.type === 'field') {
        const value = typeof part.value === 'string' ? part.value : String(part.value ?? '');
        if (value.includes('\u0000')) throw badRequest('storage.text_nul', part.fieldname);
        fields[part.fieldname] = value;
        continue;
      }
      if (part.fieldname !== opts.fileField || file) {
        part.file.resume();
        throw badRequest('storage.unexpected_file_field', part.fieldname, { field: part.fieldname });
      }
      if ((part.filename ?? '').includes('\u0000')) {
        part.file.resume();
        throw badRequest('storage.name_nul', opts.fileField);
      }
      // Control and bidirectional characters go; an over-long name is shortened keeping its extension.
      const originalName = cleanFileName(path.basename((part.filename || '').replace(/\\/g, '/')));
      const ext = extensionOf(originalName);
      if (!originalName || !(FILE_TYPES[opts.kind] as readonly string[]).includes(ext)) {
        part.file.resume();
        throw typeNotAllowed(opts.kind, opts.fileField);
      }
      if (opts.beforeFile) {
        try {
          await opts.beforeFile(fields);
        } catch (err) {
          part.file.resume();
          throw err;
        }
      }
      const id = randomUUID();
      const absolutePath = store.receivingPath(opts.area, id);
      await mkdir(path.dirname(absolutePath), { recursive: true });
      if (!store.driver.localPath) store.stageFor(req, absolutePath);
      file = { id, area: opts.area, originalName, mimeType: 'application/octet-stream', size: 0, absolutePath };
      // clamd scans the bytes as they are written, window by window (decision 115).
      scan = startUploadScan(req);
      try {
        await pipeline(part.file, scanTap(scan), createWriteStream(absolutePath, { mode: 0o640 }));
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw fileTooLarge(opts.maxBytes);
        }
        throw err;
      }
      // busboy ends a too-long file early and marks it truncated; the limit error itself comes a step later.
      if ((part.file as { truncated?: boolean }).truncated) {
        throw fileTooLarge(opts.maxBytes);
      }
      file.mimeType = await checkContent(absolutePath, ext, opts.kind);
      file.size = (await stat(absolutePath)).size;
      // clamd's verdict before the file is stored or named by any row (decision 115).
      await scanUpload(req, file, scan);
      scan = null;
      // Stored before the caller's transaction, so no transaction waits on the object store; a crash before the row
      // commits leaves an object that the start-up sweep removes.
      await store.storeReceived(file);
    }
  } catch (err) {
    await discard();
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw badRequest('storage.only_one_file');
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge(opts.maxBytes);
    if (err instanceof AppError) throw err;
    // Another of @fastify/multipart's refusals: its own words, as they came.
    if (code?.startsWith('FST_'))
      throw badRequest('common.unclassified', undefined, { message: (err as Error).message });
    // busboy's words for a body without a boundary, cut short, or with broken part headers.
    if (
      /^Multipart:|Unexpected end of (form|multipart)|Malformed part header|Boundary/i.test(
        (err as Error).message ?? '',
      )
    ) {
      throw badRequest('storage.malformed');
    }
    throw err;
  }
  return { fields, file };
}

/**
 * Every upload route's one way: receives the multipart request (`UploadOptions`), runs `handle` with its
 * fields and file, and when anything fails after the file was stored (validation, a refusal, the transaction) takes
 * the file away again, with any copy the handler made of it, so a failed request never leaves an orphan file.
 * A full disk anywhere on the way (the upload, a web copy, the database) is a 507 with `storage.full`, logged here as
 * an error once, for the administrator (decision 029); reads go on as before.
 */
export async function withReceivedUpload<T>(
  req: FastifyRequest,
  opts: UploadOptions,
  handle: (upload: ReceivedUpload) => Promise<T>,
): Promise<T> {
  try {
    return await receiveAndHandle(req, opts, handle);
  } catch (err) {
    if (!isStorageFull(err)) throw err;
    req.log.error(
      { err, area: opts.area },
      `an upload was refused: the storage is full (${req.server.storage.driver.description})`,
    );
    throw storageFull();
  }
}

async function receiveAndHandle<T>(
  req: FastifyRequest,
  opts: UploadOptions,
  handle: (upload: ReceivedUpload) => Promise<T>,
): Promise<T> {
  const store = req.server.storage;
  const received = await receiveMultipart(req, opts);
  const owned: StoredFile[] = received.file ? [received.file] : [];
  const upload: ReceivedUpload = {
    ...received,
    alsoDiscardOnFailure: (file) => (owned.push(file), file),
    replaceWith: async (file) => {
      await Promise.all(owned.splice(0).map((f) => store.discard(f)));
      owned.push(file);
      return file;
    },
  };
  try {
    return await handle(upload);
  } catch (err) {
    await Promise.all(owned.map((f) => store.discard(f)));
    throw err;
  }
}
