import { Readable } from 'node:stream';

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { msg } from '#shared/messages/index.ts';
import {
  acknowledgeJson,
  acknowledgementCountJson,
  acknowledgementReportJson,
  acknowledgementRequestJson,
  myAcknowledgementJson,
  myAcknowledgementsQuery,
  pendingAcknowledgementJson,
  pendingAcknowledgementsQuery,
} from '#shared/schemas/acknowledgements.ts';
import { pageQuery } from '#shared/schemas/common.ts';

import { pagingHeaders, sendPage, totalFromLastPage } from '#server/lib/paging.ts';
import { sendPersonal } from '#server/lib/personal-cache.ts';
import { activityWord } from '#server/modules/audit/activity-words.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { auditWho, recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import { csvLine } from '#server/modules/letters/letters.export.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import { presentDocument } from './acknowledgements.documents.ts';
import {
  listPending,
  listReportableRequests,
  requestCsv,
  requestForReport,
  requestReport,
} from './acknowledgements.reports.ts';
import {
  acknowledge,
  countMyAcknowledgements,
  countMyPending,
  listMyAcknowledgements,
  openAcknowledgement,
} from './acknowledgements.service.ts';

const myAcknowledgementListJson = z.array(myAcknowledgementJson);
const rowParams = z.object({ id: z.uuid(msg('acknowledgements.not_found')) });
const requestParams = z.object({ id: z.uuid(msg('acknowledgements.request_not_found')) });

/**
 * Circulars and notices that must be acknowledged (decision 074; shared/schemas/acknowledgements.ts). Everyone
 * signed in has their own list; the reports follow acknowledgements.policy.ts. Publishing goes with the notice or
 * circular itself (the lab's and the groups' item routes).
 */
export const acknowledgementsRoutes: FastifyPluginAsyncZod = async (app) => {
  // ---- the person's own ----------------------------------------------------------------------------------------

  app.get(
    '/api/acknowledgements',
    {
      config: { paged: true },
      schema: { querystring: myAcknowledgementsQuery, response: { 200: myAcknowledgementListJson } },
    },
    // Kept per person until their acknowledgements change, as the badge below (server/lib/personal-cache.ts).
    async (req, reply) =>
      sendPersonal(req, reply, async () => {
        const actor = signedInActor(req);
        const { limit, offset, status } = req.query;
        const items = await listMyAcknowledgements(app.db, actor, req.query);
        const total =
          totalFromLastPage({ limit, offset }, items.length) ?? (await countMyAcknowledgements(app.db, actor, status));
        return {
          body: myAcknowledgementListJson.parse(items),
          headers: pagingHeaders(req.url, { limit, offset, count: items.length, total }),
        };
      }),
  );

  app.get(
    '/api/acknowledgements/count',
    { schema: { response: { 200: acknowledgementCountJson } } },
    async (req, reply) =>
      sendPersonal(req, reply, async () => ({
        body: acknowledgementCountJson.parse(await countMyPending(app.db, signedInActor(req))),
      })),
  );

  app.post('/api/acknowledgements/:id/open', { schema: { params: rowParams } }, async (req, reply) => {
    await openAcknowledgement(app.db, signedInActor(req), req.params.id);
    return reply.code(204).send();
  });

  app.post(
    '/api/acknowledgements/:id/acknowledge',
    { schema: { params: rowParams, response: { 200: acknowledgeJson } } },
    async (req) => {
      const at = await acknowledge(app.db, signedInActor(req), auditWho(req), req.params.id);
      return { _id: req.params.id, acknowledgedAt: at.toISOString() };
    },
  );

  // ---- reports -------------------------------------------------------------------------------------------------

  app.get(
    '/api/acknowledgement-requests',
    {
      config: { paged: true },
      schema: { querystring: pageQuery, response: { 200: z.array(acknowledgementRequestJson) } },
    },
    async (req, reply) => {
      const page = await listReportableRequests(app.db, signedInActor(req), req.query);
      await sendPage(req, reply, req.query, page.items.length, page.count);
      return page.items;
    },
  );

  app.get(
    '/api/acknowledgement-requests/:id',
    { schema: { params: requestParams, response: { 200: acknowledgementReportJson } } },
    async (req) => requestReport(app.db, await requestForReport(app.db, signedInActor(req), req.params.id)),
  );

  app.get(
    '/api/acknowledgement-requests/:id/pending',
    {
      config: { paged: true },
      schema: {
        params: requestParams,
        querystring: pendingAcknowledgementsQuery,
        response: { 200: z.array(pendingAcknowledgementJson) },
      },
    },
    async (req, reply) => {
      const actor = signedInActor(req);
      const access = await requestForReport(app.db, actor, req.params.id);
      const page = await listPending(app.db, actor, access, req.query);
      await sendPage(req, reply, req.query, page.items.length, page.count);
      return page.items;
    },
  );

  // A link (authorised by the sign-in cookie as file links are). The export is in the audit trail (`exported`,
  // before the file leaves) and the activity log.
  app.get('/api/acknowledgement-requests/:id/export.csv', { schema: { params: requestParams } }, async (req, reply) => {
    const actor = signedInActor(req);
    const access = await requestForReport(app.db, actor, req.params.id);
    const csv = await requestCsv(app.db, access, csvLine);
    const doc = presentDocument(access.row);
    await app.db.transaction(async (tx) => {
      await recordAudit(tx, auditWho(req), {
        action: 'exported',
        object: { type: 'acknowledgement-request', id: access.row.request.id, label: doc.name },
        outcome: 'success',
        details: { rows: csv.rows, group: access.onlyGroup?.id ?? null },
      });
      await recordActivity(
        tx,
        actor,
        access.onlyGroup ? 'activity.acknowledgements_exported_group' : 'activity.acknowledgements_exported',
        access.onlyGroup
          ? { kind: activityWord(doc.kind), name: doc.name, group: access.onlyGroup.name }
          : { kind: activityWord(doc.kind), name: doc.name },
        { type: 'acknowledgement-request', id: access.row.request.id },
      );
    });
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="acknowledgements-${access.row.request.id}.csv"`)
      .header('Cache-Control', 'private, no-store')
      .send(Readable.from([csv.text]));
  });
};
