import { Readable } from 'node:stream';

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { todayInIndia } from '#shared/format.ts';
import { formatDateTime } from '#shared/format.ts';
import { messageJson, openedFrom, uuidParam } from '#shared/schemas/common.ts';
import {
  AGEING_BANDS,
  closeLetterInput,
  delegationInput,
  delegationJson,
  delegationsJson,
  delegationsQuery,
  inboxCountJson,
  inboxPageJson,
  inboxQuery,
  markLetterInput,
  movementJson,
  officerJson,
  pendencyJson,
  pendencyQuery,
  returnLetterInput,
} from '#shared/schemas/letter.ts';

import { encodeTimeCursor } from '#server/lib/cursor.ts';
import { sendPersonal } from '#server/lib/personal-cache.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { auditWho, recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import { readContext } from '#server/modules/audit-trail/classified-reads.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import { markLetter, pullBackMovement } from './letters.dak.marking.ts';
import { closeLetter, markSeen, readLetter, receiveLetter, returnLetter } from './letters.dak.service.ts';
import { createDelegation, endDelegation, listDelegations } from './letters.delegation.ts';
import { csvLine } from './letters.export.ts';
import { countBox, countInbox, decodeInboxCursor, listInbox, sentPagingHeaders } from './letters.inbox.ts';
import { listMovements } from './letters.movements.views.ts';
import { listOfficers } from './letters.officers.ts';
import { pendency } from './letters.pendency.ts';
import { presentLetter, presentMovement, presentOfficer, presentPendency } from './letters.presenter.ts';

/** The CSV's headings of the ageing bands, in the order of AGEING_BANDS. */
const AGEING_HEADINGS = ['Held 0-7 days', 'Held 8-15 days', 'Held 16-30 days', 'Held over 30 days'];

