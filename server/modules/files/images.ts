import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { badRequest } from '#server/lib/errors.ts';
import { storedPath, type StoredFile } from './storage.ts';

/**
 * Makes a web copy of an uploaded image beside it: at most `maxPx` on its longer side, never enlarged, turned upright
 * from its EXIF orientation, re-encoded as WebP (which also drops the camera's EXIF data, GPS included). The caller
 * stores or removes it. An image sharp cannot read is refused with 400 on `field`.
 */
export async function makeWebImage(original: StoredFile, maxPx: number, field: string): Promise<StoredFile> {
  const id = randomUUID();
  const absolutePath = storedPath(original.area, id);
  try {
    const info = await sharp(original.absolutePath, { limitInputPixels: 100_000_000 })
      .rotate()
      .resize({ width: maxPx, height: maxPx, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toFile(absolutePath);
    const base = path.parse(original.originalName).name.slice(0, 200) || 'photo';
    return {
      id,
      area: original.area,
      originalName: `${base}-web.webp`,
      mimeType: 'image/webp',
      size: info.size,
      absolutePath,
    };
  } catch {
    await rm(absolutePath, { force: true });
    throw badRequest('The image could not be read. Please choose another photo.', field);
  }
}
