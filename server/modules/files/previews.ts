import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { appendFile, copyFile, mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import { and, eq, sql } from 'drizzle-orm';
import pLimit from 'p-limit';

import type { Db } from '#server/db/client.ts';
import { filePreviews, type FileRow, files } from '#server/db/schema/index.ts';

import { type OcrState, ocrStateOf, searchableCopyId } from './ocr.ts';
import { convertToPdf, imageTools, pdfTools, type ToolConfig, Unavailable } from './preview-tools.ts';
import type { FileStore } from './storage.ts';
import type { Area } from './storage-areas.ts';

/**
 * Document previews (decision 084). Each PDF, image and Office file a person uploads to a document area waits
 * in `file_previews` as pending (a trigger on `files`, migration 0033) until `makePreview`, run by the job queue
 * (previews.jobs.ts), has made its thumbnail (a 320-pixel WebP of a PDF's first page, drawn by poppler's pdftoppm, or of
 * the image) and, for an Office file, the PDF LibreOffice converts it to, each tool in the sandbox (decision 091). A long PDF also gets the viewer's update
 * (pdf-viewer-update.ts, decision 088): appended to its bytes when the viewer reads it, so that its first page shows
 * after a small part of it. Each is a stored file of its own (`files.derived_from`), kept beside the original through
 * the storage driver, served under its download's rules (files.routes.ts) and removed with it
 * (transactionDroppingFiles).
 */
export type PreviewVariant = 'original' | 'pdf' | 'thumbnail';
export type PreviewKind = 'pdf' | 'image' | 'office';

export const OFFICE_EXTENSIONS = ['doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt'] as const;
const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'webp'];

const extensionOf = (name: string) => path.extname(name).slice(1).toLowerCase();

export function previewKind(originalName: string): PreviewKind | null {
  const ext = extensionOf(originalName);
  if (ext === 'pdf') return 'pdf';
  if (IMAGE_EXTENSIONS.includes(ext)) return 'image';
  if ((OFFICE_EXTENSIONS as readonly string[]).includes(ext)) return 'office';
  return null;
}

/** The name a preview is offered under: the document's, as .pdf for its PDF. */
export function previewName(originalName: string, variant: Exclude<PreviewVariant, 'original'>): string {
  const base = path.parse(originalName).name || 'document';
  return variant === 'pdf' ? `${base}.pdf` : `${base}-thumbnail.webp`;
}

/**
 * The stored file a request for this variant of `file` is answered with, or null when there is none (yet). The PDF of
 * a PDF is the file itself (what is watermarked, decision 071); the viewer's update that may follow it is `viewerUpdateOf`.
 */
export async function previewOf(db: Db, file: FileRow, variant: PreviewVariant): Promise<FileRow | null> {
  if (variant === 'original') return file;
  // A scan's searchable copy (decision 113), when OCR made one, is what the viewer shows: its text can be selected and
  // found. Watermarked as the PDF itself would be (files.serve.ts); the download stays the original.
  const searchable = variant === 'pdf' ? await searchableCopyId(db, file.id) : null;
  if (searchable) return derivedCopy(db, file, searchable);
  if (variant === 'pdf' && previewKind(file.originalName) === 'pdf') return file;
  const [preview] = await db.select().from(filePreviews).where(eq(filePreviews.fileId, file.id)).limit(1);
  return derivedCopy(db, file, variant === 'pdf' ? preview?.pdfId : preview?.thumbnailId);
}

/**
 * The viewer's update of a PDF (decision 088): the bytes the viewer reads after the PDF's own, or null when it has
 * none. For a PDF, `file_previews.pdf_id` names this update (an Office file's names the whole PDF it was converted to,
 * its update already appended).
 */
export async function viewerUpdateOf(db: Db, file: FileRow): Promise<FileRow | null> {
  if (previewKind(file.originalName) !== 'pdf') return null;
  if (await searchableCopyId(db, file.id)) return null; // its searchable copy is shown instead (previewOf)
  const [preview] = await db.select().from(filePreviews).where(eq(filePreviews.fileId, file.id)).limit(1);
  return derivedCopy(db, file, preview?.pdfId);
}

async function derivedCopy(db: Db, file: FileRow, id: string | null | undefined): Promise<FileRow | null> {
  if (!id) return null;
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, id), eq(files.derivedFrom, file.id)))
    .limit(1);
  return row ?? null;
}

