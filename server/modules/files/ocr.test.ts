import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';

import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';

import { MARK_END, MARK_START, type SearchAnswerJson } from '#shared/schemas/search.ts';

import { fileOcr, files, type UserRow } from '#server/db/schema/index.ts';
import { extractPendingFiles } from '#server/modules/search/extraction.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser, letterFields } from '#server/test/factories.ts';
import { multipart, type MultipartFile } from '#server/test/multipart.ts';
import { scanPdf } from '#server/test/scans.ts';

import { pendingOcrIds, recogniseFile } from './ocr.ts';
import type { OcrToolConfig } from './ocr-tools.ts';

/**
 * Scanned letters made searchable (decision 113), with the real ocrmypdf and Tesseract in the sandbox: a Devanagari
 * word found only inside a scan is found by those who may open the letter and by no one else; a Secret scan's text only
 * by cleared readers, never as a snippet; the viewer shows the searchable copy and the download stays the original;
 * each reason a scan is not read is kept, and the upload has succeeded all the same.
 */

let app: FastifyInstance;
let admin: UserRow;
beforeAll(async () => {
  app = await buildTestApp();
  admin = await createUser(app, 'admin');
});

async function upload(who: UserRow, url: string, fields: Record<string, string>, file: MultipartFile) {
  const body = multipart(fields, file);
  const res = await app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, ...(await authHeaders(app, who)) },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

async function search(who: UserRow, q: string) {
  const res = await app.inject({ url: `/api/search?q=${encodeURIComponent(q)}`, headers: await authHeaders(app, who) });
  expect(res.statusCode).toBe(200);
  return (res.json() as SearchAnswerJson).results;
}

/** A real OCR of a page: a quarter of a minute of a core, several times that on a busy machine. */
const OCR_TEST_MS = 240_000;

/** A failure's own run: pdfinfo in the sandbox, and ocrmypdf killed after a second. */
const FAILURE_TEST_MS = 120_000;

/** What the job does: the extraction of new uploads first, then every pending scan. */
async function recognisePending(config: OcrToolConfig = app.config) {
  await extractPendingFiles(app.db, app.storage);
  const outcomes = [];
  for (const id of await pendingOcrIds(app.db, 100))
    outcomes.push(await recogniseFile(app.db, app.storage, config, id));
  return outcomes;
}

const scanFile = async (filename: string, pages: string[], password?: string): Promise<MultipartFile> => ({
  field: 'file',
  filename,
  content: await scanPdf(pages, { password }),
});

const ocrOf = async (fileUrl: string) => {
  const storedName = fileUrl.split('/').pop()!;
  const [file] = await app.db.select().from(files).where(eq(files.storedName, storedName));
  const [row] = await app.db.select().from(fileOcr).where(eq(fileOcr.fileId, file!.id));
  return { file: file!, ocr: row! };
};

describe('a scanned letter', () => {
  it(
    'is found by a Devanagari word of its scan by the officer who may open it, not by an outsider',
    async () => {
      const director = await createUser(app, 'director');
      const outsider = await createUser(app, 'employee');
      const scan = await scanFile('scan.pdf', ['hi-01.png']);
      const letter = await upload(director, '/api/dac', letterFields({ letterSub: 'Estate office' }), scan);
      const fileUrl = letter.fileUrl as string;
      expect(await search(director, 'अनापत्ति')).toEqual([]);
      expect(await recognisePending()).toEqual(['done']);

      const [hit, ...more] = await search(director, 'अनापत्ति');
      expect(more).toEqual([]);
      expect(hit).toMatchObject({ kind: 'letter' });
      expect(hit!.snippet).toContain(`${MARK_START}अनापत्ति${MARK_END}`);
      expect(await search(outsider, 'अनापत्ति')).toEqual([]);

      // The viewer shows the searchable copy (its text layer holds the word); the download is the original, unchanged.
      const headers = await authHeaders(app, director);
      const state = await app.inject({ url: `/api/previews/letters/${fileUrl.split('/').pop()}`, headers });
      expect(state.json()).toMatchObject({ status: 'ready', pdfUrl: `${fileUrl}/pdf`, text: { status: 'done' } });
      const shown = await app.inject({ url: `${fileUrl}/pdf`, headers });
      expect(shown.statusCode).toBe(200);
      const layer = execFileSync('pdftotext', ['-', '-'], { input: shown.rawPayload }).toString();
      expect(layer).toContain('अनापत्ति');
      const original = await app.inject({ url: fileUrl, headers });
      const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
      expect(sha(original.rawPayload)).toBe(sha(scan.content as Buffer));
      expect(execFileSync('pdftotext', ['-', '-'], { input: original.rawPayload }).toString().trim()).toBe('');
    },
    OCR_TEST_MS,
  );
});

