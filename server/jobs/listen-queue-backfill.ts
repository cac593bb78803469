import { keepListening, type Listener } from '#server/db/change-feed.ts';
import { settlesWithin } from '#server/lib/time-limit.ts';

import type { JobContext, JobLog } from './job-queue.ts';

/**
 * Listen → queue → backfill, the one shape of the portal's queued background work (decision 104): the search's text
 * of files, the documents' previews and the mail. The database notifies a channel at the commit of each new piece of
 * work; a listener queues it; and a backfill queues whatever is still pending from before this start, and again after
 * every reconnection of the listener (notices sent while it was cut off from a restarting database are lost).
 */
export interface ListenAndBackfill {
  /** The channel the database notifies at commit. */
  channel: string;
  /** The listener's name in the logs and in pg_stat_activity. */
  name: string;
  /** A notice arrived: queue what it names (its payload). */
  queue: (payload: string) => Promise<void>;
  /** Queue everything still pending. */
  backfill: () => Promise<void>;
  /** What the log says when `queue` or a later `backfill` fails. */
  failures: { queue: string; backfill: string };
}

/**
 * Starts listening, and once the listener is up (at most 10 s), runs the first backfill: listening first, so that
 * work committed meanwhile is not missed. A failure of that first backfill fails the start.
 */
export async function listenAndBackfill(log: JobLog, url: string, work: ListenAndBackfill): Promise<Listener> {
  let listening = () => {};
  const firstListen = new Promise<void>((resolve) => (listening = resolve));
  const listener = keepListening(
    url,
    work.channel,
    {
      onNotification: (payload) =>
        void work.queue(payload).catch((err: unknown) => log.error({ err }, work.failures.queue)),
      onConnect: (again) => {
        if (!again) return listening();
        void work.backfill().catch((err: unknown) => log.error({ err }, work.failures.backfill));
      },
    },
    { name: work.name },
  );
  await settlesWithin(firstListen, 10_000);
  await work.backfill();
  return listener;
}

/** A queue of files, each worked on by itself: the search's text extraction and the documents' previews. */
export interface FileQueue {
  queue: string;
  /** The channel the database notifies, with the file's id, when a file is stored. */
  channel: string;
  listenerName: string;
  /** How many files one fetch takes (they are worked one after another, or `concurrency` at once). */
  batchSize: number;
  /** How many files of a batch are worked at once (1 unless set). */
  concurrency?: number;
  pollingIntervalSeconds: number;
  /** The ids of files still waiting (at most `limit`). */
  pending: (ctx: JobContext, limit: number) => Promise<string[]>;
  /** Works one file; throws only for a failure worth a retry (the database). */
  work: (ctx: JobContext, fileId: string) => Promise<unknown>;
  words: { queued: string; queueFailed: string; backfillFailed: string };
}

/**
 * Starts a file queue's worker, listener and backfill (listenAndBackfill). pg-boss waits out the polling interval
 * after every fetch, even one that found jobs, so after each batch, and whenever this node queues a file, the worker
 * is told to look again at once; only an empty queue waits the interval. Stopping: the rest of a batch stays pending
 * in its table, and the next start's backfill queues it.
 */
export async function startFileQueue(
  ctx: JobContext,
  q: FileQueue,
): Promise<{ stopping: () => void; listener: Listener }> {
  const { boss, database, log } = ctx;
  let stopping = false;
  const workerId = await boss.work<{ fileId: string }>(
    q.queue,
    { batchSize: q.batchSize, pollingIntervalSeconds: q.pollingIntervalSeconds },
    async (jobs) => {
      const next = [...jobs];
      const worker = async () => {
        for (let job = next.shift(); job && !stopping; job = next.shift()) await q.work(ctx, job.data.fileId);
      };
      await Promise.all(Array.from({ length: Math.max(1, Math.min(q.concurrency ?? 1, jobs.length)) }, worker));
      if (jobs.length && !stopping) boss.notifyWorker(workerId);
    },
  );
  const enqueue = async (fileIds: string[]) => {
    if (!fileIds.length) return;
    await boss.insert(fileIds.map((fileId) => ({ name: q.queue, data: { fileId } })));
    boss.notifyWorker(workerId);
  };
  const listener = await listenAndBackfill(log, database.url, {
    channel: q.channel,
    name: q.listenerName,
    queue: (fileId) => enqueue([fileId]),
    backfill: async () => {
      const backlog = await q.pending(ctx, 100_000);
      await enqueue(backlog);
      if (backlog.length) log.info({ files: backlog.length }, q.words.queued);
    },
    failures: { queue: q.words.queueFailed, backfill: q.words.backfillFailed },
  });
  return { stopping: () => void (stopping = true), listener };
}