/** What the viewer is told about a document (GET /api/previews/{area}/{name}). */
export interface PreviewState {
  status: 'ready' | 'pending' | 'unavailable';
  pdfUrl: string | null;
  thumbnailUrl: string | null;
  /** A scan's recognised text (decision 113): waiting, recognised, not needed, or not recognised and why; else null. */
  text: OcrState | null;
}

export async function previewState(db: Db, file: FileRow): Promise<PreviewState> {
  const base = `/uploads/${file.area}/${file.storedName}`;
  const kind = previewKind(file.originalName);
  const [preview] = await db.select().from(filePreviews).where(eq(filePreviews.fileId, file.id)).limit(1);
  const thumbnailUrl = preview?.thumbnailId ? `${base}/thumbnail` : null;
  const text = await ocrStateOf(db, file.id);
  // A scan's searchable copy (an image's too) is read as /pdf (previewOf).
  if (text?.status === 'done' && (await searchableCopyId(db, file.id))) {
    return { status: 'ready', pdfUrl: `${base}/pdf`, thumbnailUrl, text };
  }
  // A PDF with the viewer's update is read as /pdf (its bytes, then the update's); without one, as its download.
  if (kind === 'pdf') return { status: 'ready', pdfUrl: preview?.pdfId ? `${base}/pdf` : base, thumbnailUrl, text };
  if (kind === 'office' && preview?.pdfId) return { status: 'ready', pdfUrl: `${base}/pdf`, thumbnailUrl, text };
  if (kind === 'office' && preview?.status === 'pending') {
    return { status: 'pending', pdfUrl: null, thumbnailUrl, text };
  }
  return { status: 'unavailable', pdfUrl: null, thumbnailUrl, text };
}

export interface PreviewLog {
  info: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
}

export type PreviewOutcome = 'ready' | 'unavailable' | 'skipped';

/** LibreOffice, one conversion at a time on this node: each takes a core and several hundred MB. */
const conversions = pLimit(1);
/** pdf-lib holds a whole PDF in memory, several times its size: one PDF at a time on this node. */
const pdfReading = pLimit(1);

/**
 * Starts of a preview's making that may end without an answer (the server stopped or was killed during it): the next
 * start after them gives it up, so a file that stops the server is never tried again after a restart (decision 091).
 */
export const MAX_PREVIEW_ATTEMPTS = 2;

/**
 * Makes the preview of one pending file: its thumbnail and, for an Office file, its PDF; a long PDF's viewer update
 * (decision 088), when it needs one, is made here too, for an Office file into its PDF. Every tool reading the file
 * runs in the sandbox (preview-tools.ts, decision 091), never in this process. What cannot be made (no LibreOffice, no
 * bwrap for an Office file, larger than PREVIEW_MAX_BYTES, past a limit of the sandbox, an unreadable file, started
 * MAX_PREVIEW_ATTEMPTS times already) leaves the file `unavailable` with the reason; the portal then offers the
 * download alone. A file deleted meanwhile is skipped.
 */
