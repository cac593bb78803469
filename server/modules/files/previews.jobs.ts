import type { JobModule } from '#server/jobs/job-queue.ts';
import { startFileQueue } from '#server/jobs/listen-queue-backfill.ts';
import { settlesWithin } from '#server/lib/time-limit.ts';

import { makePreview, pendingPreviewIds } from './previews.ts';

/** The queue of documents whose preview is to be made (pg-boss, in the portal's own database: schema `pgboss`). */
export const FILE_PREVIEW_QUEUE = 'file-preview';

/**
 * The background work of document previews (decisions 084, 104): a pg-boss worker that makes one preview at a time on
 * each node (LibreOffice one conversion at a time: previews.ts), a listener that queues each newly stored document
 * (the database notifies `file_preview_pending` at commit) and a backfill of what is still pending from before this
 * start (a restore's documents too, decision 086).
 */
export const previewJobs = ({ pollingIntervalSeconds = 2 } = {}): JobModule => ({
  queues: [{ name: FILE_PREVIEW_QUEUE, options: { retryLimit: 1, retryDelay: 60 } }],
  start: async (ctx) => {
    const { stopping, listener } = await startFileQueue(ctx, {
      queue: FILE_PREVIEW_QUEUE,
      channel: 'file_preview_pending',
      listenerName: 'preview queue listener',
      batchSize: 1,
      pollingIntervalSeconds,
      pending: ({ database }, limit) => pendingPreviewIds(database.db, limit),
      work: ({ database, store, config, log }, fileId) => makePreview(database.db, store, config, fileId, log),
      words: {
        queued: 'queued documents for their previews',
        queueFailed: 'could not queue a document preview',
        backfillFailed: 'could not queue pending previews',
      },
    });
    return {
      stopping,
      stop: async () => {
        await settlesWithin(listener.close(), 2000);
      },
    };
  },
});
