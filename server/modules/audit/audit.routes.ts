import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '#shared/constants.ts';
import { type ActivityLogJson, activityLogJson, activityLogPageJson, listLogsQuery } from '#shared/schemas/user.ts';

import { sendPagingHeaders } from '#server/lib/paging.ts';

import { auditPolicy } from './audit.policy.ts';
import { listActivityLogs, type LogEntry } from './audit.service.ts';

const presentLog = (e: LogEntry): ActivityLogJson => ({
  _id: e.id,
  userId: e.user ? { _id: e.user.id, name: e.user.name, email: e.user.email } : null,
  action: e.action,
  code: e.code,
  // A coded parameter is an object of strings: JSON, as the schema says.
  params: e.params as ActivityLogJson['params'],
  timestamp: e.timestamp.toISOString(),
  target: e.targetType && e.targetId ? { type: e.targetType, id: e.targetId } : null,
});

/** Admin Activity Logs (spec §2, §7 GET /admin/logs). */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  // Newest first. Without limit/offset: an array of the newest MAX_PAGE_SIZE matches (spec §7: "a list"); with either:
  // a page {items, total, capped} (decision 005). Both forms say how many match and where the next page is in
  // X-Total-Count and Link; the next page of the array is asked with limit and offset, so it comes
  // as the page object.
  app.get(
    '/admin/logs',
    {
      onRequest: [auditPolicy.guard('activity_log.view')],
      config: { paged: true },
      schema: {
        querystring: listLogsQuery,
        response: { 200: z.union([z.array(activityLogJson), activityLogPageJson]) },
      },
    },
    async (req, reply) => {
      const { limit, offset, ...filter } = req.query;
      const paged = limit !== undefined || offset !== undefined;
      const page = { limit: limit ?? (paged ? DEFAULT_PAGE_SIZE : MAX_PAGE_SIZE), offset: offset ?? 0 };
      const { rows, total, capped } = await listActivityLogs(app.db, filter, page, { withTotal: true });
      sendPagingHeaders(req, reply, { ...page, count: rows.length, total, capped });
      const items = rows.map(presentLog);
      return paged ? { items, total, capped } : items;
    },
  );
};
