import { rm } from 'node:fs/promises';
import path from 'node:path';

import { inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';

import type { Config } from '#server/config.ts';
import type { Db, DbOrTx, Tx } from '#server/db/client.ts';
import { type FileRow, files } from '#server/db/schema/index.ts';
import { AppError } from '#server/lib/errors.ts';

import { localDriver } from './drivers/local.ts';
import { s3Driver } from './drivers/s3.ts';
import type { StorageDriver } from './drivers/types.ts';
import type { Area } from './storage-areas.ts';
import { isStorageFull } from './storage-full.ts';

/**
 * Where uploads live: <area>/<file id> in the storage driver (decision 017): DATA_DIR/uploads on the local disk (or a
 * network file system every node mounts), or an S3-compatible bucket. The stored name is the files row's UUID, so
 * nothing a client sends ever becomes part of a path or key; the name the user gave the file is kept in the database
 * only.
 */
// The areas: storage-areas.ts; receiving an upload: upload-receive.ts; checking its content: content-check.ts.

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
        throw new AppError(503, 'storage.unavailable');
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
 * The one way a module removes stored files: runs `work` in one transaction, where `dropFiles(ids)` deletes
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
      // The copies the portal made of them (thumbnails, converted PDFs: decision 084) go with them, bytes included.
      dropped.push(
        ...(await tx
          .delete(files)
          .where(inArray(files.derivedFrom, present))
          .returning({ area: files.area, id: files.storedName })),
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
