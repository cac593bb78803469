import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import pLimit from 'p-limit';

export interface ReadQueueOptions {
  /** How many reads this process works on at once; the others wait their turn, first come first served. 0: all. */
  readsAtOnce: number;
}

/** What the queue did since it was last asked with `reset` (GET /api/health/runtime). */
export interface ReadQueueStats {
  readsAtOnce: number;
  working: number;
  waiting: number;
  /** Most reads waiting at one moment. */
  mostWaiting: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Reads waiting for their turn (decision 055, plugins/read-queue.ts). */
    readQueue: { stats: (reset?: boolean) => ReadQueueStats };
  }
}

/** Reads have no body and may wait; writes and the health checks never do. */
const waitsItsTurn = (req: FastifyRequest) =>
  (req.method === 'GET' || req.method === 'HEAD') && !req.url.startsWith('/api/health');

/** The release of the place a read holds, once (the answer is ready, or its client went away). */
const places = new WeakMap<FastifyReply, () => void>();

/**
 * Reads wait their turn (decision 055). In a morning's crowd every request in flight shares the one event
 * loop: a read that awaits the database three times waits three turns of a loop busy with a hundred others, so the
 * slow tail grew with the crowd (p99 350–540 ms for a p50 of 40–60 ms). Working on a few reads at once, first come
 * first served, keeps each turn short; the rest wait, costing nothing, until a place is free. A read holds its place
 * until its answer is ready to send (a download then streams at the client's pace without it), or until its client
 * goes away.
 *
 * Writes never wait: a form being saved or a file being uploaded goes straight through, and a slow upload cannot
 * hold a place that reads need. The health checks never wait either, so a load balancer sees a busy node as alive.
 */
export const readQueuePlugin = fp<ReadQueueOptions>(
  async (app, { readsAtOnce }) => {
    const limit = readsAtOnce > 0 ? pLimit(readsAtOnce) : null;
    let mostWaiting = 0;
    app.decorate('readQueue', {
      stats: (reset = false) => {
        const stats = {
          readsAtOnce,
          working: limit?.activeCount ?? 0,
          waiting: limit?.pendingCount ?? 0,
          mostWaiting,
        };
        if (reset) mostWaiting = limit?.pendingCount ?? 0;
        return stats;
      },
    });
    if (!limit) return;

    app.addHook('onRequest', (req, reply, done) => {
      if (!waitsItsTurn(req)) return done();
      void limit(
        () =>
          new Promise<void>((release) => {
            places.set(reply, release);
            // Whichever comes first: the answer is ready (onSend), or the connection closed (sent, or the client left).
            reply.raw.once('close', release);
            done();
          }),
      );
      mostWaiting = Math.max(mostWaiting, limit.pendingCount);
    });
    app.addHook('onSend', async (_req, reply) => {
      places.get(reply)?.();
    });
  },
  { name: 'read-queue' },
);