export async function makePreview(
  db: Db,
  store: FileStore,
  config: ToolConfig,
  fileId: string,
  log?: PreviewLog,
): Promise<PreviewOutcome> {
  // Counted before any work, in its own statement: a start that never ends still counts.
  const [started] = await db
    .update(filePreviews)
    .set({ attempts: sql`${filePreviews.attempts} + 1` })
    .where(and(eq(filePreviews.fileId, fileId), eq(filePreviews.status, 'pending')))
    .returning({ attempts: filePreviews.attempts });
  if (!started) return 'skipped';
  const [row] = await db.select().from(files).where(eq(files.id, fileId)).limit(1);
  if (!row) return 'skipped';
  if (started.attempts > MAX_PREVIEW_ATTEMPTS) {
    const reason = `its making was started ${MAX_PREVIEW_ATTEMPTS} times and never ended`;
    log?.info({ file: fileId, attempts: started.attempts - 1 }, 'a preview given up');
    await db
      .update(filePreviews)
      .set({ status: 'unavailable', reason, updatedAt: new Date() })
      .where(eq(filePreviews.fileId, fileId));
    return 'unavailable';
  }
  const file = row;
  const kind = previewKind(file.originalName);
  const work = await mkdtemp(path.join(os.tmpdir(), 'lp-preview-'));
  const made: { kind: 'pdf' | 'thumbnail'; id: string; name: string; mime: string; local: string }[] = [];
  let reason: string | null = null;
  const made1 = (kind: 'pdf' | 'thumbnail', name: string, mime: string, local: string) =>
    made.push({ kind, id: randomUUID(), name: `${file.originalName}.${name}`, mime, local });
  try {
    if (!kind) throw new Unavailable('not a previewed type');
    if (kind === 'office' && file.size > config.preview.maxBytes)
      throw new Unavailable('larger than PREVIEW_MAX_BYTES');
    const original = path.join(work, `original.${extensionOf(file.originalName)}`);
    const body = await store.driver.read(file.area, file.storedName);
    if (!body) throw new Unavailable('the stored file is missing');
    await pipeline(body, createWriteStream(original));
    let tools;
    if (kind === 'office') {
      const pdf = await conversions(() => convertToPdf(original, work, config));
      // The converted PDF is the portal's own copy: the viewer's update is appended to it in place.
      tools = await pdfReading(() => pdfTools(pdf, work, config, { update: true, expectedSize: null }));
      if (tools.answer.tooManyPages) {
        throw new Unavailable(`the converted PDF has more than ${config.sandbox.maxPages} pages`);
      }
      if (tools.update) await appendFile(pdf, await readFile(tools.update));
      made1('pdf', 'preview', 'application/pdf', pdf);
    } else if (kind === 'pdf') {
      // The uploaded PDF is never changed: its update is a file of its own, read after it (decision 088).
      const update = file.size <= config.preview.maxBytes;
      tools = await pdfReading(() => pdfTools(original, work, config, { update, expectedSize: file.size }));
      if (tools.update) made1('pdf', 'update', 'application/octet-stream', tools.update);
      if (tools.answer.tooManyPages) reason = `more than ${config.sandbox.maxPages} pages: no viewer's update`;
    } else {
      tools = await imageTools(original, work, config);
    }
    const { answer } = tools;
    if (answer.update) log?.info({ file: file.id, ...answer.update }, "a PDF's viewer update");
    if (answer.updateError) log?.info({ file: file.id, err: answer.updateError }, 'no viewer update of a PDF');
    if (answer.thumbnailError) log?.info({ file: file.id, err: answer.thumbnailError }, 'no thumbnail of a file');
    if (tools.thumbnail) made1('thumbnail', 'thumbnail', 'image/webp', tools.thumbnail);
  } catch (err) {
    if (!(err instanceof Unavailable)) log?.error({ err, file: file.id }, 'a preview could not be made');
    reason = err instanceof Unavailable ? err.message : (err as Error).message.slice(0, 500);
  }
  try {
    const stored: { id: string; name: string; mime: string; size: number }[] = [];
    for (const m of made) {
      const size = (await stat(m.local)).size;
      const target = store.receivingPath(file.area, m.id);
      await mkdir(path.dirname(target), { recursive: true });
      await copyFile(m.local, target);
      const copy = { id: m.id, area: file.area as Area, originalName: m.name, mimeType: m.mime, size };
      await store.storeReceived({ ...copy, absolutePath: target });
      if (!store.driver.localPath) await rm(target, { force: true });
      stored.push({ id: m.id, name: m.name, mime: m.mime, size });
    }
    const pdf = made.find((m) => m.kind === 'pdf');
    const thumb = made.find((m) => m.kind === 'thumbnail');
    const status = kind === 'office' && !pdf ? 'unavailable' : reason && !thumb ? 'unavailable' : 'ready';
    const saved = await db.transaction(async (tx) => {
      // The document may have gone meanwhile: then nothing is saved and the copies go again.
      const [still] = await tx.select({ id: files.id }).from(files).where(eq(files.id, file.id)).for('update');
      if (!still) return false;
      for (const m of stored) {
        await tx.insert(files).values({
          id: m.id,
          area: file.area,
          storedName: m.id,
          originalName: m.name,
          mimeType: m.mime,
          size: m.size,
          uploadedBy: null,
          derivedFrom: file.id,
        });
      }
      await tx
        .update(filePreviews)
        .set({ status, reason, pdfId: pdf?.id ?? null, thumbnailId: thumb?.id ?? null, updatedAt: new Date() })
        .where(eq(filePreviews.fileId, file.id));
      return true;
    });
    if (!saved) {
      await store.remove(stored.map((m) => ({ area: file.area, id: m.id })));
      return 'skipped';
    }
    return status;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Files still waiting for their preview (the job's backfill). */
export async function pendingPreviewIds(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: filePreviews.fileId })
    .from(filePreviews)
    .where(eq(filePreviews.status, 'pending'))
    .limit(limit);
  return rows.map((r) => r.id);
}
