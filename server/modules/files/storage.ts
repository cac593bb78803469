import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import yauzl from 'yauzl';
import { FILE_TYPES, type FileKind } from '#shared/constants.ts';
import { cleanFileName } from '#shared/format.ts';
import type { Config } from '#server/config.ts';
import type { Db, DbOrTx, Tx } from '#server/db/client.ts';
import { files, type FileRow } from '#server/db/schema/index.ts';
import { AppError, badRequest, tooLarge } from '#server/lib/errors.ts';
import { localDriver } from './drivers/local.ts';
import { s3Driver } from './drivers/s3.ts';
import type { StorageDriver } from './drivers/types.ts';
import { isStorageFull, storageFull } from './storage-full.ts';

/**
 * Where uploads live: <area>/<file id> in the storage driver (decision 017): DATA_DIR/uploads on the local disk (or a
 * network file system every node mounts), or an S3-compatible bucket. The stored name is the files row's UUID, so
 * nothing a client sends ever becomes part of a path or key; the name the user gave the file is kept in the database
 * only.
 */
/** Served without sign-in (lab home, news flash, photos). */
const PUBLIC = ['notices', 'circulars', 'products', 'advertisements', 'photos', 'directors', 'profile-photos'] as const;
/** Served only to those allowed to see the record: each has its module's rule in `app.fileAccess`. */
export const PRIVATE_AREAS = [
  'group-files',
  'user-documents',
  'close-groups',
  'letters',
  'software-repos',
  'trial-repos',
] as const;
export const AREAS = [...PUBLIC, ...PRIVATE_AREAS] as const;
export type Area = (typeof AREAS)[number];
export const PUBLIC_AREAS: ReadonlySet<Area> = new Set<Area>(PUBLIC);

/** The link a client uses for a stored file (relative to the portal's own origin). */
export const fileUrl = (area: string, fileId: string | null | undefined) =>
  fileId ? `/uploads/${area}/${fileId}` : null;

export interface StoredFile {
  id: string;
  area: Area;
  originalName: string;
  mimeType: string;
  size: number;
  /**
   * The received bytes on this machine's disk, for code that reads them while the request runs (content check, image
   * processing). With the local driver this is the stored file itself; with another driver a staging copy under
   * DATA_DIR/incoming that goes when the request ends.
   */
  absolutePath: string;
}

type StorageLog = (details: Record<string, unknown>, message: string) => void;

/**
 * This process's file storage (decision 017): the driver STORAGE names and the folders of DATA_DIR it uses. The app
 * has one as `app.storage` (server/app.ts); scripts that work without an app (backup, restore, demo, benches) make
 * their own with `createStorage(config)`.
 */
export interface FileStore {
  /** The driver every upload, download and delete goes through. */
  readonly driver: StorageDriver;
  /** DATA_DIR/uploads: one folder per area (the local driver's home). */
  readonly uploadsDir: string;
  /** DATA_DIR/incoming: uploads received on this node before they go to a driver that is not the local disk. */
  readonly stagingDir: string;
  /** Where the local driver keeps a stored file (DATA_DIR/uploads/<area>/<id>). */
  storedPath(area: string, id: string): string;
  /** Where a received upload is written: its final place with the local driver, a staging file otherwise. */
  receivingPath(area: string, id: string): string;
  /** Hands a received (and checked) file to the driver; nothing to do when it was written in place. */
  storeReceived(file: StoredFile): Promise<void>;
  /**
   * Takes a received file away again: its stored bytes and any local staging copy. A store that cannot be reached
   * leaves an object that no row references, which the start-up sweep removes.
   */
  discard(file: StoredFile): Promise<void>;
  /** Deletes stored bytes after the rows that named them are gone. Missing files are fine. */
  remove(stored: { area: string; id: string }[]): Promise<void>;
  /** Remembers a staging copy this request made, removed by `releaseReceived` when its response is done. */
  stageFor(req: FastifyRequest, absolutePath: string): void;
  /** onResponse hook (app.ts): drops this request's staging copies; the stored objects stay. */
  releaseReceived(req: FastifyRequest): Promise<void>;
  /** Releases the driver's connections. */
  close(): Promise<void>;
}

