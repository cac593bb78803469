import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';

import type { OcrFailure, OcrStatus } from '#shared/constants.ts';
import type { OcrFailedJson } from '#shared/schemas/ocr.ts';

import type { Db, DbOrTx } from '#server/db/client.ts';
import { fileOcr, type FileRow, files } from '#server/db/schema/index.ts';

import { NotRecognised, type OcrToolConfig, pdfPages, recognise } from './ocr-tools.ts';
import type { FileStore } from './storage.ts';
import type { Area } from './storage-areas.ts';

/**
 * Text recognised in scans (decision 113). Each PDF or image uploaded as a letter, close-group document, notice,
 * circular or e-file document waits in `file_ocr` as pending (a trigger on `files`, migration 0044) until
 * `recogniseFile`, run by the OCR queue (ocr.jobs.ts) after the extraction and previews of new uploads, has read it in
 * the sandbox: its text reaches the search by trigger (`search_file_text`, under the file's own permission rules), its
 * searchable copy (the scan with a text layer) becomes the PDF the viewer shows. The upload itself is never changed and
 * never waits. A scan that cannot be read is `failed` with the reason, and an admin may queue the failed ones again.
 */
export type OcrOutcome = 'done' | 'not_needed' | 'failed' | 'skipped';

/** Starts of a scan's reading that may end without an answer: the next start after them gives it up (as previews). */
export const MAX_OCR_ATTEMPTS = 2;
/** Text kept per file, as the extraction keeps (decision 015). */
const MAX_CHARS = 100_000;

const extensionOf = (name: string) => path.extname(name).slice(1).toLowerCase();

export interface OcrLog {
  info: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
}

/** Reads one pending scan; a file deleted or read meanwhile is skipped. */
export async function recogniseFile(
  db: Db,
  store: FileStore,
  config: OcrToolConfig,
  fileId: string,
  log?: OcrLog,
): Promise<OcrOutcome> {
  // Counted before any work, in its own statement: a start that never ends still counts.
  const [started] = await db
    .update(fileOcr)
    .set({ attempts: sql`${fileOcr.attempts} + 1` })
    .where(and(eq(fileOcr.fileId, fileId), eq(fileOcr.status, 'pending')))
    .returning({ attempts: fileOcr.attempts });
  if (!started) return 'skipped';
  const [file] = await db.select().from(files).where(eq(files.id, fileId)).limit(1);
  if (!file) return 'skipped';
  const work = await mkdtemp(path.join(os.tmpdir(), 'lp-ocr-'));
  try {
    let result: { pdf: string | null; text: string; pages: number | null };
    try {
      if (started.attempts > MAX_OCR_ATTEMPTS) {
        throw new NotRecognised('unreadable', `its reading was started ${MAX_OCR_ATTEMPTS} times and never ended`);
      }
      result = await readScan(store, config, file, work);
    } catch (err) {
      if (!(err instanceof NotRecognised)) log?.error({ err, file: fileId }, 'a scan could not be read');
      const reason: OcrFailure = err instanceof NotRecognised ? err.reason : 'unreadable';
      log?.info({ file: fileId, reason }, 'text not recognised');
      await finish(db, fileId, {
        status: 'failed',
        reason,
        detail: (err as Error).message.slice(0, 500),
        text: '',
        pdfId: null,
      });
      return 'failed';
    }
    if (!result.pdf) {
      await finish(db, fileId, { status: 'not_needed', reason: null, detail: null, text: '', pdfId: null });
      return 'not_needed';
    }
    const copy = await storeCopy(db, store, file, result.pdf, async (tx, pdfId) => {
      const text = result.text.slice(0, MAX_CHARS);
      await finish(tx, fileId, { status: 'done', reason: null, detail: null, text, pdfId, pages: result.pages });
    });
    return copy ? 'done' : 'skipped';
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The scan's checks (size, encryption, pages), then ocrmypdf. */
async function readScan(store: FileStore, config: OcrToolConfig, file: FileRow, work: string) {
  const { maxBytes, maxPages } = config.ocr;
  if (file.size > maxBytes) {
    throw new NotRecognised('too_large', `larger than OCR_MAX_BYTES (${Math.ceil(maxBytes / 1024 / 1024)} MB)`);
  }
  const ext = extensionOf(file.originalName);
  const original = path.join(work, `scan.${ext}`);
  const body = await store.driver.read(file.area, file.storedName);
  if (!body) throw new NotRecognised('unreadable', 'the stored file is missing');
  await pipeline(body, createWriteStream(original));
  const pages = ext === 'pdf' ? await pdfPages(original, work, config) : 1;
  if (pages > maxPages) {
    throw new NotRecognised('too_many_pages', `${pages} pages, more than OCR_MAX_PAGES (${maxPages})`);
  }
  return { ...(await recognise(original, `scan.${ext}`, work, config)), pages };
}

type Finish = Pick<typeof fileOcr.$inferInsert, 'status' | 'reason' | 'detail' | 'text' | 'pdfId' | 'pages'>;

async function finish(db: DbOrTx, fileId: string, values: Finish) {
  await db
    .update(fileOcr)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(fileOcr.fileId, fileId), eq(fileOcr.status, 'pending')));
}

