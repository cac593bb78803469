import { Readable } from 'node:stream';

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { todayInIndia } from '#shared/format.ts';
import { uuidParam } from '#shared/schemas/common.ts';
import { dispatchInput, dispatchJson, dispatchListQuery, dispatchParams } from '#shared/schemas/dispatch.ts';

import { sendPagingHeaders } from '#server/lib/paging.ts';
import { auditWho } from '#server/modules/audit-trail/audit-trail.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import { dispatchById, dispatchesCsv, dispatchesOfFile, listDispatches } from './dispatch.register.ts';
import { dispatchItem } from './dispatch.service.ts';

/** The dispatch register (decision 120): dispatching a signed item of an e-file, the register, its CSV. */
export const dispatchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/efiles/:id/items/:itemId/dispatch',
    { schema: { params: dispatchParams, body: dispatchInput, response: { 201: dispatchJson } } },
    async (req, reply) => {
      const actor = signedInActor(req);
      const ctx = { db: app.db, mail: app.config.mail, driver: app.storage.driver, who: auditWho(req) };
      const id = await dispatchItem(ctx, actor, req.params.id, req.params.itemId, req.body);
      return reply.code(201).send(await dispatchById(app.db, actor, id, true));
    },
  );
  app.get(
    '/api/efiles/:id/dispatches',
    { schema: { params: uuidParam, response: { 200: z.array(dispatchJson) } } },
    async (req) => dispatchesOfFile(app.db, signedInActor(req), req.params.id),
  );
  app.get(
    '/api/dispatches',
    { config: { paged: true }, schema: { querystring: dispatchListQuery, response: { 200: z.array(dispatchJson) } } },
    async (req, reply) => {
      const { items, total } = await listDispatches(app.db, signedInActor(req), req.query);
      sendPagingHeaders(req, reply, { limit: req.query.limit, offset: req.query.offset, count: items.length, total });
      return items;
    },
  );
  // The register's screen: one page and the count in the body (as /api/dac/page), the same filters.
  app.get(
    '/api/dispatches/page',
    {
      schema: {
        querystring: dispatchListQuery,
        response: { 200: z.object({ items: z.array(dispatchJson), total: z.number() }) },
      },
    },
    async (req) => listDispatches(app.db, signedInActor(req), req.query),
  );
  app.get('/api/dispatches/export.csv', { schema: { querystring: dispatchListQuery } }, async (req, reply) =>
    reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="dispatch-register-${todayInIndia()}.csv"`)
      .header('Cache-Control', 'private, no-store')
      .send(Readable.from(dispatchesCsv(app.db, signedInActor(req), req.query))),
  );
  app.get('/api/dispatches/:id', { schema: { params: uuidParam, response: { 200: dispatchJson } } }, async (req) =>
    dispatchById(app.db, signedInActor(req), req.params.id),
  );
};
