import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { searchAnswerJson, searchQuery } from '#shared/schemas/search.ts';

import { searchPortal, searchReader } from './search.service.ts';

/** The portal search (decision 015): signed in or not; a visitor finds public lab content only. */
export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/search',
    {
      config: { public: true, identifies: true },
      schema: { querystring: searchQuery, response: { 200: searchAnswerJson } },
    },
    async (req) => {
      const reader = await searchReader(app.db, req.actor);
      return searchPortal(app.db, reader, req.query);
    },
  );
};
