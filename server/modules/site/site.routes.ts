import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { todayInIndia } from '#shared/format.ts';
import { uuidParam } from '#shared/schemas/common.ts';
import {
  answerFeedbackInput,
  type ArchiveItemJson,
  archiveJson,
  feedbackInput,
  feedbackJson,
  feedbackListQuery,
  feedbackPageJson,
  sitePageJson,
  sitePageParams,
  updateSitePageInput,
} from '#shared/schemas/site.ts';

import { fileUrl } from '#server/modules/files/storage-areas.ts';
import { listExpiredGroupDocuments } from '#server/modules/groups/group-items.service.ts';
import { viewableGroupIds } from '#server/modules/groups/groups.policy.ts';
import { GROUP_FILES_AREA } from '#server/modules/groups/groups.presenter.ts';
import { AREA_OF } from '#server/modules/labs/labs.presenter.ts';
import { findOnlyLab, listExpiredLabDocuments } from '#server/modules/labs/labs.service.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import { sitePolicy } from './site.policy.ts';
import { presentFeedback, presentSitePage } from './site.presenter.ts';
import {
  answerFeedback,
  getSitePage,
  listFeedback,
  listOwnFeedback,
  saveSitePage,
  sendFeedback,
} from './site.service.ts';

export const FEEDBACK_SENT = 'Thank you. Your feedback has been sent to the administrators.';

/**
 * The site pages of GIGW 3.0 (decision 019): Terms of use and Privacy policy (public to read,
 * admins edit), Feedback (anyone sends, rate-limited per address; admins read and answer; staff see their own), and the
 * Archive of expired notices and circulars (public for the lab's; a group's only to those who may see the group).
 */
export const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  const adminOnly = [sitePolicy.guard('site.administer')];

  app.get(
    '/api/site/pages/:key',
    { config: { public: true }, schema: { params: sitePageParams, response: { 200: sitePageJson } } },
    async (req) => presentSitePage(await getSitePage(app.db, req.params.key)),
  );

  app.put(
    '/api/site/pages/:key',
    {
      onRequest: adminOnly,
      schema: { params: sitePageParams, body: updateSitePageInput, response: { 200: sitePageJson } },
    },
    async (req) => presentSitePage(await saveSitePage(app.db, signedInActor(req), req.params.key, req.body)),
  );

  app.post(
    '/api/feedback',
    {
      // NOTE: per client address (req.ip, TRUST_PROXY decides who may set it), in the throttle's store shared by every
      // node (decision 042); counted before the body is checked, so a flood of bad requests is limited too.
      onRequest: [async (req) => app.throttle.feedback(req.ip)],
      config: { public: true, identifies: true },
      schema: {
        body: feedbackInput,
        response: { 201: z.object({ message: z.string(), feedback: z.object({ _id: z.uuid() }) }) },
      },
    },
    async (req, reply) => {
      const row = await sendFeedback(app.db, req.actor, req.body);
      return reply.code(201).send({ message: FEEDBACK_SENT, feedback: { _id: row.id } });
    },
  );

  app.get(
    '/api/feedback',
    { onRequest: adminOnly, schema: { querystring: feedbackListQuery, response: { 200: feedbackPageJson } } },
    async (req) => {
      const { limit, offset, status } = req.query;
      const { rows, total } = await listFeedback(app.db, { status }, { limit, offset });
      return { items: rows.map(presentFeedback), total };
    },
  );

  app.get('/api/feedback/mine', { schema: { response: { 200: z.array(feedbackJson) } } }, async (req) =>
    (await listOwnFeedback(app.db, signedInActor(req))).map(presentFeedback),
  );

  app.put(
    '/api/feedback/:id',
    { onRequest: adminOnly, schema: { params: uuidParam, body: answerFeedbackInput, response: { 200: feedbackJson } } },
    async (req) => presentFeedback(await answerFeedback(app.db, signedInActor(req), req.params.id, req.body)),
  );

  app.get(
    '/api/notices/archive',
    { config: { public: true, identifies: true }, schema: { response: { 200: archiveJson } } },
    async (req) => {
      const today = todayInIndia();
      const lab = await findOnlyLab(app.db);
      const [labItems, groupItems] = await Promise.all([
        lab ? listExpiredLabDocuments(app.db, lab.id, today) : [],
        req.actor ? listExpiredGroupDocuments(app.db, viewableGroupIds(req.actor), today) : [],
      ]);
      const items: ArchiveItemJson[] = [
        ...labItems.map((i) => ({
          _id: i.id,
          kind: i.kind as 'notice' | 'circular',
          name: i.name,
          description: i.description,
          fileUrl: fileUrl(AREA_OF[i.kind], i.fileId),
          fileName: i.fileName,
          validUntil: i.validUntil!,
          createdAt: i.createdAt.toISOString(),
          updatedAt: i.updatedAt.toISOString(),
          source: { type: 'lab' as const, _id: lab!.id, name: lab!.name },
        })),
        ...groupItems.map((i) => ({
          _id: i.id,
          kind: i.kind as 'notice' | 'circular',
          name: i.name,
          description: i.description,
          fileUrl: fileUrl(GROUP_FILES_AREA, i.fileId),
          fileName: i.fileName,
          validUntil: i.validUntil!,
          createdAt: i.createdAt.toISOString(),
          updatedAt: i.updatedAt.toISOString(),
          source: { type: 'group' as const, _id: i.groupId, name: i.groupName },
        })),
      ].sort((a, b) => b.validUntil.localeCompare(a.validUntil) || b.createdAt.localeCompare(a.createdAt));
      const years = new Map<number, ArchiveItemJson[]>();
      for (const item of items) {
        const year = Number(item.validUntil.slice(0, 4));
        years.set(year, [...(years.get(year) ?? []), item]);
      }
      return { years: [...years].map(([year, list]) => ({ year, items: list })) };
    },
  );
};