/**
 * Stores the searchable copy as a file derived from the scan (decision 084's copies: removed with it, kept by the
 * storage driver, in backups) and runs `then` in the same transaction. A scan deleted meanwhile keeps nothing.
 */
async function storeCopy(
  db: Db,
  store: FileStore,
  file: FileRow,
  local: string,
  then: (tx: DbOrTx, id: string) => Promise<void>,
): Promise<boolean> {
  const id = randomUUID();
  const size = (await stat(local)).size;
  const target = store.receivingPath(file.area, id);
  await mkdir(path.dirname(target), { recursive: true });
  await copyFile(local, target);
  const name = `${path.parse(file.originalName).name || 'scan'}.searchable.pdf`;
  await store.storeReceived({
    id,
    area: file.area as Area,
    originalName: name,
    mimeType: 'application/pdf',
    size,
    absolutePath: target,
  });
  if (!store.driver.localPath) await rm(target, { force: true });
  const saved = await db.transaction(async (tx) => {
    const [still] = await tx.select({ id: files.id }).from(files).where(eq(files.id, file.id)).for('update');
    if (!still) return false;
    await tx.insert(files).values({
      id,
      area: file.area,
      storedName: id,
      originalName: name,
      mimeType: 'application/pdf',
      size,
      uploadedBy: null,
      derivedFrom: file.id,
    });
    await then(tx, id);
    return true;
  });
  if (!saved) await store.remove([{ area: file.area, id }]);
  return saved;
}

/** Scans still waiting, oldest first (the job's backfill). */
export async function pendingOcrIds(db: DbOrTx, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: fileOcr.fileId })
    .from(fileOcr)
    .where(eq(fileOcr.status, 'pending'))
    .orderBy(fileOcr.updatedAt)
    .limit(limit);
  return rows.map((r) => r.id);
}

/** What the screens say of a file's text: recognised, waiting, not needed, or not recognised and why. */
export interface OcrState {
  status: OcrStatus;
  reason: OcrFailure | null;
}

export async function ocrStateOf(db: DbOrTx, fileId: string): Promise<OcrState | null> {
  const [row] = await db
    .select({ status: fileOcr.status, reason: fileOcr.reason })
    .from(fileOcr)
    .where(eq(fileOcr.fileId, fileId))
    .limit(1);
  return row ?? null;
}

/** The searchable copy of a scan, when OCR made one: what the viewer shows of it (previews.ts previewOf). */
export async function searchableCopyId(db: DbOrTx, fileId: string): Promise<string | null> {
  const [row] = await db
    .select({ pdfId: fileOcr.pdfId })
    .from(fileOcr)
    .where(and(eq(fileOcr.fileId, fileId), eq(fileOcr.status, 'done')))
    .limit(1);
  return row?.pdfId ?? null;
}