describe('a Confidential scanned letter', () => {
  it(
    'is downloaded watermarked, as before, and its searchable copy is shown watermarked with its text layer',
    async () => {
      const director = await createUser(app, 'director', { name: 'Kiran Rao', pis: '550123' });
      const scan = await scanFile('confidential scan.pdf', ['en-02.png']);
      const letter = await upload(director, '/api/dac', letterFields({ classification: 'Confidential' }), scan);
      expect(await recognisePending()).toEqual(['done']);
      const headers = await authHeaders(app, director);
      const textOf = (pdf: Buffer) => execFileSync('pdftotext', ['-', '-'], { input: pdf }).toString();

      // The download: the original scan (no text of its own) with the watermark drawn over it.
      const downloaded = await app.inject({ url: letter.fileUrl as string, headers });
      expect(downloaded.statusCode, downloaded.body).toBe(200);
      expect(downloaded.headers['x-download-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(textOf(downloaded.rawPayload)).toContain('PIS 550123');
      expect(textOf(downloaded.rawPayload)).not.toContain('extinguishers');

      // The viewer's PDF: the searchable copy, watermarked alike, its recognised words still there.
      const shown = await app.inject({ url: `${letter.fileUrl as string}/pdf`, headers });
      expect(shown.statusCode, shown.body).toBe(200);
      expect(shown.headers['x-download-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(textOf(shown.rawPayload)).toContain('PIS 550123');
      expect(textOf(shown.rawPayload)).toContain('extinguishers');
    },
    OCR_TEST_MS,
  );
});

describe('a Secret scan in a close group', () => {
  it(
    'is found by its text only by cleared readers and the admin, with no snippet',
    async () => {
      const alice = await createUser(app, 'employee', { classifiedClearance: true });
      const bob = await createUser(app, 'employee');
      const carol = await createUser(app, 'employee', { classifiedClearance: true });
      const today = new Date().toISOString().slice(0, 10);
      const made = await app.inject({
        method: 'POST',
        url: '/admin/close-group',
        headers: await authHeaders(app, admin),
        payload: {
          groupName: 'Estate review',
          groupPurpose: 'Review the estate.',
          groupDuration: { from: '2020-01-01', to: `${Number(today.slice(0, 4)) + 1}-12-31` },
          requestedBy: [alice.id, bob.id, carol.id],
          adminRemarks: '',
        },
      });
      expect(made.statusCode, made.body).toBe(201);
      const scan = await scanFile('Secret scan.pdf', ['en-03.png']);
      await upload(
        alice,
        `/api/close-groups/${made.json()._id}/upload`,
        { classification: 'Secret' },
        {
          ...scan,
          field: 'document',
        },
      );
      expect(await recognisePending()).toEqual(['done']);
      for (const who of [alice, carol, admin]) {
        const hits = (await search(who, 'hazardous chemicals')).filter((r) => r.kind === 'close-group-document');
        expect(hits).toHaveLength(1);
        expect(hits[0]).toMatchObject({ title: 'Secret scan.pdf', snippet: '' });
      }
      expect(await search(bob, 'hazardous chemicals')).toEqual([]);
    },
    OCR_TEST_MS,
  );
});

describe('a scan that cannot be read', () => {
  const failing = async (
    filename: string,
    pages: string[],
    config: Partial<OcrToolConfig['ocr']>,
    password?: string,
  ) => {
    const director = await createUser(app, 'director');
    const letter = await upload(director, '/api/dac', letterFields(), await scanFile(filename, pages, password));
    // The upload succeeded; the scan's text is not recognised, with the reason.
    const { file } = await ocrOf(letter.fileUrl as string);
    const limits = { ...app.config, ocr: { ...app.config.ocr, ...config } };
    expect(await recogniseFile(app.db, app.storage, limits, file.id)).toBe('failed');
    return (await ocrOf(letter.fileUrl as string)).ocr;
  };

  it(
    'is encrypted',
    async () => {
      expect(await failing('locked.pdf', ['en-01.png'], {}, 'secret')).toMatchObject({
        status: 'failed',
        reason: 'encrypted',
        detail: 'the PDF is encrypted',
      });
    },
    FAILURE_TEST_MS,
  );
  it(
    'has more pages than OCR_MAX_PAGES',
    async () => {
      expect(await failing('long.pdf', ['en-01.png', 'en-02.png'], { maxPages: 1 })).toMatchObject({
        reason: 'too_many_pages',
        detail: '2 pages, more than OCR_MAX_PAGES (1)',
      });
    },
    FAILURE_TEST_MS,
  );
  it(
    'is larger than OCR_MAX_BYTES',
    async () => {
      expect(await failing('big.pdf', ['en-01.png'], { maxBytes: 1000 })).toMatchObject({
        reason: 'too_large',
        detail: 'larger than OCR_MAX_BYTES (1 MB)',
      });
    },
    FAILURE_TEST_MS,
  );
  it(
    'takes longer than OCR_TIMEOUT_SECONDS',
    async () => {
      expect(await failing('slow.pdf', ['en-01.png'], { timeoutSeconds: 1 })).toMatchObject({
        reason: 'timed_out',
        detail: 'took longer than OCR_TIMEOUT_SECONDS (1 s)',
      });
    },
    FAILURE_TEST_MS,
  );
  it(
    'meets no ocrmypdf',
    async () => {
      expect(await failing('none.pdf', ['en-01.png'], { program: '/nonexistent/ocrmypdf' })).toMatchObject({
        reason: 'ocr_missing',
        detail: '/nonexistent/ocrmypdf is not installed',
      });
    },
    FAILURE_TEST_MS,
  );
});
