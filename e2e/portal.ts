import { inject } from 'vitest';

import type { E2ePortal } from './global-setup.ts';

/**
 * The portal this test file runs against. The e2e run starts one portal per worker (e2e/global-setup.ts), and Vitest
 * numbers its workers 1 to maxWorkers (VITEST_POOL_ID) so that no two files running at the same time have the same
 * number: a file has its portal to itself while it runs, as it had the one shared server when files ran one at a time
 * (decision 109).
 */
function portalOfThisWorker(): E2ePortal {
  const portals = inject('portals');
  const id = Number(process.env.VITEST_POOL_ID ?? '1');
  const portal = portals[id - 1];
  if (!portal) throw new Error(`No e2e portal for worker ${id}: the run started ${portals.length}.`);
  return portal;
}

export const portal = portalOfThisWorker();
