import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { searchAnswerJson, searchQuery } from '#shared/schemas/search.ts';
import { TOKEN_COOKIE, type Actor } from '#server/plugins/auth.ts';
import { searchReader } from './search.policy.ts';
import { searchPortal } from './search.service.ts';

/** The portal search (issue 14): signed in or not; a visitor finds public lab content only. */
export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The signed-in person when a token is sent, else null: a visitor. */
  const optionalActor = async (req: FastifyRequest): Promise<Actor | null> => {
    if (!req.headers.authorization && !req.cookies[TOKEN_COOKIE]) return null;
    try {
      await app.authenticate(req, undefined as never);
      return req.user;
    } catch {
      return null;
    }
  };

  app.get(
    '/api/search',
    { config: { public: true }, schema: { querystring: searchQuery, response: { 200: searchAnswerJson } } },
    async (req) => {
      const reader = await searchReader(app.db, await optionalActor(req));
      return searchPortal(app.db, reader, req.query);
    },
  );
};
