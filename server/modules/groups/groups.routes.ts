import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { groupNameJson, groupSummaryJson } from '#shared/schemas/group.ts';
import { listGroups } from './groups.service.ts';

export const groupsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/groups',
    { onRequest: [app.authenticate], schema: { response: { 200: z.array(groupSummaryJson) } } },
    async () => (await listGroups(app.db)).map((g) => ({ _id: g.id, name: g.name, description: g.description })),
  );
  app.get(
    '/api/groups/name',
    { onRequest: [app.authenticate], schema: { response: { 200: z.array(groupNameJson) } } },
    async () => (await listGroups(app.db)).map((g) => ({ _id: g.id, name: g.name })),
  );
};
