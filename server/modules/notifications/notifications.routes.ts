import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { messageJson, uuidParam } from '#shared/schemas/common.ts';
import {
  notificationCountJson,
  type NotificationJson,
  notificationListJson,
  notificationListQuery,
} from '#shared/schemas/notification.ts';

import { sendPersonal } from '#server/lib/personal-cache.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import {
  countUnreadNotifications,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  type NotificationSources,
} from './notifications.service.ts';

/**
 * The bell in the header (decision 020): each person reads and clears only their own notices, described by the
 * sources of every module (given by server/app.ts, decision 104).
 */
export const notificationsRoutes =
  (sources: NotificationSources): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/notifications',
      { schema: { querystring: notificationListQuery, response: { 200: notificationListJson } } },
      // Kept per person until their notices or what they tell of change (server/lib/personal-cache.ts, decision 089):
      // the sweep of notices fallen due runs when the answer is made, and what falls due moves with the day.
      async (req, reply) =>
        sendPersonal(req, reply, async () => {
          const { notifications, unread } = await listNotifications(
            app.db,
            signedInActor(req),
            req.query.limit,
            sources,
          );
          return {
            body: notificationListJson.parse({
              unread,
              notifications: notifications.map(({ row, subject, actor }): NotificationJson => ({
                _id: row.id,
                kind: row.kind,
                createdAt: row.createdAt.toISOString(),
                readAt: row.readAt ? row.readAt.toISOString() : null,
                subject: { type: row.subjectType, _id: row.subjectId, ...subject },
                actor: actor ? { _id: actor.id, name: actor.name } : null,
              })),
            }),
          };
        }),
    );

    app.get('/api/notifications/count', { schema: { response: { 200: notificationCountJson } } }, async (req, reply) =>
      sendPersonal(req, reply, async () => ({
        body: notificationCountJson.parse({
          unread: await countUnreadNotifications(app.db, signedInActor(req), sources),
        }),
      })),
    );

    app.post('/api/notifications/read-all', { schema: { response: { 200: messageJson } } }, async (req) => {
      const n = await markAllNotificationsRead(app.db, signedInActor(req));
      return { message: `${n} notifications marked read.` };
    });

    app.post(
      '/api/notifications/:id/read',
      { schema: { params: uuidParam, response: { 200: messageJson } } },
      async (req) => {
        await markNotificationRead(app.db, signedInActor(req), req.params.id);
        return { message: 'Notification marked read.' };
      },
    );
  };
