import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** GET /api/health: 200 once the database answers. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/health', async (_req, reply) => {
    try {
      await app.db.execute(sql`select 1`);
      return { status: 'ok', database: app.dbKind };
    } catch {
      return reply
        .code(503)
        .send({ status: 'unavailable', error: 'Database unavailable', message: 'Database unavailable' });
    }
  });
};
