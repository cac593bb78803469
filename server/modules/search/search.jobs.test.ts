import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import type { Database } from '#server/db/client.ts';
import { type BackgroundJobs, startBackgroundJobs } from '#server/jobs/job-queue.ts';
import { buildTestApp } from '#server/test/app.ts';
import { pdfWithText, uniqueWord } from '#server/test/documents.ts';
import { createUser, letterFields, letterPdf, postLetter } from '#server/test/factories.ts';

import { pendingFileIds, sharedExtractor } from './extraction.ts';
import { searchJobs } from './search.jobs.ts';

/*
 * The background reading of files (server/main.ts starts it; the other search tests read files themselves). The
 * worker here polls once a minute, so a test that passes within its few seconds shows the queue is read on without
 * waiting out the interval, both after each file of a backlog and for a file queued while the worker is idle.
 */
let app: FastifyInstance;
let database: Database;
let jobs: BackgroundJobs | undefined;
const log = { error: vi.fn(), info: vi.fn() };

beforeAll(async () => {
  app = await buildTestApp({}, async () => {}); // its own database: the queue sees only this file's files
  database = {
    db: app.db,
    pool: app.pgPool,
    kind: app.dbKind,
    url: String(app.pgPool.options.connectionString),
    close: async () => {},
  };
});
afterAll(async () => {
  await jobs?.stop();
  await sharedExtractor().close();
});

async function uploadLetter(word: string) {
  const uploader = await createUser(app, 'employee');
  const res = await postLetter(
    app,
    uploader,
    letterFields({ letterSub: `Queue letter ${word}` }),
    letterPdf('letter.pdf', pdfWithText(`Findings ${word} of the trial`)),
  );
  expect(res.statusCode, res.body).toBe(201);
}

const allRead = () =>
  vi.waitFor(async () => expect(await pendingFileIds(app.db)).toEqual([]), { timeout: 20_000, interval: 100 });

describe('background reading of stored files', () => {
  it('reads a backlog batch after batch, and a file stored later at once, though the worker polls once a minute', async () => {
    // More files than one fetch takes (ten): the second batch is fetched at once too.
    for (let i = 0; i < 12; i++) await uploadLetter(uniqueWord());
    expect(await pendingFileIds(app.db)).toHaveLength(12);

    jobs = await startBackgroundJobs({ database, store: app.storage, config: app.config, log }, [
      searchJobs({ pollingIntervalSeconds: 60 }),
    ]);
    await allRead();

    // The worker is now idle (its next look is a minute away): a new file is queued by its insert's notice and read.
    await uploadLetter(uniqueWord());
    await allRead();
    expect(log.error).not.toHaveBeenCalled();
  }, 60_000);
});
