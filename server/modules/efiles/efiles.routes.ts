import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { msg } from '#shared/messages/index.ts';
import { messageJson, openedFrom, uuidParam } from '#shared/schemas/common.ts';
import {
  createEfileInput,
  efileHeadInput,
  efileHeadJson,
  efileJson,
  efileListQuery,
  efileMovementJson,
  efilePageJson,
  efilePendencyJson,
  efileSearchQuery,
  efileSettingsInput,
  efileSettingsJson,
  efileSummaryJson,
  letterInFileJson,
  noteInput,
  noteVersionJson,
  putLetterInput,
  remarksInput,
  routeInput,
  sendEfileInput,
} from '#shared/schemas/efile.ts';
import { pendencyQuery } from '#shared/schemas/letter.ts';

import { encodeTimeCursor } from '#server/lib/cursor.ts';
import { badRequest } from '#server/lib/errors.ts';
import { readContext } from '#server/modules/audit-trail/classified-reads.ts';
import { withReceivedUpload } from '#server/modules/files/upload-receive.ts';
import type { NotificationSource } from '#server/modules/notifications/notifications.service.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import { accessFile } from './efiles.access.ts';
import { efileDetail, efileHistory } from './efiles.detail.ts';
import { efileDraftRoutes } from './efiles.drafts.routes.ts';
import { efileExportRoute } from './efiles.export.route.ts';
import {
  addDocument,
  canDownloadEfileDocument,
  EFILES_AREA,
  fileOfLetter,
  putLetterInFile,
  recordedEfileDocument,
} from './efiles.items.ts';
import { decodeEfileCursor, describeVisibleEfiles, listEfiles, searchEfiles } from './efiles.lists.ts';
import { pullBackEfile, receiveEfile, returnEfile, sendEfile } from './efiles.movements.ts';
import { addNote, discardNote, editNote, noteHistory } from './efiles.notes.ts';
import { addHead, listHeads, readSettings, updateSettings } from './efiles.numbers.ts';
import { efilePendency } from './efiles.pendency.ts';
import { efilesPolicy } from './efiles.policy.ts';
import { presentSummary } from './efiles.presenter.ts';
import { createEfile, openEfile } from './efiles.service.ts';
import { changeState, seeCopy, setRoute } from './efiles.states.ts';

/** The bell: a file was sent, returned or copied to you (decision 107); handed to the bell by server/app.ts. */
export const efileNotices: NotificationSource = { subjectType: 'efile', describe: describeVisibleEfiles };

const noteParams = z.object({ id: z.uuid(msg('common.invalid_id')), noteId: z.uuid(msg('common.invalid_id')) });
const ok = { 200: messageJson, 201: messageJson };