/**
 * The storage of DATA_DIR and STORAGE (README "Configuration"): the local driver on DATA_DIR/uploads or the S3
 * bucket; `driver` replaces it (tests and tools that bring their own).
 */
export function createStorage(
  config: Pick<Config, 'dataDir' | 'storage'>,
  opts: { log?: StorageLog; driver?: StorageDriver } = {},
): FileStore {
  const uploadsDir = path.join(config.dataDir, 'uploads');
  const stagingDir = path.join(config.dataDir, 'incoming');
  const driver = opts.driver ?? (config.storage.driver === 's3' ? s3Driver(config.storage) : localDriver(uploadsDir));
  const log = opts.log ?? (() => {});
  /** Staging copies each request made (S3 and other non-local drivers); removed when the response is done. */
  const stagedByRequest = new WeakMap<object, string[]>();
  return {
    driver,
    uploadsDir,
    stagingDir,
    storedPath: (area, id) => path.join(uploadsDir, area, id),
    receivingPath: (area, id) => driver.localPath?.(area, id) ?? path.join(stagingDir, area, id),
    async storeReceived(file) {
      if (driver.localPath?.(file.area, file.id) === file.absolutePath) return;
      try {
        await driver.put(file.area, file.id, file.absolutePath, file.mimeType);
      } catch (err) {
        if (isStorageFull(err)) throw err; // withReceivedUpload's 507, logged there
        log({ err, area: file.area, id: file.id }, `storing an upload in ${driver.description} failed`);
        throw new AppError(503, 'The file store is not available right now. Please try again in a moment.');
      }
    },
    async discard(file) {
      await Promise.all([rm(file.absolutePath, { force: true }), driver.delete(file.area, file.id).catch(() => {})]);
    },
    async remove(stored) {
      await Promise.all(stored.map((f) => driver.delete(f.area, f.id)));
    },
    stageFor(req, absolutePath) {
      const staged = stagedByRequest.get(req.raw) ?? [];
      staged.push(absolutePath);
      stagedByRequest.set(req.raw, staged);
    },
    async releaseReceived(req) {
      const staged = stagedByRequest.get(req.raw);
      if (!staged) return;
      stagedByRequest.delete(req.raw);
      await Promise.all(staged.map((file) => rm(file, { force: true })));
    },
    close: () => driver.close(),
  };
}

