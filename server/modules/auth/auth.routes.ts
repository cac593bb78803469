import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { loginInput, loginJson, registerInput } from '#shared/schemas/auth.ts';
import { userJson } from '#shared/schemas/user.ts';
import { z } from 'zod';
import { setTokenCookie, TOKEN_COOKIE } from '#server/plugins/auth.ts';
import { notFound } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { presentUser } from '#server/modules/users/users.presenter.ts';
import { findUserById } from '#server/modules/users/users.service.ts';
import { registerUser, verifyLogin } from './auth.service.ts';

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/auth/register',
    { schema: { body: registerInput, response: { 201: z.object({ message: z.string(), user: userJson }) } } },
    async (req, reply) => {
      const user = await registerUser(app.db, req.body);
      return reply.code(201).send({
        message: 'User saved successfully! Your account is awaiting admin approval.',
        user: presentUser(user),
      });
    },
  );

  app.post(
    '/api/auth/login',
    {
      config: { rateLimit: { max: app.config.loginRateLimit, timeWindow: '1 minute' } },
      schema: { body: loginInput, response: { 200: loginJson } },
    },
    async (req, reply) => {
      const row = await verifyLogin(app.db, req.body.email, req.body.password);
      const token = app.issueToken(row);
      await recordActivity(app.db, row, 'Signed in');
      const found = await findUserById(app.db, row.id);
      setTokenCookie(req, reply, token);
      return { token, user: presentUser(row, found?.group ?? null) };
    },
  );

  app.post('/api/auth/logout', async (_req, reply) => {
    reply.clearCookie(TOKEN_COOKIE, { path: '/' });
    return { message: 'Signed out.' };
  });

  app.get('/api/auth/me', { onRequest: [app.authenticate], schema: { response: { 200: userJson } } }, async (req) => {
    const found = await findUserById(app.db, req.user.id);
    if (!found) throw notFound('User not found.');
    return presentUser(found.user, found.group);
  });
};
