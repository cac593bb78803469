import { monitorEventLoopDelay } from 'node:perf_hooks';

import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { cacheFigures } from '#server/lib/answer-cache.ts';
import { clockState } from '#server/lib/clock.ts';
import { databaseUnavailableBody } from '#server/lib/errors.ts';

/** Nanoseconds to milliseconds with two decimals; 0 before the first sample (the histogram answers NaN). */
const ms = (ns: number) => (Number.isFinite(ns) ? Math.round(ns / 10_000) / 100 : 0);

/** GET /api/health: 200 once the database answers, else 503 with the code every request gets then. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/health', { config: { public: true } }, async (_req, reply) => {
    try {
      await app.db.execute(sql`select 1`);
      // The clock's offset from NTP_SERVER when it is set (decision 126): `warning` over a second or unknown.
      const clock = app.config.ntpServer ? clockState() : null;
      return { status: 'ok', database: app.dbKind, ...(clock ? { clock } : {}) };
    } catch {
      return reply.code(503).send({ status: 'unavailable', ...databaseUnavailableBody });
    }
  });

  // Only with RUNTIME_METRICS=true (benchmarks): event-loop delay since the last reset, this process's memory and what
  // its answer caches hold (decision 129).
  // `?reset=true` starts a new measuring window (bench:load resets it when the load starts).
  if (!app.config.runtimeMetrics) return;
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  app.addHook('onClose', async () => delay.disable());
  // Public like /api/health (the bench reads it without signing in); it exists only with RUNTIME_METRICS=true.
  app.get('/api/health/runtime', { config: { public: true } }, async (req) => {
    const answer = {
      eventLoopDelayMs: {
        mean: ms(delay.mean),
        p50: ms(delay.percentile(50)),
        p99: ms(delay.percentile(99)),
        max: ms(delay.max),
      },
      readQueue: app.readQueue.stats((req.query as { reset?: string }).reset === 'true'),
      memory: process.memoryUsage(),
      caches: cacheFigures(),
      pid: process.pid,
    };
    if ((req.query as { reset?: string }).reset === 'true') delay.reset();
    return answer;
  });
};