/** e-Files (decision 107): /api/efiles. */
export const efilesRoutes: FastifyPluginAsyncZod = async (app) => {
  // A document of a file above Unclassified is read as the file is: the step-up, the watermark and the audit trail,
  // for admins too (decision 121).
  app.fileAccess.register(EFILES_AREA, canDownloadEfileDocument, { everyone: true, recorded: recordedEfileDocument });
  await app.register(efileExportRoute);
  await app.register(efileDraftRoutes);

  app.get('/api/efiles/settings', { schema: { response: { 200: efileSettingsJson } } }, async () => {
    const { numberScheme, labCode } = await readSettings(app.db);
    return { numberScheme, labCode };
  });
  app.put(
    '/api/efiles/settings',
    { schema: { body: efileSettingsInput, response: { 200: efileSettingsJson } } },
    (req) => updateSettings(app.db, signedInActor(req), req.body),
  );
  app.get('/api/efiles/heads', { schema: { response: { 200: z.array(efileHeadJson) } } }, async () =>
    (await listHeads(app.db)).map((h) => ({ _id: h.id, code: h.code, name: h.name, active: h.active })),
  );
  app.post(
    '/api/efiles/heads',
    { schema: { body: efileHeadInput, response: { 201: efileHeadJson } } },
    async (req, reply) => {
      const h = await addHead(app.db, signedInActor(req), req.body);
      return reply.code(201).send({ _id: h.id, code: h.code, name: h.name, active: h.active });
    },
  );

  // A box of My files a page at a time: the next page's keyset cursor in `nextCursor` (decision 121).
  app.get('/api/efiles', { schema: { querystring: efileListQuery, response: { 200: efilePageJson } } }, async (req) => {
    const { box, limit, cursor } = req.query;
    const after = cursor ? decodeEfileCursor(cursor) : undefined;
    const { rows, next } = await listEfiles(app.db, signedInActor(req), { box, limit, after });
    return { files: rows.map(presentSummary), nextCursor: next ? encodeTimeCursor(next) : null };
  });
  // Pendency of e-files beside the dak's, under its rule and with its period and group (decision 121).
  app.get(
    '/api/efiles/pendency',
    { schema: { querystring: pendencyQuery, response: { 200: efilePendencyJson } } },
    (req) => efilePendency(app.db, signedInActor(req), req.query),
  );
  app.get(
    '/api/efiles/search',
    { schema: { querystring: efileSearchQuery, response: { 200: z.array(efileSummaryJson) } } },
    async (req) => (await searchEfiles(app.db, signedInActor(req), req.query.q)).map(presentSummary),
  );
  app.get(
    '/api/efiles/of-letter/:id',
    { schema: { params: uuidParam, response: { 200: letterInFileJson } } },
    async (req) => {
      const row = await fileOfLetter(app.db, signedInActor(req), req.params.id);
      return { efile: row ? { _id: row.id, number: row.number } : null };
    },
  );

  app.post('/api/efiles', { schema: { body: createEfileInput, response: { 201: efileJson } } }, async (req, reply) => {
    const actor = signedInActor(req);
    const id = await createEfile(app.db, actor, req.body);
    return reply.code(201).send(await efileDetail(app.db, actor, await accessFile(app.db, actor, id)));
  });
  app.get(
    '/api/efiles/:id',
    { schema: { params: uuidParam, querystring: openedFrom, response: { 200: efileJson } } },
    async (req) => {
      const actor = signedInActor(req);
      return efileDetail(app.db, actor, await openEfile(app.db, readContext(req), actor, req.params.id));
    },
  );
  app.get(
    '/api/efiles/:id/movements',
    { schema: { params: uuidParam, response: { 200: z.array(efileMovementJson) } } },
    async (req) => {
      const access = await accessFile(app.db, signedInActor(req), req.params.id);
      efilesPolicy.authorize(signedInActor(req), 'efiles.open', { file: access.file });
      return efileHistory(app.db, access.file.id);
    },
  );

  app.post(
    '/api/efiles/:id/notes',
    { schema: { params: uuidParam, body: noteInput, response: ok } },
    async (req, reply) => {
      const note = await addNote(app.db, signedInActor(req), req.params.id, req.body.body);
      return reply.code(201).send({ message: `N/${note.seq}` });
    },
  );
  app.put(
    '/api/efiles/:id/notes/:noteId',
    { schema: { params: noteParams, body: noteInput, response: ok } },
    async (req) => {
      const note = await editNote(app.db, signedInActor(req), req.params.id, req.params.noteId, req.body.body);
      return { message: `N/${note.seq}` };
    },
  );
  app.delete('/api/efiles/:id/notes/:noteId', { schema: { params: noteParams, response: ok } }, async (req) => {
    await discardNote(app.db, signedInActor(req), req.params.id, req.params.noteId);
    return { message: 'Discarded.' };
  });
  app.get(
    '/api/efiles/:id/notes/:noteId/history',
    { schema: { params: noteParams, response: { 200: z.array(noteVersionJson) } } },
    async (req) =>
      (await noteHistory(app.db, signedInActor(req), req.params.id, req.params.noteId)).map((v) => ({
        editor: v.editorName,
        body: v.body,
        at: v.at.toISOString(),
      })),
  );

  app.post(
    '/api/efiles/:id/items/letter',
    { schema: { params: uuidParam, body: putLetterInput, response: ok } },
    async (req, reply) => {
      const item = await putLetterInFile(app.db, signedInActor(req), req.params.id, req.body.letterId);
      return reply.code(201).send({ message: `C/${item.seq}` });
    },
  );
  app.post('/api/efiles/:id/items', { schema: { params: uuidParam, response: ok } }, async (req, reply) => {
    const options = {
      area: EFILES_AREA,
      kind: 'letter',
      fileField: 'document',
      maxBytes: app.config.uploadMaxBytes,
    } as const;
    return withReceivedUpload(req, options, async ({ file }) => {
      if (!file) throw badRequest('efiles.document_required', 'document');
      const item = await addDocument(app.db, signedInActor(req), req.params.id, file);
      return reply.code(201).send({ message: `C/${item.seq}` });
    });
  });

  app.post(
    '/api/efiles/:id/send',
    { schema: { params: uuidParam, body: sendEfileInput, response: ok } },
    async (req) => {
      await sendEfile(app.db, signedInActor(req), req.params.id, req.body);
      return { message: 'Sent.' };
    },
  );
  app.post(
    '/api/efiles/:id/return',
    { schema: { params: uuidParam, body: remarksInput, response: ok } },
    async (req) => {
      await returnEfile(app.db, signedInActor(req), req.params.id, req.body.remarks);
      return { message: 'Returned.' };
    },
  );
  app.post('/api/efiles/:id/receive', { schema: { params: uuidParam, response: ok } }, async (req) => {
    await receiveEfile(app.db, signedInActor(req), req.params.id);
    return { message: 'Received.' };
  });
  app.post('/api/efiles/:id/pull-back', { schema: { params: uuidParam, response: ok } }, async (req) => {
    await pullBackEfile(app.db, signedInActor(req), req.params.id);
    return { message: 'Pulled back.' };
  });
  for (const [path, move] of [
    ['park', 'parked'],
    ['resume', 'resumed'],
    ['close', 'closed'],
    ['reopen', 'reopened'],
  ] as const) {
    app.post(
      `/api/efiles/:id/${path}`,
      { schema: { params: uuidParam, body: remarksInput.optional(), response: ok } },
      async (req) => {
        await changeState(app.db, signedInActor(req), req.params.id, move, req.body?.remarks ?? '');
        return { message: 'Done.' };
      },
    );
  }
  app.put('/api/efiles/:id/route', { schema: { params: uuidParam, body: routeInput, response: ok } }, async (req) => {
    await setRoute(app.db, signedInActor(req), req.params.id, req.body.route);
    return { message: 'Route changed.' };
  });
  app.post('/api/efiles/:id/seen', { schema: { params: uuidParam, response: ok } }, async (req) => {
    await seeCopy(app.db, signedInActor(req), req.params.id);
    return { message: 'Seen.' };
  });
};
