import { keepListening } from '#server/db/change-feed.ts';
import type { JobModule } from '#server/jobs/job-queue.ts';
import { settlesWithin } from '#server/lib/time-limit.ts';

import { makePreview, pendingPreviewIds } from './previews.ts';

/** The queue of documents whose preview is to be made (pg-boss, in the portal's own database: schema `pgboss`). */
export const FILE_PREVIEW_QUEUE = 'file-preview';

/**
 * The background work of document previews (issue 33, decision 084): a pg-boss worker that makes one preview at a time
 * on each node (LibreOffice one conversion at a time: previews.ts), a listener that queues each newly stored document
 * (the database notifies `file_preview_pending` at commit) and a backfill of what is still pending from before this
 * start (a restore's documents too, decision 086).
 */
export const previewJobs = ({ pollingIntervalSeconds = 2 } = {}): JobModule => ({
  queues: [{ name: FILE_PREVIEW_QUEUE, options: { retryLimit: 1, retryDelay: 60 } }],
  start: async ({ boss, database, store, config, log }) => {
    let stopping = false;
    const workerId = await boss.work<{ fileId: string }>(
      FILE_PREVIEW_QUEUE,
      { batchSize: 1, pollingIntervalSeconds },
      async (jobs) => {
        for (const job of jobs) {
          if (stopping) return;
          await makePreview(database.db, store, config, job.data.fileId, log);
        }
        if (jobs.length) boss.notifyWorker(workerId);
      },
    );
    const enqueue = async (fileIds: string[]) => {
      if (!fileIds.length) return;
      await boss.insert(fileIds.map((fileId) => ({ name: FILE_PREVIEW_QUEUE, data: { fileId } })));
      boss.notifyWorker(workerId);
    };
    const backfill = async () => {
      const backlog = await pendingPreviewIds(database.db, 100_000);
      await enqueue(backlog);
      if (backlog.length) log.info({ files: backlog.length }, 'queued documents for their previews');
    };
    let listening = () => {};
    const firstListen = new Promise<void>((resolve) => (listening = resolve));
    const listener = keepListening(
      database.url,
      'file_preview_pending',
      {
        onNotification: (fileId) =>
          void enqueue([fileId]).catch((err: unknown) => log.error({ err }, 'could not queue a document preview')),
        onConnect: (again) => {
          if (!again) return listening();
          void backfill().catch((err: unknown) => log.error({ err }, 'could not queue pending previews'));
        },
      },
      { name: 'preview queue listener' },
    );
    await settlesWithin(firstListen, 10_000);
    await backfill();
    return {
      stopping: () => void (stopping = true),
      stop: async () => {
        await settlesWithin(listener.close(), 2000);
      },
    };
  },
});