/** Dak movement (decision 020), beside the spec's /api/dac calls, which stay as they are. */
export const letterMovementsRoutes: FastifyPluginAsyncZod = async (app) => {
  const movements = { 200: z.array(movementJson) };

  app.post(
    '/api/dac/:id/movements',
    {
      schema: { params: uuidParam, body: markLetterInput, response: { 201: z.array(movementJson) } },
    },
    async (req, reply) => {
      const created = await markLetter(app.db, signedInActor(req), req.params.id, req.body, app.config.mail);
      return reply.code(201).send(created.map((m) => presentMovement(m)));
    },
  );

  app.get(
    '/api/dac/:id/movements',
    { schema: { params: uuidParam, querystring: openedFrom, response: movements } },
    async (req) =>
      (await listMovements(app.db, readContext(req), signedInActor(req), req.params.id)).map((m) => presentMovement(m)),
  );

  app.post('/api/dac/:id/receive', { schema: { params: uuidParam, response: { 200: movementJson } } }, async (req) =>
    presentMovement(await receiveLetter(app.db, signedInActor(req), req.params.id)),
  );

  app.post(
    '/api/dac/:id/close',
    { schema: { params: uuidParam, body: closeLetterInput, response: { 200: movementJson } } },
    async (req) => presentMovement(await closeLetter(app.db, signedInActor(req), req.params.id, req.body)),
  );

  app.post(
    '/api/dac/:id/return',
    { schema: { params: uuidParam, body: returnLetterInput, response: movements } },
    async (req) =>
      (await returnLetter(app.db, signedInActor(req), req.params.id, req.body, app.config.mail)).map((m) =>
        presentMovement(m),
      ),
  );

  app.post('/api/dac/:id/read', { schema: { params: uuidParam, response: { 200: messageJson } } }, async (req) => {
    await readLetter(app.db, readContext(req), signedInActor(req), req.params.id);
    return { message: 'Letter marked read.' };
  });

  // Kept per person until their dak changes (server/lib/personal-cache.ts, decision 089), as is its badge below.
  app.get(
    '/api/dac/inbox',
    { schema: { querystring: inboxQuery, response: { 200: inboxPageJson } } },
    async (req, reply) => {
      const { cursor, ...rest } = req.query;
      const after = cursor ? decodeInboxCursor(cursor) : undefined; // a tampered cursor is refused, never kept
      return sendPersonal(req, reply, async () => {
        const actor = signedInActor(req);
        const { items, next } = await listInbox(app.db, actor, { ...rest, after });
        const today = todayInIndia();
        return {
          // Sent (decision 099) also says its total and next page in the headers of the paged lists (server/lib/paging.ts).
          headers:
            rest.status === 'sent'
              ? sentPagingHeaders(req.url, next ? encodeTimeCursor(next) : null, await countBox(app.db, actor, rest))
              : undefined,
          body: inboxPageJson.parse({
            letters: items.map(({ view, movement }) => ({
              ...presentLetter(view, actor),
              movement: presentMovement(movement, today),
            })),
            next: next ? encodeTimeCursor(next) : null,
          }),
        };
      });
    },
  );

  app.post(
    '/api/dac/:id/movements/:movementId/pull-back',
    { schema: { params: z.object({ id: z.uuid(), movementId: z.uuid() }), response: movements } },
    async (req) =>
      (await pullBackMovement(app.db, signedInActor(req), req.params.id, req.params.movementId)).map((m) =>
        presentMovement(m),
      ),
  );

  app.post('/api/dac/:id/seen', { schema: { params: uuidParam, response: movements } }, async (req) =>
    (await markSeen(app.db, signedInActor(req), req.params.id)).map((m) => presentMovement(m)),
  );

  // Delegation of dak (decision 078).
  app.get(
    '/api/dac/delegations',
    { schema: { querystring: delegationsQuery, response: { 200: delegationsJson } } },
    async (req) => listDelegations(app.db, signedInActor(req), req.query.officerId),
  );

  app.post(
    '/api/dac/delegations',
    { schema: { body: delegationInput, response: { 201: delegationJson } } },
    async (req, reply) =>
      reply.code(201).send(await createDelegation(app.db, signedInActor(req), auditWho(req), req.body)),
  );

  app.post(
    '/api/dac/delegations/:id/end',
    { schema: { params: uuidParam, response: { 200: delegationJson } } },
    async (req) => endDelegation(app.db, signedInActor(req), auditWho(req), req.params.id),
  );

  app.get('/api/dac/inbox/count', { schema: { response: { 200: inboxCountJson } } }, async (req, reply) =>
    sendPersonal(req, reply, async () => ({
      body: inboxCountJson.parse(await countInbox(app.db, signedInActor(req))),
    })),
  );

  app.get('/api/dac/officers', { schema: { response: { 200: z.array(officerJson) } } }, async (req) =>
    (await listOfficers(app.db, signedInActor(req))).map(presentOfficer),
  );

  app.get(
    '/api/dac/pendency',
    { schema: { querystring: pendencyQuery, response: { 200: pendencyJson } } },
    // A view is a read and writes no activity row; the CSV export below records one.
    async (req) => presentPendency(await pendency(app.db, signedInActor(req), req.query)),
  );

  // The same report as CSV (a link, authorised by the sign-in cookie as file links are). An export is recorded.
  app.get('/api/dac/pendency/export', { schema: { querystring: pendencyQuery } }, async (req, reply) => {
    const report = presentPendency(await pendency(app.db, signedInActor(req), req.query));
    await recordActivity(
      app.db,
      signedInActor(req),
      report.group ? 'activity.pendency_exported_group' : 'activity.pendency_exported',
      report.group
        ? { fromDate: report.from, toDate: report.to, group: report.group.name }
        : { fromDate: report.from, toDate: report.to },
    );
    await recordAudit(app.db, auditWho(req), {
      action: 'exported',
      object: { type: 'export', id: 'pendency', label: 'Pendency of letters' },
      outcome: 'success',
      details: { filters: { from: report.from, to: report.to, group: report.group?.name ?? null } },
    });
    const lines = [
      csvLine([
        'Officer',
        'Designation',
        'Group',
        'Pending',
        'Overdue',
        `Closed ${report.from} to ${report.to}`,
        'Pending since',
        ...AGEING_HEADINGS,
      ]),
      ...report.officers.map((o) =>
        csvLine([
          o.officer.name,
          o.officer.designation,
          o.group?.name ?? '',
          String(o.pending),
          String(o.overdue),
          String(o.closed),
          o.oldestSince ? formatDateTime(o.oldestSince) : '',
          ...AGEING_BANDS.map((b) => String(o.ageing[b])),
        ]),
      ),
      '\r\n',
      csvLine(['Group', 'Pending', 'Overdue', `Closed ${report.from} to ${report.to}`, ...AGEING_HEADINGS]),
      ...report.groups.map((g) =>
        csvLine([
          g.group?.name ?? 'No group',
          String(g.pending),
          String(g.overdue),
          String(g.closed),
          ...AGEING_BANDS.map((b) => String(g.ageing[b])),
        ]),
      ),
    ];
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="pendency-${report.from}-to-${report.to}.csv"`)
      .header('Cache-Control', 'private, no-store')
      .send(Readable.from([`\uFEFF${lines.join('')}`]));
  });
};