/** How many scans wait and how many failed (the admin's figures). */
export async function ocrCounts(db: DbOrTx): Promise<{ waiting: number; failed: number }> {
  const rows = await db
    .select({ status: fileOcr.status, n: count() })
    .from(fileOcr)
    .where(inArray(fileOcr.status, ['pending', 'failed']))
    .groupBy(fileOcr.status);
  const of = (s: string) => rows.find((r) => r.status === s)?.n ?? 0;
  return { waiting: of('pending'), failed: of('failed') };
}

/** The failed scans, newest first, at most `limit`: what the admin's list shows (the reason, by its code). */
export async function failedOcrFiles(db: DbOrTx, limit: number): Promise<OcrFailedJson[]> {
  const rows = await db
    .select({
      fileId: fileOcr.fileId,
      name: files.originalName,
      area: files.area,
      reason: fileOcr.reason,
      detail: fileOcr.detail,
      at: fileOcr.updatedAt,
    })
    .from(fileOcr)
    .innerJoin(files, eq(files.id, fileOcr.fileId))
    .where(eq(fileOcr.status, 'failed'))
    .orderBy(desc(fileOcr.updatedAt), fileOcr.fileId)
    .limit(limit);
  return rows.map((r) => ({
    ...r,
    reason: r.reason ?? 'unreadable',
    detail: r.detail ?? '',
    at: r.at.toISOString(),
  }));
}

/** Queues every failed scan again (the admin's retry): pending, its attempts from zero; the ids, to queue them. */
export async function retryFailedOcr(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .update(fileOcr)
    .set({ status: 'pending', reason: null, detail: null, attempts: 0, updatedAt: new Date() })
    .where(eq(fileOcr.status, 'failed'))
    .returning({ id: fileOcr.fileId });
  // Told to the queue's listeners at commit, as an upload's scan is.
  const ids = rows.map((r) => r.id).join(',');
  if (ids)
    await db.execute(sql`SELECT pg_notify('file_ocr_pending', id) FROM unnest(string_to_array(${ids}, ',')) AS id`);
  return rows.map((r) => r.id);
}

/**
 * Marks the scans stored before OCR existed (`npm run ocr:backfill`): the upload trigger's rule, `limit` files at a time
 * in id order after `after`, each marked pending and announced to the queue's listeners (`file_ocr_pending`). A run
 * stopped half-way starts again where it likes: a file already marked (or read) is left as it is, and what is pending
 * survives restarts (the queue's backfill at each start). Returns the last id seen, how many were seen and marked.
 */
export async function markStoredScans(db: DbOrTx, after: string | null, limit: number) {
  const result = await db.execute<{ id: string; marked: boolean }>(sql`
    WITH batch AS (
      SELECT f.id FROM files f
      WHERE f.derived_from IS NULL
        AND f.area IN ('letters', 'close-groups', 'notices', 'circulars', 'group-files', 'efiles')
        AND lower(substring(f.original_name FROM '\\.([A-Za-z0-9]+)$')) IN ('pdf', 'png', 'jpg', 'jpeg', 'tif', 'tiff')
        AND (${after}::uuid IS NULL OR f.id > ${after}::uuid)
      ORDER BY f.id LIMIT ${limit}
    ), marked AS (
      INSERT INTO file_ocr (file_id) SELECT id FROM batch ON CONFLICT DO NOTHING RETURNING file_id
    )
    SELECT b.id, EXISTS (SELECT 1 FROM marked m WHERE m.file_id = b.id) AS marked FROM batch b ORDER BY b.id`);
  const marked = result.rows.filter((r) => r.marked).map((r) => r.id);
  if (marked.length) {
    const ids = marked.join(',');
    await db.execute(sql`SELECT pg_notify('file_ocr_pending', id) FROM unnest(string_to_array(${ids}, ',')) AS id`);
  }
  return { last: result.rows.at(-1)?.id ?? null, seen: result.rows.length, marked: marked.length };
}
