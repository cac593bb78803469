import type { JobContext, JobModule } from '#server/jobs/job-queue.ts';
import { startFileQueue } from '#server/jobs/listen-queue-backfill.ts';
import { settlesWithin } from '#server/lib/time-limit.ts';

import { pendingOcrIds, recogniseFile } from './ocr.ts';

/** The queue of scans whose text is to be recognised (pg-boss, in the portal's own database: schema `pgboss`). */
export const FILE_OCR_QUEUE = 'file-ocr';

/** Work that goes before OCR: whether any is waiting (the search's text extraction, the previews). */
export type WorkAhead = (ctx: JobContext) => Promise<boolean>;

/** How often a scan's reading looks again whether the work ahead of it is done. */
const AHEAD_CHECK_MS = 2000;
/** The longest a scan waits for the work ahead (a backlog no node works on must not stop OCR for ever). */
const AHEAD_MAX_WAIT_MS = 10 * 60_000;

/**
 * The background work of OCR (decisions 104, 113): a pg-boss worker reading OCR_CONCURRENCY scans at once on each
 * node, a listener that queues each newly stored scan (the database notifies `file_ocr_pending` at commit) and a
 * backfill of what is still pending from before this start (the backfill command's files too). OCR is the lowest
 * priority of the portal's work: each scan starts only once no text extraction nor preview is waiting (`ahead`), and
 * its tools run at nice 19, so that new uploads never wait behind a backlog of scans.
 */
export const ocrJobs = ({
  ahead = [],
  pollingIntervalSeconds = 5,
}: { ahead?: WorkAhead[]; pollingIntervalSeconds?: number } = {}): JobModule => ({
  // A scan may wait for the work ahead, then take up to OCR_TIMEOUT_SECONDS (4 h at most): its job does not expire
  // meanwhile, else pg-boss would hand it to a second worker while the first still reads it.
  queues: [{ name: FILE_OCR_QUEUE, options: { retryLimit: 1, retryDelay: 60, expireInSeconds: 5 * 3600 } }],
  start: async (ctx) => {
    let stopped = false;
    const waitForWorkAhead = async () => {
      const until = Date.now() + AHEAD_MAX_WAIT_MS;
      while (!stopped && Date.now() < until) {
        const busy = await Promise.all(ahead.map((waiting) => waiting(ctx)));
        if (!busy.some(Boolean)) return;
        await new Promise((resolve) => setTimeout(resolve, AHEAD_CHECK_MS));
      }
    };
    const { stopping, listener } = await startFileQueue(ctx, {
      queue: FILE_OCR_QUEUE,
      channel: 'file_ocr_pending',
      listenerName: 'ocr queue listener',
      batchSize: ctx.config.ocr.concurrency,
      concurrency: ctx.config.ocr.concurrency,
      pollingIntervalSeconds,
      pending: ({ database }, limit) => pendingOcrIds(database.db, limit),
      work: async ({ database, store, config, log }, fileId) => {
        await waitForWorkAhead();
        if (stopped) return;
        return recogniseFile(database.db, store, config, fileId, log);
      },
      words: {
        queued: 'queued scans for text recognition',
        queueFailed: 'could not queue a scan for text recognition',
        backfillFailed: 'could not queue pending scans',
      },
    });
    return {
      stopping: () => {
        stopped = true;
        stopping();
      },
      stop: async () => {
        await settlesWithin(listener.close(), 2000);
      },
    };
  },
});
