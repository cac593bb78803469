import PgBoss from 'pg-boss';
import type { Database } from '#server/db/client.ts';
import type { FileStore } from '#server/modules/files/storage.ts';
import { settlesWithin } from '#server/lib/time-limit.ts';
import { extractFileText, pendingFileIds, sharedExtractor } from './extraction.ts';

/** The queue of files to read (pg-boss, in the portal's own database: schema `pgboss`). */
export const FILE_TEXT_QUEUE = 'file-text';

export interface BackgroundJobs {
  stop: () => Promise<void>;
}

/**
 * Starts the background work of the search (issue 14 §2): a pg-boss worker that reads one file at a time, a listener
 * that queues each newly stored file (the database notifies `file_text_pending` at commit), and a backfill that
 * queues every file still pending from before this start. Called by server/main.ts, never by API tests, which run
 * extraction themselves through the same `extractFileText`.
 */
export async function startSearchJobs(
  database: Database,
  store: FileStore,
  log: { error: (obj: object, msg: string) => void; info: (obj: object, msg: string) => void },
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
  await boss.work<{ fileId: string }>(FILE_TEXT_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1 }, async ([job]) => {
    if (job) await extractFileText(database.db, store, job.data.fileId, extractor);
  });

  const enqueue = (fileIds: string[]) =>
    fileIds.length
      ? boss.insert(fileIds.map((fileId) => ({ name: FILE_TEXT_QUEUE, data: { fileId } })))
      : Promise.resolve();

  const listener = await database.pool.connect();
  listener.on('notification', (msg) => {
    if (msg.channel === 'file_text_pending' && msg.payload) {
      enqueue([msg.payload]).catch((err: unknown) => log.error({ err }, 'could not queue a file for reading'));
    }
  });
  await listener.query('LISTEN file_text_pending');

  // Backfill: files stored before this start (or while no server ran) that are still waiting.
  const backlog = await pendingFileIds(database.db, 100_000);
  await enqueue(backlog);
  if (backlog.length) log.info({ files: backlog.length }, 'queued files for text extraction');

  return {
    stop: async () => {
      await settlesWithin(listener.query('UNLISTEN *'), 2000);
      listener.release();
      // A file being read gets 5 s to finish; a queue that still does not stop must not hold up the database's stop.
      const stopped = await settlesWithin(boss.stop({ graceful: true, wait: true, timeout: 5000 }), 10_000);
      if (!stopped) log.error({}, 'the background job queue did not stop within 10 s; stopping without it');
      if (!(await settlesWithin(extractor.close(), 5000)))
        log.error({}, 'the text extraction thread did not end within 5 s');
    },
  };
}
