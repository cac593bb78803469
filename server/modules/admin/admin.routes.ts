import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { approveUserInput } from '#shared/schemas/auth.ts';
import { pageQuery } from '#shared/schemas/common.ts';
import { userJson } from '#shared/schemas/user.ts';
import { presentUser } from '#server/modules/users/users.presenter.ts';
import { approveUser, listPendingUsers } from './admin.service.ts';

/** Admin-only account approval (spec §7 Admin). */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  const adminOnly = [app.authenticate, app.requireRole('admin')];

  app.get(
    '/admin/pending-users',
    { onRequest: adminOnly, schema: { querystring: pageQuery, response: { 200: z.array(userJson) } } },
    async (req) => (await listPendingUsers(app.db, req.query)).map((u) => presentUser(u)),
  );

  app.post(
    '/admin/approve-user/:userId',
    {
      onRequest: adminOnly,
      schema: {
        params: z.object({ userId: z.uuid('Invalid user id.') }),
        body: approveUserInput,
        response: { 200: z.object({ message: z.string(), user: userJson }) },
      },
    },
    async (req) => {
      const user = await approveUser(app.db, req.user, req.params.userId, req.body);
      return { message: 'User approved successfully!', user: presentUser(user) };
    },
  );
};
