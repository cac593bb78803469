import PgBoss from 'pg-boss';

import { keepListening } from '#server/db/change-feed.ts';
import type { Database } from '#server/db/client.ts';
import { settlesWithin } from '#server/lib/time-limit.ts';
import type { FileStore } from '#server/modules/files/storage.ts';

import { extractFileText, pendingFileIds, sharedExtractor } from './extraction.ts';

/** The queue of files to read (pg-boss, in the portal's own database: schema `pgboss`). */
export const FILE_TEXT_QUEUE = 'file-text';

export interface BackgroundJobs {
  stop: () => Promise<void>;
}

/**
 * Starts the background work of the search (issue 14 §2): a pg-boss worker that reads one file at a time, a listener
 * that queues each newly stored file (the database notifies `file_text_pending` at commit), and a backfill that
 * queues every file still pending from before this start. Called by server/main.ts and by search.jobs.test.ts; the
 * other API tests run extraction themselves through the same `extractFileText`.
 */
export async function startSearchJobs(
  database: Database,
  store: FileStore,
  log: { error: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void },
  /** How often an idle worker looks for files queued by another node (tests set it long). */
  { pollingIntervalSeconds = 1 } = {},
): Promise<BackgroundJobs> {
  const boss = new PgBoss({
    connectionString: database.url,
    schema: 'pgboss',
    max: 2,
    application_name: 'lab-portal-jobs',
  });
  boss.on('error', (err) => log.error({ err }, 'background job queue error'));
  // Nodes starting together would deadlock creating the same queue (seen with two nodes): one at a time, under an
  // advisory lock of the portal's database (issue 15 item 5).
  const lock = await database.pool.connect();
  try {
    await lock.query('select pg_advisory_lock(727275)');
    await boss.start();
    await boss.createQueue(FILE_TEXT_QUEUE, { name: FILE_TEXT_QUEUE, retryLimit: 2, retryDelay: 30 });
  } finally {
    await lock.query('select pg_advisory_unlock(727275)').catch(() => {});
    lock.release();
  }
  const extractor = sharedExtractor();
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
    stop: async () => {
      stopping = true;
      await settlesWithin(listener.close(), 2000);
      // A file being read gets 5 s to finish; a queue that still does not stop must not hold up the database's stop.
      const stopped = await settlesWithin(boss.stop({ graceful: true, wait: true, timeout: 5000 }), 10_000);
      if (!stopped) log.error({}, 'the background job queue did not stop within 10 s; stopping without it');
      if (!(await settlesWithin(extractor.close(), 5000)))
        log.error({}, 'the text extraction thread did not end within 5 s');
    },
  };
}
