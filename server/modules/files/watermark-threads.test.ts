import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';

import { messageText } from '#shared/messages/index.ts';

import { auditEvents, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { pdfWithPages } from '#server/test/documents.ts';
import { authHeaders, createUser, letterFields, postLetter } from '#server/test/factories.ts';

import {
  DEFAULT_WATERMARKER_LIMITS,
  PdfWatermarker,
  UnwatermarkablePdf,
  WatermarkLimitExceeded,
} from './pdf-watermark.ts';

/**
 * Watermarking off the main thread (decision 096): classified PDFs are watermarked in worker threads under a time limit, so a
 * PDF of thousands of pages neither stops the server's answers nor hangs its download: past STAMP_TIMEOUT_SECONDS it is
 * refused with 422 `files.stamp_too_heavy`, recorded as a failed download, and the next download is watermarked as usual.
 */

const work = mkdtempSync(path.join(os.tmpdir(), 'lp-stamp-threads-'));
const watermarkers: PdfWatermarker[] = [];
afterAll(async () => {
  for (const s of watermarkers) await s.close();
  rmSync(work, { recursive: true, force: true });
});

const pagesOfText = (pdf: Uint8Array) => {
  const file = path.join(work, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).split('\f').slice(0, -1);
};
const watermarkFor = (downloadId: string) => ({ name: 'Anjali Deshmukh', pis: '804512', at: new Date(), downloadId });
// 3,000 pages of 0.8 MB: seconds of pdf-lib's work on any machine (10 s on the shared 2-core one).
const longPdf = () => pdfWithPages(Array.from({ length: 3000 }, (_, i) => `Page ${i + 1} of the range survey`));

function watermarker(over: Partial<typeof DEFAULT_WATERMARKER_LIMITS>) {
  const s = new PdfWatermarker({ ...DEFAULT_WATERMARKER_LIMITS, ...over });
  watermarkers.push(s);
  return s;
}

async function until(what: string, ok: () => boolean, ms: number) {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`${what}: not so within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a classified PDF whose stamp takes longer than STAMP_TIMEOUT_SECONDS', () => {
  it('is refused with 422 files.stamp_too_heavy, recorded, while the server answers; the next is stamped', async () => {
    const app: FastifyInstance = await buildTestApp({ STAMP_TIMEOUT_SECONDS: '1' });
    const owner: UserRow = await createUser(app, 'employee', { name: 'Anjali Deshmukh', pis: '804512' });
    const upload = async (content: Buffer) => {
      const res = await postLetter(app, owner, letterFields({ classification: 'Secret' }), {
        field: 'file',
        filename: 'range-survey.pdf',
        content,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { _id: string; fileUrl: string };
    };
    const long = await upload(longPdf());
    const headers = await authHeaders(app, owner);

    // The health check asked again and again while the long PDF is watermarked: every answer within a second.
    let watermarking = true;
    const answers: { status: number; ms: number }[] = [];
    const polling = (async () => {
      while (watermarking) {
        const began = performance.now();
        const res = await app.inject({ url: '/api/health' });
        answers.push({ status: res.statusCode, ms: performance.now() - began });
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const began = performance.now();
    const res = await app.inject({ url: long.fileUrl, headers });
    const tookMs = performance.now() - began;
    watermarking = false;
    await polling;

    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toEqual({
      error: messageText('files.stamp_too_heavy'),
      message: messageText('files.stamp_too_heavy'),
      code: 'files.stamp_too_heavy',
    });
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(tookMs).toBeLessThan(10_000); // stopped at the limit, not run to its end
    expect(answers.length).toBeGreaterThan(2);
    expect(answers.filter((a) => a.status !== 200 || a.ms >= 1000)).toEqual([]);
    const [event] = await app.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.objectId, long._id))
      .orderBy(asc(auditEvents.seq));
    expect(event).toMatchObject({ action: 'letter_downloaded', outcome: 'failure', classification: 'Secret' });
    expect(JSON.parse(event!.details!)).toMatchObject({ code: 'files.stamp_too_heavy' });

    // The thread that ran out of time was ended; the next download gets a new one and its watermark.
    const short = await upload(pdfWithPages(['Minutes of the magazine survey']));
    const ok = await app.inject({ url: short.fileUrl, headers });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(pagesOfText(ok.rawPayload)[0]).toContain('Downloaded by Anjali Deshmukh');
  }, 60_000);
});

describe('the stamping threads', () => {
  it('take stamps one at a time per thread, in turn, and end once idle', async () => {
    const s = watermarker({ threads: 1, idleMs: 200 });
    const ids = ['1b8e6f4a-0000-4000-8000-000000000001', '1b8e6f4a-0000-4000-8000-000000000002'];
    const original = pdfWithPages(['Storage of class 1.1 explosives', 'Annexure']);
    const [a, b] = await Promise.all(ids.map((id) => s.watermark(original, watermarkFor(id))));
    expect(s.threads).toBe(1);
    for (const [pdf, id] of [
      [a!, ids[0]!],
      [b!, ids[1]!],
    ] as const) {
      const pages = pagesOfText(pdf);
      expect(pages).toHaveLength(2);
      for (const page of pages) expect(page.replace(/\s+/g, ' ')).toContain(`Download id ${id}`);
    }
    // The caller's bytes are its own still (a copy went to the thread).
    expect(original.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await until('the idle thread ended', () => s.threads === 0, 5000);
  });

  it('refuse what cannot be stamped, and stop a stamp at the time limit with the thread ended', async () => {
    const s = watermarker({ threads: 1, timeoutMs: 300 });
    await expect(s.watermark(Buffer.from('%PDF-1.7\nnot a PDF\n'), watermarkFor('x'))).rejects.toBeInstanceOf(
      UnwatermarkablePdf,
    );
    const stopped = await s.watermark(longPdf(), watermarkFor('y')).catch((err: unknown) => err);
    expect(stopped).toBeInstanceOf(WatermarkLimitExceeded);
    expect((stopped as WatermarkLimitExceeded).limit).toBe('time');
    expect(s.threads).toBe(0);
  });

  it('stop a stamp that needs more memory than its thread has', async () => {
    const s = watermarker({ threads: 1, memoryMb: 24, timeoutMs: 60_000 });
    const twentyThousand = pdfWithPages(Array.from({ length: 20_000 }, (_, i) => `Page ${i + 1}`));
    const stopped = await s.watermark(twentyThousand, watermarkFor('z')).catch((err: unknown) => err);
    expect(stopped).toBeInstanceOf(WatermarkLimitExceeded);
    expect((stopped as WatermarkLimitExceeded).limit).toBe('memory');
  }, 70_000);
});