/** What the content of a file must look like for each extension (file-type names); `text` means no binary signature. */
const CONTENT: Record<string, { detected: readonly (string | 'text')[]; mime: string }> = {
  pdf: { detected: ['pdf'], mime: 'application/pdf' },
  doc: { detected: ['cfb'], mime: 'application/msword' },
  xls: { detected: ['cfb'], mime: 'application/vnd.ms-excel' },
  ppt: { detected: ['cfb'], mime: 'application/vnd.ms-powerpoint' },
  docx: { detected: ['docx', 'zip'], mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
  xlsx: { detected: ['xlsx', 'zip'], mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  pptx: {
    detected: ['pptx', 'zip'],
    mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  },
  jpg: { detected: ['jpg'], mime: 'image/jpeg' },
  jpeg: { detected: ['jpg'], mime: 'image/jpeg' },
  png: { detected: ['png'], mime: 'image/png' },
  gif: { detected: ['gif'], mime: 'image/gif' },
  webp: { detected: ['webp'], mime: 'image/webp' },
  mp4: { detected: ['mp4', 'm4v', 'mov'], mime: 'video/mp4' },
  webm: { detected: ['webm'], mime: 'video/webm' },
  mkv: { detected: ['mkv'], mime: 'video/x-matroska' },
  avi: { detected: ['avi'], mime: 'video/x-msvideo' },
  mov: { detected: ['mov', 'mp4'], mime: 'video/quicktime' },
  zip: { detected: ['zip'], mime: 'application/zip' },
  rar: { detected: ['rar'], mime: 'application/vnd.rar' },
  '7z': { detected: ['7z'], mime: 'application/x-7z-compressed' },
  gz: { detected: ['gz'], mime: 'application/gzip' },
  tar: { detected: ['tar'], mime: 'application/x-tar' },
  txt: { detected: ['text'], mime: 'text/plain; charset=utf-8' },
};

const extensionOf = (name: string) => path.extname(name).slice(1).toLowerCase();

/** Names the accepted extensions in a refusal the user can act on. */
const typeMessage = (kind: FileKind) => `This file type is not allowed. Allowed types: ${FILE_TYPES[kind].join(', ')}.`;

/** Checks the first bytes of a stored file against its extension: a renamed .exe is refused. */
async function checkContent(absolutePath: string, ext: string, kind: FileKind): Promise<string> {
  const rule = CONTENT[ext];
  if (!rule) throw badRequest(typeMessage(kind), 'file');
  const handle = await open(absolutePath, 'r');
  const head = Buffer.alloc(4100);
  let read: number;
  try {
    ({ bytesRead: read } = await handle.read(head, 0, head.length, 0));
  } finally {
    await handle.close();
  }
  if (read === 0) throw badRequest('The file is empty.', 'file');
  const sample = head.subarray(0, read);
  const detected = await fileTypeFromBuffer(sample);
  const kindFound = detected ? detected.ext : sample.includes(0) ? 'binary' : 'text';
  if (!rule.detected.includes(kindFound) || (OFFICE_PARTS[ext] && !(await hasOfficeParts(absolutePath, ext)))) {
    throw badRequest(`The file's content does not match its .${ext} extension.`, 'file');
  }
  return rule.mime;
}

/** The parts every Office Open XML package of this kind has (ECMA-376 part 2): any other ZIP is not one (issue 13). */
const OFFICE_PARTS: Record<string, string[]> = {
  docx: ['[Content_Types].xml', 'word/document.xml'],
  xlsx: ['[Content_Types].xml', 'xl/workbook.xml'],
  pptx: ['[Content_Types].xml', 'ppt/presentation.xml'],
};
/** Office packages list a few dozen parts; stop reading a directory that goes on far longer. */
const MAX_ZIP_ENTRIES_READ = 10_000;

/** Does this ZIP's central directory name the parts of a .docx/.xlsx/.pptx? Reads the directory only (yauzl). */
function hasOfficeParts(absolutePath: string, ext: string): Promise<boolean> {
  const missing = new Set(OFFICE_PARTS[ext]);
  return new Promise((resolve) => {
    yauzl.open(absolutePath, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return resolve(false);
      let seen = 0;
      const finish = (ok: boolean) => {
        zip.close();
        resolve(ok);
      };
      zip.on('error', () => finish(false));
      zip.on('end', () => finish(missing.size === 0));
      zip.on('entry', (entry: yauzl.Entry) => {
        missing.delete(entry.fileName);
        if (missing.size === 0) return finish(true);
        if (++seen >= MAX_ZIP_ENTRIES_READ) return finish(false);
        zip.readEntry();
      });
      zip.readEntry();
    });
  });
}

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

/**
 * Reads a multipart request: text fields into `fields`, the one file streamed to disk (never held in memory) and
 * checked by extension and content, and stored through `req.server.storage`. On any failure nothing is left.
 */
async function receiveMultipart(
  req: FastifyRequest,
  opts: UploadOptions,
): Promise<{ fields: Record<string, string>; file: StoredFile | null }> {
  if (!req.isMultipart()) throw badRequest('Expected a multipart/form-data request.');
  const store = req.server.storage;
  const fields: Record<string, string> = {};
  let file: StoredFile | null = null;
  const discard = async () => {
    if (file) await store.discard(file);
  };
  try {
    for await (const part of req.parts({ limits: { fileSize: opts.maxBytes, files: 1 } })) {
      if (part.type === 'field') {
        const value = typeof part.value === 'string' ? part.value : String(part.value ?? '');
        if (value.includes('\u0000')) throw badRequest('Text must not contain NUL characters.', part.fieldname);
        fields[part.fieldname] = value;
        continue;
      }
      if (part.fieldname !== opts.fileField || file) {
        part.file.resume();
        throw badRequest(`Unexpected file field "${part.fieldname}".`, part.fieldname);
      }
      if ((part.filename ?? '').includes('\u0000')) {
        part.file.resume();
        throw badRequest('A file name must not contain NUL characters.', opts.fileField);
      }
      // Control and bidirectional characters go; an over-long name is shortened keeping its extension (issue 13).
      const originalName = cleanFileName(path.basename((part.filename || '').replace(/\\/g, '/')));
      const ext = extensionOf(originalName);
      if (!originalName || !(FILE_TYPES[opts.kind] as readonly string[]).includes(ext)) {
        part.file.resume();
        throw badRequest(typeMessage(opts.kind), opts.fileField);
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
      try {
        await pipeline(part.file, createWriteStream(absolutePath, { mode: 0o640 }));
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw tooLarge(`The file is too large. The limit is ${humanSize(opts.maxBytes)}.`);
        }
        throw err;
      }
      // busboy ends a too-long file early and marks it truncated; the limit error itself comes a step later.
      if ((part.file as { truncated?: boolean }).truncated) {
        throw tooLarge(`The file is too large. The limit is ${humanSize(opts.maxBytes)}.`);
      }
      file.mimeType = await checkContent(absolutePath, ext, opts.kind);
      file.size = (await stat(absolutePath)).size;
      // Stored before the caller's transaction, so no transaction waits on the object store; a crash before the row
      // commits leaves an object that the start-up sweep removes.
      await store.storeReceived(file);
    }
  } catch (err) {
    await discard();
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw badRequest('Only one file may be sent.');
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw tooLarge(`The file is too large. The limit is ${humanSize(opts.maxBytes)}.`);
    if (err instanceof AppError) throw err;
    if (code?.startsWith('FST_')) throw badRequest((err as Error).message);
    // busboy's words for a body without a boundary, cut short, or with broken part headers (issue 13).
    if (
      /^Multipart:|Unexpected end of (form|multipart)|Malformed part header|Boundary/i.test(
        (err as Error).message ?? '',
      )
    ) {
      throw badRequest('The upload was incomplete or malformed. Please try again.');
    }
    throw err;
  }
  return { fields, file };
}

/**
 * Every upload route's one way (issue 18): receives the multipart request (`UploadOptions`), runs `handle` with its
 * fields and file, and when anything fails after the file was stored (validation, a refusal, the transaction) takes
 * the file away again, with any copy the handler made of it, so a failed request never leaves an orphan file.
 * A full disk anywhere on the way (the upload, a web copy, the database) is a 507 with `storage.full`, logged here as
 * an error once, for the administrator (issue 28 item 5); reads go on as before.
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

/** Records a stored file in the database (inside the caller's transaction) and returns its row. */
export async function saveFileRow(db: DbOrTx, file: StoredFile, uploadedBy: string | null): Promise<FileRow> {
  const [row] = await db
    .insert(files)
    .values({
      id: file.id,
      area: file.area,
      storedName: file.id,
      originalName: file.originalName,
      mimeType: file.mimeType,
      size: file.size,
      uploadedBy,
    })
    .returning();
  return row!;
}

/** Runs work in a transaction: `db.transaction`, or a module's own wrapper of it (the lab's `labWrite`). */
export type TransactionRunner = <T>(db: Db, work: (tx: Tx) => Promise<T>) => Promise<T>;

/**
 * The one way a module removes stored files (issue 18): runs `work` in one transaction, where `dropFiles(ids)` deletes
 * those file rows; their stored bytes go after the transaction commits. A failure before the commit leaves both; one
 * after it leaves bytes no row names (the start-up sweep removes them), never a row without its file.
 */
export async function transactionDroppingFiles<T>(
  db: Db,
  store: FileStore,
  work: (tx: Tx, dropFiles: (ids: (string | null | undefined)[]) => Promise<void>) => Promise<T>,
  transaction: TransactionRunner = (db, run) => db.transaction(run),
): Promise<T> {
  const dropped: { area: string; id: string }[] = [];
  const result = await transaction(db, (tx) =>
    work(tx, async (ids) => {
      const present = ids.filter((id): id is string => !!id);
      if (!present.length) return;
      dropped.push(
        ...(await tx
          .delete(files)
          .where(inArray(files.id, present))
          .returning({ area: files.area, id: files.storedName })),
      );
    }),
  );
  await store.remove(dropped);
  return result;
}
