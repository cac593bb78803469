import { and, count, eq, gt, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import type { SearchAnswerJson } from '#shared/schemas/search.ts';

import type { Database } from '#server/db/client.ts';
import { fileOcr, files, type UserRow } from '#server/db/schema/index.ts';
import { type BackgroundJobs, startBackgroundJobs } from '#server/jobs/job-queue.ts';
import { pendingFileIds, sharedExtractor } from '#server/modules/search/extraction.ts';
import { searchJobs } from '#server/modules/search/search.jobs.ts';
import { buildTestApp } from '#server/test/app.ts';
import { pdfWithText, uniqueWord } from '#server/test/documents.ts';
import { authHeaders, createUser, letterFields, letterPdf, postLetter } from '#server/test/factories.ts';
import { scanPdf } from '#server/test/scans.ts';

import { ocrJobs } from './ocr.jobs.ts';
import { previewJobs } from './previews.jobs.ts';
import { pendingPreviewIds } from './previews.ts';

/*
 * Fairness (decision 113): the text extraction and the preview of a new upload never wait behind a backlog of scans.
 * The portal's own background work runs here (search, previews, OCR with the real ocrmypdf, OCR_CONCURRENCY 1, its
 * work ahead as server/jobs/modules.ts gives it). A backlog of scanned letters is queued; once the first scan's reading
 * has started, a new letter is uploaded; its text is found by the search and its thumbnail is made while the backlog
 * still waits: no other scan started meanwhile, and never more than one at once.
 */
let app: FastifyInstance;
let jobs: BackgroundJobs | undefined;
let director: UserRow;
const log = { error: vi.fn(), info: vi.fn() };

const BACKLOG = 6;

beforeAll(async () => {
  // Its own database: the queues see only this file's files. A scan left reading when the file ends is killed soon.
  app = await buildTestApp({ OCR_CONCURRENCY: '1', OCR_TIMEOUT_SECONDS: '120' }, async () => {});
  director = await createUser(app, 'director');
});
afterAll(async () => {
  await jobs?.stop();
  await sharedExtractor().close();
});

const database = (): Database => ({
  db: app.db,
  pool: app.pgPool,
  kind: app.dbKind,
  url: String(app.pgPool.options.connectionString),
  close: async () => {},
});

async function upload(fields: Record<string, string>, file: ReturnType<typeof letterPdf>) {
  const res = await postLetter(app, director, letterFields(fields), file);
  expect(res.statusCode, res.body).toBe(201);
  const storedName = (res.json().fileUrl as string).split('/').pop()!;
  const [row] = await app.db.select().from(files).where(eq(files.storedName, storedName));
  return { id: row!.id, storedName };
}

/** Scans of the backlog whose reading has started (attempts counted at each start), and those still reading. */
async function scansStarted(ids: string[]) {
  const started = and(inArray(fileOcr.fileId, ids), gt(fileOcr.attempts, 0));
  const [all] = await app.db.select({ n: count() }).from(fileOcr).where(started);
  const [reading] = await app.db
    .select({ n: count() })
    .from(fileOcr)
    .where(and(started, eq(fileOcr.status, 'pending')));
  return { started: all!.n, reading: reading!.n };
}

describe('a new upload and a backlog of scans', () => {
  it('has its text found and its thumbnail made while the backlog waits, one scan read at a time', async () => {
    const backlog: string[] = [];
    for (let i = 0; i < BACKLOG; i++) {
      const scan = { field: 'file', filename: `scan-${i}.pdf`, content: await scanPdf([`en-0${(i % 9) + 1}.png`]) };
      backlog.push((await upload({ letterSub: `Scanned letter ${i}` }, scan)).id);
    }
    jobs = await startBackgroundJobs({ database: database(), store: app.storage, config: app.config, log }, [
      searchJobs({ pollingIntervalSeconds: 60 }),
      previewJobs({ pollingIntervalSeconds: 60 }),
      ocrJobs({
        pollingIntervalSeconds: 60,
        ahead: [
          async ({ database: d }) => (await pendingFileIds(d.db, 1)).length > 0,
          async ({ database: d }) => (await pendingPreviewIds(d.db, 1)).length > 0,
        ],
      }),
    ]);

    // The signal: the first scan's reading has started (after the backlog's own previews and text).
    let mostAtOnce = 0;
    await vi.waitFor(
      async () => {
        const { started, reading } = await scansStarted(backlog);
        mostAtOnce = Math.max(mostAtOnce, reading);
        expect(started).toBeGreaterThan(0);
      },
      { timeout: 120_000, interval: 100 },
    );
    const before = await scansStarted(backlog);

    const word = uniqueWord();
    const fresh = await upload({ letterSub: 'A typed letter' }, letterPdf('typed.pdf', pdfWithText(`Minutes ${word}`)));
    const headers = await authHeaders(app, director);
    await vi.waitFor(
      async () => {
        const { reading } = await scansStarted(backlog);
        mostAtOnce = Math.max(mostAtOnce, reading);
        const found = await app.inject({ url: `/api/search?q=${word}`, headers });
        expect((found.json() as SearchAnswerJson).results.map((r) => r.kind)).toEqual(['letter']);
        const state = await app.inject({ url: `/api/previews/letters/${fresh.storedName}`, headers });
        expect(state.json()).toMatchObject({
          status: 'ready',
          thumbnailUrl: `/uploads/letters/${fresh.storedName}/thumbnail`,
        });
      },
      { timeout: 60_000, interval: 100 },
    );

    // No scan of the backlog started while the new upload's work was waiting, and most of the backlog still waits.
    const after = await scansStarted(backlog);
    expect(after.started).toBe(before.started);
    expect(after.started).toBeLessThan(BACKLOG);
    expect(mostAtOnce).toBeLessThanOrEqual(1);
    expect(log.error).not.toHaveBeenCalled();
  }, 240_000);
});
