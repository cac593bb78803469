import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';

import { messageText } from '#shared/messages/index.ts';

import { files, letters, users } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser, letterFields, letterPdf, postLetter } from '#server/test/factories.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';

const STORAGE_FULL = messageText('storage.full');

// Decision 029: a full disk on upload (ENOSPC) was a 500 on every upload route. It is a 507 with the words below
// and `storage.full`, logged once as an error; nothing half-written stays (no file, no row) and reads go on.
// The disk is real: a 1 MB tmpfs mounted on DATA_DIR/uploads (the local driver's home). Mounting needs root (or
// CAP_SYS_ADMIN); without it these tests are skipped, and say so.

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lp-full-'));
const uploads = path.join(dataDir, 'uploads');
mkdirSync(uploads);
let mounted = false;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0750', 'tmpfs', uploads], { stdio: 'ignore' });
  mounted = true;
} catch {
  console.warn('storage-full.test.ts: cannot mount a tmpfs here (not root?); the ENOSPC tests are skipped');
}
afterAll(() => {
  if (mounted) execFileSync('umount', ['-l', uploads]);
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every line the requests logged, as pino wrote them (the test app itself logs nothing). */
const logged: { level: number; msg: string; err?: { code?: string; message?: string } }[] = [];
const log = pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) });

const app = await buildTestApp({ DATA_DIR: dataDir }, async (instance) => {
  instance.addHook('onRequest', async (req) => {
    req.log = log;
  });
});

const freeBytes = () => {
  const s = statfsSync(uploads);
  return s.bavail * s.bsize;
};
/** Fills the disk, leaving `leave` bytes (whole pages) free; returns the filler to remove. */
function fill(leave = 0): string {
  const filler = path.join(uploads, `filler-${Math.random().toString(36).slice(2)}`);
  writeFileSync(filler, Buffer.alloc(Math.max(0, freeBytes() - leave)));
  return filler;
}
/** Every file left in one area of the uploads (a partial one would show here). */
const areaFiles = (area: string) => {
  try {
    return readdirSync(path.join(uploads, area));
  } catch {
    return [];
  }
};
const expectStorageFull = (res: { statusCode: number; json: () => unknown; body: string }) => {
  expect(res.statusCode, res.body).toBe(507);
  expect(res.json()).toEqual({ error: STORAGE_FULL, message: STORAGE_FULL, code: 'storage.full' });
};
const errorsLogged = () => logged.filter((l) => l.level >= 50);

describe.skipIf(!mounted)('a full disk on upload (ENOSPC, local driver)', () => {
  it('a letter larger than the space left: 507, logged once, no file and no row, and reads go on', async () => {
    const owner = await createUser(app);
    const small = await postLetter(app, owner, letterFields(), letterPdf('kept.pdf'));
    expect(small.statusCode, small.body).toBe(201);
    const kept = small.json() as { _id: string; fileUrl: string };
    const before = areaFiles('letters');
    logged.length = 0;

    const big = Buffer.concat([SAMPLE_FILES.pdf, Buffer.alloc(1536 * 1024, 0x20)]);
    const res = await postLetter(app, owner, letterFields(), letterPdf('big.pdf', big));
    expectStorageFull(res);
    expect(errorsLogged()).toHaveLength(1);
    expect(errorsLogged()[0]).toMatchObject({ level: 50, err: { code: 'ENOSPC' } });
    expect(errorsLogged()[0]!.msg).toContain('the storage is full');

    expect(areaFiles('letters')).toEqual(before);
    const rows = await app.db.select().from(letters).where(eq(letters.uploadedBy, owner.id));
    expect(rows.map((r) => r.id)).toEqual([kept._id]);
    expect(await app.db.select().from(files).where(eq(files.uploadedBy, owner.id))).toHaveLength(1);
    // Reads: the register and the stored file.
    const list = await app.inject({ method: 'GET', url: '/api/dac', headers: await authHeaders(app, owner) });
    expect(list.statusCode).toBe(200);
    const file = await app.inject({ method: 'GET', url: kept.fileUrl, headers: await authHeaders(app, owner) });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(SAMPLE_FILES.pdf)).toBe(true);
  });

  it('a disk with no space at all refuses even a small letter, and takes uploads again once space is freed', async () => {
    const owner = await createUser(app);
    const filler = fill();
    try {
      logged.length = 0;
      expectStorageFull(await postLetter(app, owner, letterFields(), letterPdf()));
      expect(errorsLogged()).toHaveLength(1);
      expect(await app.db.select().from(letters).where(eq(letters.uploadedBy, owner.id))).toEqual([]);
    } finally {
      rmSync(filler);
    }
    const res = await postLetter(app, owner, letterFields(), letterPdf());
    expect(res.statusCode, res.body).toBe(201);
  });

  it('a profile photo whose web copy finds the disk full: 507, and neither the upload nor the copy stays', async () => {
    const user = await createUser(app);
    const photo = await sharp({
      create: {
        width: 600,
        height: 600,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 90 })
      .toBuffer();
    const page = statfsSync(uploads).bsize;
    const filler = fill(Math.ceil(photo.length / page) * page); // room for the upload itself, not for its copy
    try {
      logged.length = 0;
      const body = multipart({}, { field: 'photo', filename: 'me.jpg', content: photo });
      const res = await app.inject({
        method: 'POST',
        url: `/api/users/${user.id}/upload-photo`,
        payload: body.payload,
        headers: { ...body.headers, ...(await authHeaders(app, user)) },
      });
      expectStorageFull(res);
      expect(errorsLogged()).toHaveLength(1);
      // The upload was written, its web copy (made in the sandbox, decision 091) could not be stored beside it.
      expect(errorsLogged()[0]!.err).toMatchObject({ message: expect.stringMatching(/no space left on device/i) });
      expect(areaFiles('profile-photos')).toEqual([]);
      const [row] = await app.db.select().from(users).where(eq(users.id, user.id));
      expect(row!.photoFileId).toBeNull();
    } finally {
      rmSync(filler);
    }
  });
});
