import { createRequire } from 'node:module';

import { isDatabaseUnavailable } from '#server/lib/errors.ts';

/**
 * pg-boss 10 records a job's outcome without waiting for it (decision 092): its worker calls `this.complete(...)` or
 * `this.fail(...)` on its Manager and drops the promise, so a database lost while a job runs made that promise reject
 * with nobody to catch it, and Node ended the portal (`Manager.fail` → `executeSql`, ECONNREFUSED). pg-boss 11 awaits
 * them but needs Node 22 (the portal supports 20.19), and 11 and 12 change the queue API and schema.
 *
 * So the Manager's `complete` and `fail` are wrapped, once per process, before any PgBoss is made (its constructor
 * takes the methods from the Manager): an outcome whose write fails because the database is unreachable is written
 * again, 0.25 s doubling to 5 s, until the database answers (the job then completes, or waits its retry, as it would
 * have) or `OUTCOME_RETRY_MS` has passed (pg-boss's own expiry then retries the job). Such a call never rejects; it
 * reports on the manager's `error` event, which the job queue logs. Any other failure rejects as before.
 */
const require = createRequire(import.meta.url);

/** The pg-boss line this guard was written for: an upgrade must look again at whether it is still needed. */
export const GUARDED_PG_BOSS = /^10\./;
/** How long an outcome is written again while the database is away; pg-boss expires an active job after 15 min. */
export const OUTCOME_RETRY_MS = 15 * 60 * 1000;

type Outcome = (this: ManagerLike, ...args: unknown[]) => Promise<unknown>;
interface ManagerLike {
  stopped?: boolean;
  emit(event: string, arg: unknown): boolean;
}
interface ManagerClass {
  prototype: Record<'complete' | 'fail', Outcome> & { __labPortalGuarded?: true };
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Wraps one outcome method: written again while the database is unreachable, never a rejection for that cause. */
function retrying(method: 'complete' | 'fail', original: Outcome, retryMs: number): Outcome {
  return async function (this: ManagerLike, ...args: unknown[]) {
    const began = Date.now();
    for (let pause = 250, attempt = 1; ; pause = Math.min(pause * 2, 5000), attempt++) {
      try {
        return await original.apply(this, args);
      } catch (err) {
        if (!isDatabaseUnavailable(err)) throw err;
        // Stopping (pg-boss's failWip at shutdown) or out of time: report it and leave the job to pg-boss's expiry.
        if (this.stopped || Date.now() - began >= retryMs) {
          const error = new Error(
            `could not record a job's outcome (${method}) while the database was unavailable; pg-boss retries the job when it expires`,
            { cause: err },
          );
          this.emit('error', Object.assign(error, { queue: args[0], attempts: attempt }));
          return undefined;
        }
        await wait(pause);
      }
    }
  };
}

/** Installs the guard on pg-boss's Manager (once per process); throws for a pg-boss this guard does not know. */
export function guardJobOutcomes(): void {
  const { version } = require('pg-boss/package.json') as { version: string };
  if (!GUARDED_PG_BOSS.test(version))
    throw new Error(`pg-boss ${version}: job-outcomes.ts guards pg-boss 10 only; see decision 092 before upgrading`);
  const Manager = require('pg-boss/src/manager.js') as ManagerClass;
  const proto = Manager.prototype;
  if (proto.__labPortalGuarded) return;
  proto.complete = retrying('complete', proto.complete, OUTCOME_RETRY_MS);
  proto.fail = retrying('fail', proto.fail, OUTCOME_RETRY_MS);
  proto.__labPortalGuarded = true;
}
