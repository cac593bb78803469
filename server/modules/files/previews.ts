import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { appendFile, copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

import { and, eq } from 'drizzle-orm';
import pLimit from 'p-limit';
import sharp from 'sharp';

import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { filePreviews, type FileRow, files } from '#server/db/schema/index.ts';

import { imageQueue, MAX_IMAGE_PIXELS } from './images.ts';
import { viewerUpdate } from './pdf-viewer-update.ts';
import type { FileStore } from './storage.ts';
import type { Area } from './storage-areas.ts';

/**
 * Document previews (issue 33, decision 084). Each PDF, image and Office file a person uploads to a document area waits
 * in `file_previews` as pending (a trigger on `files`, migration 0033) until `makePreview`, run by the job queue
 * (previews.jobs.ts), has made its thumbnail (a 320-pixel WebP of a PDF's first page, drawn by poppler's pdftoppm, or of
 * the image) and, for an Office file, the PDF LibreOffice converts it to. A long PDF also gets the viewer's update
 * (pdf-viewer-update.ts, decision 088): appended to its bytes when the viewer reads it, so that its first page shows
 * after a small part of it. Each is a stored file of its own (`files.derived_from`), kept beside the original through
 * the storage driver, served under its download's rules (files.routes.ts) and removed with it
 * (transactionDroppingFiles).
 */
export type PreviewVariant = 'original' | 'pdf' | 'thumbnail';
export type PreviewKind = 'pdf' | 'image' | 'office';

export const OFFICE_EXTENSIONS = ['doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'odt'] as const;
const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'webp'];
/** The longer side of a thumbnail, in pixels (shown at 160 CSS pixels: sharp on a 2x screen). */
export const THUMBNAIL_PX = 320;

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
 * a PDF is the file itself (what is stamped, decision 071); the viewer's update that may follow it is `viewerUpdateOf`.
 */
export async function previewOf(db: Db, file: FileRow, variant: PreviewVariant): Promise<FileRow | null> {
  if (variant === 'original') return file;
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
}

export async function previewState(db: Db, file: FileRow): Promise<PreviewState> {
  const base = `/uploads/${file.area}/${file.storedName}`;
  const kind = previewKind(file.originalName);
  const [preview] = await db.select().from(filePreviews).where(eq(filePreviews.fileId, file.id)).limit(1);
  const thumbnailUrl = preview?.thumbnailId ? `${base}/thumbnail` : null;
  // A PDF with the viewer's update is read as /pdf (its bytes, then the update's); without one, as its download.
  if (kind === 'pdf') return { status: 'ready', pdfUrl: preview?.pdfId ? `${base}/pdf` : base, thumbnailUrl };
  if (kind === 'office' && preview?.pdfId) return { status: 'ready', pdfUrl: `${base}/pdf`, thumbnailUrl };
  if (kind === 'office' && preview?.status === 'pending') return { status: 'pending', pdfUrl: null, thumbnailUrl };
  return { status: 'unavailable', pdfUrl: null, thumbnailUrl };
}

export interface PreviewLog {
  info: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
}

export type PreviewOutcome = 'ready' | 'unavailable' | 'skipped';

/** LibreOffice, one conversion at a time on this node: each takes a core and several hundred MB. */
const conversions = pLimit(1);
/** pdf-lib holds a whole PDF in memory, several times its size: one at a time on this node. */
const pdfEditing = pLimit(1);

/**
 * Makes the preview of one pending file: its thumbnail and, for an Office file, its PDF; a long PDF's viewer update
 * (decision 088), when it needs one, is made here too, for an Office file into its PDF. What cannot be made (no
 * LibreOffice, larger than PREVIEW_MAX_BYTES, the time-out, an unreadable file) leaves the file `unavailable` with
 * the reason; the portal then offers the download alone. A file deleted meanwhile is skipped.
 */
export async function makePreview(
  db: Db,
  store: FileStore,
  config: Pick<Config, 'preview'>,
  fileId: string,
  log?: PreviewLog,
): Promise<PreviewOutcome> {
  const [row] = await db
    .select({ file: files })
    .from(filePreviews)
    .innerJoin(files, eq(files.id, filePreviews.fileId))
    .where(and(eq(filePreviews.fileId, fileId), eq(filePreviews.status, 'pending')))
    .limit(1);
  if (!row) return 'skipped';
  const file = row.file;
  const kind = previewKind(file.originalName);
  const work = await mkdtemp(path.join(os.tmpdir(), 'lp-preview-'));
  const made: { kind: 'pdf' | 'thumbnail'; id: string; name: string; mime: string; local: string }[] = [];
  let reason: string | null = null;
  try {
    if (!kind) throw new Unavailable('not a previewed type');
    if (kind === 'office' && file.size > config.preview.maxBytes)
      throw new Unavailable('larger than PREVIEW_MAX_BYTES');
    const original = path.join(work, `original.${extensionOf(file.originalName)}`);
    const body = await store.driver.read(file.area, file.storedName);
    if (!body) throw new Unavailable('the stored file is missing');
    await pipeline(body, createWriteStream(original));
    let pdf = kind === 'pdf' ? original : null;
    if (kind === 'office') {
      pdf = await conversions(() => convertToPdf(original, work, config.preview));
      // The converted PDF is the portal's own copy: the viewer's update is appended to it in place.
      const update = await makeViewerUpdate(pdf, null, log, file.id);
      if (update) await appendFile(pdf, update);
      made.push({
        kind: 'pdf',
        id: randomUUID(),
        name: `${file.originalName}.preview`,
        mime: 'application/pdf',
        local: pdf,
      });
    } else if (kind === 'pdf' && file.size <= config.preview.maxBytes) {
      // The uploaded PDF is never changed: its update is a file of its own, read after it (decision 088).
      const update = await makeViewerUpdate(original, file.size, log, file.id);
      if (update) {
        const local = path.join(work, 'viewer.update');
        await writeFile(local, update);
        made.push({
          kind: 'pdf',
          id: randomUUID(),
          name: `${file.originalName}.update`,
          mime: 'application/octet-stream',
          local,
        });
      }
    }
    const thumbnail = path.join(work, 'thumbnail.webp');
    const made1 = await makeThumbnail(pdf ?? original, pdf ? 'pdf' : 'image', work, thumbnail).catch((err: unknown) => {
      log?.info({ err, file: file.id }, 'no thumbnail could be made of a file');
      return false;
    });
    if (made1)
      made.push({
        kind: 'thumbnail',
        id: randomUUID(),
        name: `${file.originalName}.thumbnail`,
        mime: 'image/webp',
        local: thumbnail,
      });
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

class Unavailable extends Error {}

/**
 * The viewer's update of the PDF at `pdf` (pdf-viewer-update.ts, decision 088), or null when it needs none, or
 * pdf-lib cannot read it (the viewer then reads the PDF as it is: slower, never wrong). An uploaded PDF whose stored
 * bytes are not `size` long gets none: its update is read at that offset.
 */
async function makeViewerUpdate(
  pdf: string,
  size: number | null,
  log: PreviewLog | undefined,
  fileId: string,
): Promise<Uint8Array | null> {
  const bytes = await readFile(pdf);
  if (size !== null && bytes.length !== size) return null;
  try {
    const update = await pdfEditing(() => viewerUpdate(bytes));
    if (update) {
      const { pages, treeRebuilt, pagesPruned } = update;
      log?.info({ file: fileId, pages, treeRebuilt, pagesPruned, bytes: update.bytes.length }, "a PDF's viewer update");
    }
    return update?.bytes ?? null;
  } catch (err) {
    log?.info({ err, file: fileId }, 'no viewer update could be made of a PDF');
    return null;
  }
}

/** pdftoppm draws the first page; sharp (one image at a time, images.ts) makes it a WebP. */
async function makeThumbnail(source: string, kind: 'pdf' | 'image', work: string, target: string): Promise<boolean> {
  let image = source;
  if (kind === 'pdf') {
    const prefix = path.join(work, 'page');
    await run(
      'pdftoppm',
      ['-png', '-f', '1', '-l', '1', '-singlefile', '-scale-to', String(THUMBNAIL_PX * 2), source, prefix],
      {
        timeoutMs: 30_000,
      },
    );
    image = `${prefix}.png`;
  }
  await imageQueue(() =>
    sharp(image, { limitInputPixels: MAX_IMAGE_PIXELS, animated: false })
      .rotate()
      .resize({ width: THUMBNAIL_PX, height: THUMBNAIL_PX, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 75 })
      .toFile(target),
  );
  return true;
}

/**
 * LibreOffice headless converts one file to PDF in `work`, with a profile of its own there (two conversions, or a
 * person's own LibreOffice, never share one). It is killed, with every process it started, after the time-out.
 */
async function convertToPdf(
  original: string,
  work: string,
  { soffice, timeoutSeconds }: Config['preview'],
): Promise<string> {
  const out = path.join(work, 'pdf');
  await mkdir(out, { recursive: true });
  const profile = `file://${path.join(work, 'profile')}`;
  try {
    await run(
      soffice,
      [
        `-env:UserInstallation=${profile}`,
        '--headless',
        '--norestore',
        '--convert-to',
        'pdf',
        '--outdir',
        out,
        original,
      ],
      { timeoutMs: timeoutSeconds * 1000 },
    );
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Unavailable('LibreOffice is not installed');
    if (err instanceof TimedOut) throw new Unavailable(`LibreOffice took longer than ${timeoutSeconds} s`);
    throw new Unavailable(`LibreOffice could not convert the file: ${(err as Error).message.slice(0, 300)}`);
  }
  const pdf = (await readdir(out)).find((n) => n.endsWith('.pdf'));
  if (!pdf) throw new Unavailable('LibreOffice made no PDF of the file');
  return path.join(out, pdf);
}

class TimedOut extends Error {}

/** Runs a program in a process group of its own, killed whole (its children too) when it outlasts `timeoutMs`. */
function run(command: string, args: string[], { timeoutMs }: { timeoutMs: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, HOME: os.tmpdir() },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    let timedOut = false;
    const killAll = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killAll();
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) return reject(new TimedOut());
      killAll(); // anything it left behind in its group
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(command)} exited with ${code}: ${stderr.trim()}`));
    });
  });
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
