import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';

import pLimit from 'p-limit';
import sharp, { type OutputInfo } from 'sharp';

import { badRequest } from '#server/lib/errors.ts';

import type { FileStore, StoredFile } from './storage.ts';
import { isStorageFull } from './storage-full.ts';

/** The largest image the server decodes: a 40-megapixel camera photo is the biggest the areas need (issue 12). */
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
 * through the storage driver. The caller saves its row or discards it (`withReceivedUpload` does). An image sharp cannot
 * read is refused with 400 on `field`, and so is one of more than MAX_IMAGE_PIXELS (its header is read first, so it is
 * never decoded).
 */
export function makeWebImage(
  store: FileStore,
  original: StoredFile,
  maxPx: number,
  field: string,
): Promise<StoredFile> {
  return imageQueue(async () => {
    const meta = await sharp(original.absolutePath)
      .metadata()
      .catch(() => undefined);
    if (!meta?.width || !meta.height) throw badRequest('files.image_unreadable', field);
    if (meta.width * meta.height > MAX_IMAGE_PIXELS) {
      throw badRequest('files.image_too_large', field, { max: MAX_IMAGE_PIXELS / 1_000_000 });
    }
    const id = randomUUID();
    const absolutePath = store.receivingPath(original.area, id);
    await mkdir(path.dirname(absolutePath), { recursive: true });
    let info: OutputInfo;
    try {
      info = await sharp(original.absolutePath, { limitInputPixels: MAX_IMAGE_PIXELS })
        .rotate()
        .resize({ width: maxPx, height: maxPx, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 })
        .toFile(absolutePath);
    } catch (err) {
      await rm(absolutePath, { force: true });
      if (isStorageFull(err)) throw err; // withReceivedUpload's 507
      throw badRequest('files.image_unreadable', field);
    }
    const base = path.parse(original.originalName).name.slice(0, 200) || 'photo';
    const web: StoredFile = {
      id,
      area: original.area,
      originalName: `${base}-web.webp`,
      mimeType: 'image/webp',
      size: info.size,
      absolutePath,
    };
    try {
      await store.storeReceived(web);
    } finally {
      // A staging copy (non-local driver) has done its job: nobody reads the web copy from disk afterwards.
      if (!store.driver.localPath) await rm(absolutePath, { force: true });
    }
    return web;
  });
}
