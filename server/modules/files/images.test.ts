import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';

import { pngClaiming } from '#server/test/multipart.ts';

import { imageQueue, makeWebImage, MAX_IMAGE_PIXELS } from './images.ts';
import { createStorage, type StoredFile } from './storage.ts';

const sandbox = { bwrap: 'bwrap', cpuSeconds: 60, memoryMb: 1024, maxPages: 5000 };
const root = mkdtempSync(path.join(os.tmpdir(), 'lp-images-'));
const store = createStorage({ dataDir: root, storage: { driver: 'local' } });
mkdirSync(path.dirname(store.storedPath('photos', 'any')), { recursive: true });
afterAll(() => rmSync(root, { recursive: true, force: true }));

function stored(name: string, content: Buffer): StoredFile {
  const absolutePath = path.join(root, name);
  writeFileSync(absolutePath, content);
  return { id: name, area: 'photos', originalName: name, mimeType: 'image/png', size: content.length, absolutePath };
}

describe('makeWebImage', () => {
  it('works on one image at a time: others wait in the queue', async () => {
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#406080' } })
      .png()
      .toBuffer();
    const jobs = Array.from({ length: 4 }, (_, i) =>
      makeWebImage(store, sandbox, stored(`p${i}.png`, photo), 500, 'photo'),
    );
    expect(imageQueue.activeCount + imageQueue.pendingCount).toBe(4);
    expect(imageQueue.activeCount).toBe(1);
    const made = await Promise.all(jobs);
    expect(made.every((m) => m.mimeType === 'image/webp')).toBe(true);
    expect(imageQueue.activeCount + imageQueue.pendingCount).toBe(0);
  });

  it('refuses an image over the pixel limit from its header, without decoding it', async () => {
    await expect(
      makeWebImage(store, sandbox, stored('huge.png', pngClaiming(10_000, 10_000)), 500, 'photo'),
    ).rejects.toMatchObject({
      statusCode: 400,
      message: 'The image is too large: at most 40 megapixels.',
      code: 'files.image_too_large',
      params: { max: 40 },
      field: 'photo',
    });
    expect(MAX_IMAGE_PIXELS).toBe(40_000_000);
  });
});
