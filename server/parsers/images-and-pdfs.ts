import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

// Packages are imported when a task needs them, or ahead of its file by a process prepared for these tasks
// (loadFileParsers, decision 108): loading sharp and pdf-lib takes most of a small task's time.
const loadSharp = async () => (await import('sharp')).default;
const loadViewerUpdate = () => import('../modules/files/pdf-viewer-update.ts');

/**
 * Loads the packages of the PDF and image tasks (sharp, pdf-lib) before the file arrives, and has sharp read and write
 * one tiny made-up image the way a thumbnail does: libvips' first use (its codecs, its thread pool) is then no part of
 * the file's time. Nothing of any upload is involved. (Running the tasks themselves on made-up files was tried and
 * withdrawn: it left the process too near its memory limit for the file's own work, decision 108's addendum.)
 */
export async function loadFileParsers() {
  const [sharp] = await Promise.all([loadSharp(), loadViewerUpdate()]);
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#808080' } })
    .png()
    .toBuffer();
  await sharp(png).rotate().resize({ width: 4, height: 4, fit: 'inside' }).webp({ quality: 75 }).toBuffer();
}

/** Runs pdftoppm (inside the same sandbox, under the same limits). */
function pdftoppm(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('pdftoppm', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-500)));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`pdftoppm exited with ${code ?? signal}: ${stderr.trim()}`)),
    );
  });
}

const thumbnail = async (source: string, target: string, px: number, maxPixels: number) =>
  (await loadSharp())(source, { limitInputPixels: maxPixels, animated: false })
    .rotate()
    .resize({ width: px, height: px, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 75 })
    .toFile(target);

/**
 * A PDF's preview: its viewer's update (decision 088) into `viewer.update` when `update` asks for one and it needs
 * one, and its first page drawn by pdftoppm as `thumbnail.webp`.
 */
export async function pdfPreview(
  input: string,
  output: string,
  o: { update: boolean; expectedSize: number | null; maxPages: number; thumbnailPx: number; maxPixels: number },
) {
  const answer: {
    update?: { pages: number; treeRebuilt: boolean; pagesPruned: number; bytes: number };
    updateError?: string;
    tooManyPages?: number;
    thumbnail: boolean;
    thumbnailError?: string;
  } = { thumbnail: false };
  // The first page is drawn by pdftoppm (a process of its own) while the update is made here: two cores, one wait.
  const drawn = (async () => {
    // A folder of its own in /tmp (private in the sandbox; shared without it, where another parser may be drawing).
    let pages: string | undefined;
    try {
      pages = await mkdtemp(path.join(os.tmpdir(), 'page-'));
      const page = path.join(pages, 'page');
      await pdftoppm([
        '-png',
        '-f',
        '1',
        '-l',
        '1',
        '-singlefile',
        '-scale-to',
        String(o.thumbnailPx * 2),
        input,
        page,
      ]);
      await thumbnail(`${page}.png`, path.join(output, 'thumbnail.webp'), o.thumbnailPx, o.maxPixels);
      answer.thumbnail = true;
    } catch (err) {
      answer.thumbnailError = String((err as Error).message).slice(0, 300);
    } finally {
      if (pages) await rm(pages, { recursive: true, force: true });
    }
  })();
  if (o.update) {
    const bytes = await readFile(input);
    if (o.expectedSize === null || bytes.length === o.expectedSize) {
      const { TooManyPages, viewerUpdate } = await loadViewerUpdate();
      try {
        const update = await viewerUpdate(bytes, { maxPages: o.maxPages });
        if (update) {
          await writeFile(path.join(output, 'viewer.update'), update.bytes);
          const { pages, treeRebuilt, pagesPruned } = update;
          answer.update = { pages, treeRebuilt, pagesPruned, bytes: update.bytes.length };
        }
      } catch (err) {
        if (err instanceof TooManyPages) answer.tooManyPages = err.pages;
        else answer.updateError = String((err as Error).message).slice(0, 300);
      }
    }
  }
  await drawn;
  return answer;
}

/** An image's thumbnail, `thumbnail.webp`. */
export async function imageThumbnail(input: string, output: string, o: { thumbnailPx: number; maxPixels: number }) {
  try {
    await thumbnail(input, path.join(output, 'thumbnail.webp'), o.thumbnailPx, o.maxPixels);
    return { thumbnail: true };
  } catch (err) {
    return { thumbnail: false, thumbnailError: String((err as Error).message).slice(0, 300) };
  }
}

/**
 * The web copy of an uploaded photo (files/images.ts), `web.webp`: at most `maxPx` on its longer side, upright from
 * its EXIF orientation, re-encoded as WebP (which drops the camera's EXIF data). An image sharp cannot read, or of more
 * than `maxPixels` (read from its header first, so it is never decoded), is refused.
 */
export async function webImage(input: string, output: string, o: { maxPx: number; maxPixels: number }) {
  const sharp = await loadSharp();
  const meta = await sharp(input)
    .metadata()
    .catch(() => undefined);
  if (!meta?.width || !meta.height) return { error: 'unreadable' as const };
  if (meta.width * meta.height > o.maxPixels) return { error: 'too_large' as const };
  try {
    const info = await sharp(input, { limitInputPixels: o.maxPixels })
      .rotate()
      .resize({ width: o.maxPx, height: o.maxPx, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toFile(path.join(output, 'web.webp'));
    return { size: info.size };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOSPC') return { error: 'storage_full' as const };
    return { error: 'unreadable' as const };
  }
}
