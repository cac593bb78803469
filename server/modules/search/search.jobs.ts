import { keepListening } from '#server/db/change-feed.ts';
import type { JobModule } from '#server/jobs/job-queue.ts';
import { settlesWithin } from '#server/lib/time-limit.ts';

import { extractFileText, pendingFileIds, sharedExtractor } from './extraction.ts';

/** The queue of files to read (pg-boss, in the portal's own database: schema `pgboss`). */
export const FILE_TEXT_QUEUE = 'file-text';

/**
 * The background work of the search (issue 14 §2): a pg-boss worker that reads one file at a time, a listener that
 * queues each newly stored file (the database notifies `file_text_pending` at commit), and a backfill that queues
 * every file still pending from before this start. The other API tests run extraction themselves through the same
 * `extractFileText`.
 */
export const searchJobs = (
  /** How often an idle worker looks for files queued by another node (tests set it long). */
  { pollingIntervalSeconds = 1 } = {},
): JobModule => ({
  queues: [{ name: FILE_TEXT_QUEUE, options: { retryLimit: 2, retryDelay: 30 } }],
  start: async ({ boss, database, store, config, log }) => {
    const extractor = sharedExtractor(config.sandbox.bwrap);
    let stopping = false;
    // pg-boss waits out the polling interval after every fetch, even one that found jobs: a backlog was read at one
    // file a second (a restore, or a morning's uploads, took minutes to become searchable). After each batch, and
    // whenever this node queues a file, the worker is told to look again at once; only an empty queue waits the
    // interval. Files come ten to a fetch (the fetch is the queue's costly statement) and are read one after another;
    // a file that cannot be read is recorded as such, so only a database failure fails the batch, which is retried and
    // skips the files already read.
    const workerId = await boss.work<{ fileId: string }>(
      FILE_TEXT_QUEUE,
      { batchSize: 10, pollingIntervalSeconds },
      async (jobs) => {
        for (const job of jobs) {
          // Stopping: the rest of the batch stays pending in file_texts, and the next start's backfill queues it.
          if (stopping) return;
          await extractFileText(database.db, store, job.data.fileId, extractor);
        }
        if (jobs.length) boss.notifyWorker(workerId);
      },
    );

    const enqueue = async (fileIds: string[]) => {
      if (!fileIds.length) return;
      await boss.insert(fileIds.map((fileId) => ({ name: FILE_TEXT_QUEUE, data: { fileId } })));
      boss.notifyWorker(workerId);
    };

    // Backfill: files stored before this start (or while no server ran, or while the listener was cut off from a
    // restarting database: its notices are lost then) that are still waiting.
    const backfill = async () => {
      const backlog = await pendingFileIds(database.db, 100_000);
      await enqueue(backlog);
      if (backlog.length) log.info({ files: backlog.length }, 'queued files for text extraction');
    };
    let listening = () => {};
    const firstListen = new Promise<void>((resolve) => (listening = resolve));
    const listener = keepListening(
      database.url,
      'file_text_pending',
      {
        onNotification: (fileId) =>
          void enqueue([fileId]).catch((err: unknown) => log.error({ err }, 'could not queue a file for reading')),
        onConnect: (again) => {
          if (!again) return listening();
          void backfill().catch((err: unknown) => log.error({ err }, 'could not queue pending files'));
        },
      },
      { name: 'file queue listener' },
    );
    await settlesWithin(firstListen, 10_000); // listening before the backfill: a file stored meanwhile is not missed
    await backfill();

    return {
      stopping: () => void (stopping = true),
      stop: async () => {
        await settlesWithin(listener.close(), 2000);
        if (!(await settlesWithin(extractor.close(), 5000)))
          log.error({}, 'the text extraction thread did not end within 5 s');
      },
    };
  },
});
