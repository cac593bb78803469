import type { JobModule } from '#server/jobs/job-queue.ts';
import { startFileQueue } from '#server/jobs/listen-queue-backfill.ts';
import { settlesWithin } from '#server/lib/time-limit.ts';

import { extractFileText, pendingFileIds, sharedExtractor } from './extraction.ts';

/** The queue of files to read (pg-boss, in the portal's own database: schema `pgboss`). */
export const FILE_TEXT_QUEUE = 'file-text';

/**
 * The background work of the search (decision 104's file queue): a pg-boss worker that reads one file at a time, a
 * listener that queues each newly stored file (the database notifies `file_text_pending` at commit), and a backfill
 * that queues every file still pending from before this start. The other API tests run extraction themselves through
 * the same `extractFileText`.
 */
export const searchJobs = (
  /** How often an idle worker looks for files queued by another node (tests set it long). */
  { pollingIntervalSeconds = 1 } = {},
): JobModule => ({
  queues: [{ name: FILE_TEXT_QUEUE, options: { retryLimit: 2, retryDelay: 30 } }],
  start: async (ctx) => {
    const extractor = sharedExtractor(ctx.config.sandbox.bwrap);
    // Files come ten to a fetch (the fetch is the queue's costly statement) and are read one after another; a file
    // that cannot be read is recorded as such, so only a database failure fails the batch, which is retried and skips
    // the files already read.
    const { stopping, listener } = await startFileQueue(ctx, {
      queue: FILE_TEXT_QUEUE,
      channel: 'file_text_pending',
      listenerName: 'file queue listener',
      batchSize: 10,
      pollingIntervalSeconds,
      pending: ({ database }, limit) => pendingFileIds(database.db, limit),
      work: ({ database, store }, fileId) => extractFileText(database.db, store, fileId, extractor),
      words: {
        queued: 'queued files for text extraction',
        queueFailed: 'could not queue a file for reading',
        backfillFailed: 'could not queue pending files',
      },
    });
    return {
      stopping,
      stop: async () => {
        await settlesWithin(listener.close(), 2000);
        if (!(await settlesWithin(extractor.close(), 5000)))
          ctx.log.error({}, 'the text extraction thread did not end within 5 s');
      },
    };
  },
});
