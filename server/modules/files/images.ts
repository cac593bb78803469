import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import pLimit from 'p-limit';

import type { Config } from '#server/config.ts';
import { badRequest } from '#server/lib/errors.ts';
import { SandboxFailed, SandboxLimitError } from '#server/lib/sandbox.ts';
import { runNodeParser } from '#server/lib/sandbox-node.ts';

import type { FileStore, StoredFile } from './storage.ts';

/** The wall-clock limit on making one web copy (a 40-megapixel photo takes a few seconds). */
const WEB_IMAGE_SECONDS = 60;

/** The largest image the server decodes: a 40-megapixel camera photo is the biggest the areas need. */
export const MAX_IMAGE_PIXELS = 40_000_000;

/**
 * Image work, one at a time: decoding a large photo takes width x height x 4 bytes (160 MB at 40 megapixels) and
 * libvips already uses every core for one image, so eight photos uploaded at once wait their turn instead of
 * multiplying the server's memory.
 */
export const imageQueue = pLimit(1);

/**
 * Makes a web copy of an uploaded image beside it: at most `maxPx` on its longer side, never enlarged, turned upright
 * from its EXIF orientation, re-encoded as WebP (which also drops the camera's EXIF data, GPS included), and stores it
 * through the storage driver. sharp reads the upload in the sandbox (server/parsers, decision 091), never in the
 * server's process. The caller saves its row or discards it (`withReceivedUpload` does). An image sharp cannot read is
 * refused with 400 on `field`, and so is one of more than MAX_IMAGE_PIXELS (its header is read first, so it is never
 * decoded), or one whose reading passes a limit of the sandbox.
 */
export function makeWebImage(
  store: FileStore,
  sandbox: Config['sandbox'],
  original: StoredFile,
  maxPx: number,
  field: string,
): Promise<StoredFile> {
  return imageQueue(async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'lp-image-'));
    try {
      let answer: { size?: number; error?: 'unreadable' | 'too_large' | 'storage_full' };
      try {
        answer = await runNodeParser({
          bwrap: sandbox.bwrap,
          task: 'web-image',
          input: original.absolutePath,
          inputName: 'image',
          outputDir: work,
          limits: { cpuSeconds: sandbox.cpuSeconds, memoryMb: sandbox.memoryMb, wallSeconds: WEB_IMAGE_SECONDS },
          options: { maxPx, maxPixels: MAX_IMAGE_PIXELS },
        });
      } catch (err) {
        if (err instanceof SandboxLimitError || err instanceof SandboxFailed) {
          throw badRequest('files.image_unreadable', field);
        }
        throw err;
      }
      if (answer.error === 'too_large') {
        throw badRequest('files.image_too_large', field, { max: MAX_IMAGE_PIXELS / 1_000_000 });
      }
      if (answer.error === 'storage_full') throw Object.assign(new Error('no space left'), { code: 'ENOSPC' });
      if (answer.error || answer.size === undefined) throw badRequest('files.image_unreadable', field);
      const id = randomUUID();
      const absolutePath = store.receivingPath(original.area, id);
      await mkdir(path.dirname(absolutePath), { recursive: true });
      try {
        await copyFile(path.join(work, 'web.webp'), absolutePath);
      } catch (err) {
        await rm(absolutePath, { force: true });
        throw err; // a full disk: withReceivedUpload's 507
      }
      const base = path.parse(original.originalName).name.slice(0, 200) || 'photo';
      const web: StoredFile = {
        id,
        area: original.area,
        originalName: `${base}-web.webp`,
        mimeType: 'image/webp',
        size: answer.size,
        absolutePath,
      };
      try {
        await store.storeReceived(web);
      } finally {
        // A staging copy (non-local driver) has done its job: nobody reads the web copy from disk afterwards.
        if (!store.driver.localPath) await rm(absolutePath, { force: true });
      }
      return web;
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
}
