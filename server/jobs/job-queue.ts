import PgBoss from 'pg-boss';

import type { Config } from '#server/config.ts';
import type { Database } from '#server/db/client.ts';
import { settlesWithin } from '#server/lib/time-limit.ts';
import type { FileStore } from '#server/modules/files/storage.ts';

import { guardJobOutcomes } from './job-outcomes.ts';

export interface JobLog {
  error: (obj: object, msg: string) => void;
  info: (obj: object, msg: string) => void;
}

/** What a module's background work runs with. */
export interface JobContext {
  boss: PgBoss;
  database: Database;
  store: FileStore;
  config: Config;
  log: JobLog;
}

/** A queue a module uses: created at start, one node at a time; with `cron`, also run on that schedule (IST). */
export interface JobQueue {
  name: string;
  options?: Omit<PgBoss.Queue, 'name'>;
  /** A cron line in India time (pg-boss runs a scheduled job once across every node). */
  cron?: string;
}

/** One module's background work: the queues it needs and how it starts (its workers, listeners). */
export interface JobModule {
  queues: JobQueue[];
  start(ctx: JobContext): Promise<RunningJobs | void>;
}

export interface RunningJobs {
  /** Told first when the node stops: work in hand should end early. */
  stopping?: () => void;
  /** After the queue has stopped: close what the module opened. */
  stop?: () => Promise<void>;
}

export interface BackgroundJobs {
  stop: () => Promise<void>;
}

/**
 * The node's job queue (pg-boss, in the portal's own database: schema `pgboss`) and the background work of every
 * module (server/jobs/modules.ts lists them): text extraction for the search, the audit trail's checkpoints and
 * retention, reminders. Started by app.ts when `backgroundJobs` is on (server/main.ts); API tests run the jobs'
 * functions themselves.
 */
export async function startBackgroundJobs(
  deps: Omit<JobContext, 'boss'>,
  modules: readonly JobModule[],
): Promise<BackgroundJobs> {
  const { database, log } = deps;
  guardJobOutcomes(); // before the PgBoss: its constructor takes the Manager's methods (decision 092)
  const boss = new PgBoss({
    connectionString: database.url,
    schema: 'pgboss',
    max: 2,
    application_name: 'lab-portal-jobs',
  });
  boss.on('error', (err) => log.error({ err }, 'background job queue error'));
  // Nodes starting together would deadlock creating the same queue (seen with two nodes): one at a time, under an
  // advisory lock of the portal's database.
  const lock = await database.pool.connect();
  try {
    await lock.query('select pg_advisory_lock(727275)');
    await boss.start();
    for (const queue of modules.flatMap((m) => m.queues)) {
      await boss.createQueue(queue.name, { name: queue.name, ...queue.options });
      if (queue.cron) await boss.schedule(queue.name, queue.cron, {}, { tz: 'Asia/Kolkata' });
    }
  } finally {
    await lock.query('select pg_advisory_unlock(727275)').catch(() => {});
    lock.release();
  }
  const running: RunningJobs[] = [];
  for (const module of modules) {
    const started = await module.start({ ...deps, boss });
    if (started) running.push(started);
  }
  return {
    stop: async () => {
      for (const r of running) r.stopping?.();
      // Work in hand gets 5 s to finish; a queue that still does not stop must not hold up the database's stop.
      const stopped = await settlesWithin(boss.stop({ graceful: true, wait: true, timeout: 5000 }), 10_000);
      if (!stopped) log.error({}, 'the background job queue did not stop within 10 s; stopping without it');
      for (const r of running) await r.stop?.();
    },
  };
}
