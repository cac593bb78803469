import { Readable } from 'node:stream';

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { messageJson, openedFrom, pageQuery, uuidParam } from '#shared/schemas/common.ts';
import {
  createLetterInput,
  letterExportQuery,
  letterHistoryJson,
  letterJson,
  letterPageJson,
  letterPageQuery,
  listLettersQuery,
  updateLetterInput,
} from '#shared/schemas/letter.ts';

import { encodeTimeCursor } from '#server/lib/cursor.ts';
import { badRequest } from '#server/lib/errors.ts';
import { pagingHeaders, sendPage, totalFromLastPage } from '#server/lib/paging.ts';
import { sendPersonal } from '#server/lib/personal-cache.ts';
import { parseFields } from '#server/lib/validation.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { auditWho, recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import { readContext } from '#server/modules/audit-trail/classified-reads.ts';
import { withReceivedUpload } from '#server/modules/files/upload-receive.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import { EXPORT_MAX_LETTERS, lettersCsv } from './letters.export.ts';
import { movementsOfLetters } from './letters.movements.views.ts';
import { lettersPolicy } from './letters.policy.ts';
import { presentLetter, presentLetterHistory } from './letters.presenter.ts';
import { openLetterRecorded, recordedLetterFile } from './letters.reads.ts';
import { countRecycleBin, deleteLetter, listRecycleBin, purgeLetter, restoreLetter } from './letters.register.bin.ts';
import {
  actorMayViewLetter,
  assertCanEditLetter,
  createLetter,
  findLetterByFile,
  listLetterHistory,
  replaceLetterFile,
  updateLetter,
} from './letters.register.service.ts';
import { searchLetters } from './letters.register.views.ts';
import { countLetterMatches, decodeCursor } from './letters.search.ts';

const AREA = 'letters';
const letterListJson = z.array(letterJson);

/** The letters register, dak (spec §7 Letters; the module is named for the domain, the API keeps /api/dac). */
export const lettersRoutes: FastifyPluginAsyncZod = async (app) => {
  // Letter files (/uploads/letters/{fileName}, spec §7) go only to those who may see the letter.
  // Admins too (`everyone`): a Secret letter's file needs a step-up whoever opens it (decision 066), after the
  // rule of who may see it, so that nobody learns from the answer what a file they may not open is. A Confidential or
  // Secret letter's file is recorded in the audit trail, refused or served, and watermarked when a PDF (decisions 070-071).
  app.fileAccess.register(
    AREA,
    async (db, actor, file) => {
      const letter = await findLetterByFile(db, file.id);
      if (!letter) return file.uploadedBy === actor.id;
      if (!(await actorMayViewLetter(db, actor, letter))) return false;
      lettersPolicy.authorize(actor, 'letters.open', { letter });
      return true;
    },
    { everyone: true, recorded: recordedLetterFile },
  );
  const adminOnly = [lettersPolicy.guard('letters.recycle_bin')];
  const uploadOptions = { area: AREA, kind: 'letter', fileField: 'file', maxBytes: app.config.uploadMaxBytes } as const;

  // The spec's list: an array, newest upload first; optional ?q= search and ?limit&offset paging (20 by default), the
  // total and the next page in X-Total-Count and Link (decision 009).
  app.get(
    '/api/dac',
    { config: { paged: true }, schema: { querystring: listLettersQuery, response: { 200: letterListJson } } },
    // Kept per person until their letters change (server/lib/personal-cache.ts, decision 089).
    async (req, reply) =>
      sendPersonal(req, reply, async () => {
        const actor = signedInActor(req);
        const { views, next } = await searchLetters(app.db, actor, req.query);
        const { limit, offset } = req.query;
        const known = totalFromLastPage(req.query, views.length);
        const { total, capped } =
          known === undefined ? await countLetterMatches(app.db, actor, req.query) : { total: known, capped: false };
        return {
          body: letterListJson.parse(views.map((v) => presentLetter(v, actor))),
          headers: pagingHeaders(req.url, {
            limit,
            offset,
            count: views.length,
            total,
            capped,
            hasNext: next !== null,
          }),
        };
      }),
  );

  // The same search a page at a time with a cursor, for endless lists (docs/decisions: letters register).
  app.get(
    '/api/dac/page',
    { schema: { querystring: letterPageQuery, response: { 200: letterPageJson } } },
    async (req, reply) => {
      const { q, mine, limit, cursor } = req.query;
      const after = cursor ? decodeCursor(cursor) : undefined; // a tampered cursor is refused before anything is kept
      return sendPersonal(req, reply, async () => {
        const actor = signedInActor(req);
        const { views, next } = await searchLetters(app.db, actor, { q, mine, limit, after });
        return {
          body: letterPageJson.parse({
            letters: views.map((v) => presentLetter(v, actor)),
            nextCursor: next ? encodeTimeCursor(next) : null,
          }),
        };
      });
    },
  );

  // Every letter matching the search (up to EXPORT_MAX_LETTERS) as CSV, streamed page by page.
  app.get('/api/dac/export', { schema: { querystring: letterExportQuery } }, async (req, reply) => {
    const { q, mine } = req.query;
    const actor = signedInActor(req);
    await recordActivity(
      app.db,
      actor,
      q ? 'activity.letters_exported_search' : 'activity.letters_exported',
      q ? { q } : undefined,
    );
    // The audit trail's `exported`, committed before the first byte leaves (decision 069).
    await recordAudit(app.db, auditWho(req), {
      action: 'exported',
      object: { type: 'export', id: 'letters', label: 'Letters & Correspondence' },
      outcome: 'success',
      details: { filters: { q: q ?? '', mine: Boolean(mine) }, max: EXPORT_MAX_LETTERS },
    });
    const pages = async function* () {
      let after;
      let sent = 0;
      do {
        const limit = Math.min(100, EXPORT_MAX_LETTERS - sent);
        const { views, next } = await searchLetters(app.db, actor, { q, mine, limit, after });
        yield views;
        sent += views.length;
        after = next ?? undefined;
      } while (after && sent < EXPORT_MAX_LETTERS);
    };
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="letters-${day}.csv"`)
      .header('Cache-Control', 'private, no-store')
      .send(Readable.from(lettersCsv(pages(), (ids) => movementsOfLetters(app.db, ids))));
  });

  app.get(
    '/api/dac/recycle-bin',
    {
      onRequest: adminOnly,
      config: { paged: true },
      schema: { querystring: pageQuery, response: { 200: z.array(letterJson) } },
    },
    async (req, reply) => {
      const views = await listRecycleBin(app.db, req.query);
      await sendPage(req, reply, req.query, views.length, () => countRecycleBin(app.db));
      return views.map((v) => presentLetter(v, signedInActor(req)));
    },
  );

  // Opening a Confidential or Secret letter is recorded before it is answered (decision 070); `from=search` when the
  // page was opened from a search result.
  app.get(
    '/api/dac/:id',
    { schema: { params: uuidParam, querystring: openedFrom, response: { 200: letterJson } } },
    async (req) =>
      presentLetter(
        await openLetterRecorded(app.db, readContext(req), signedInActor(req), req.params.id, 'card'),
        signedInActor(req),
      ),
  );

  app.get(
    '/api/dac/:id/history',
    { schema: { params: uuidParam, querystring: openedFrom, response: { 200: z.array(letterHistoryJson) } } },
    async (req) => {
      const view = await openLetterRecorded(app.db, readContext(req), signedInActor(req), req.params.id, 'history');
      return (await listLetterHistory(app.db, view.letter.id)).map((h) => presentLetterHistory(h.entry, h.actor));
    },
  );

  app.post('/api/dac', { schema: { response: { 201: letterJson } } }, async (req, reply) => {
    return withReceivedUpload(req, uploadOptions, async (upload) => {
      const input = parseFields(createLetterInput, upload.fields);
      if (!upload.file) throw badRequest('letters.file_required', 'file'); // spec §5 Letters
      const view = await createLetter(app.db, signedInActor(req), input, upload.file);
      return reply.code(201).send(presentLetter(view, signedInActor(req)));
    });
  });

  app.put(
    '/api/dac/:id',
    { schema: { params: uuidParam, body: updateLetterInput, response: { 200: letterJson } } },
    async (req) =>
      presentLetter(
        await updateLetter(app.db, signedInActor(req), auditWho(req), req.params.id, req.body),
        signedInActor(req),
      ),
  );

  // Replacing the file of an existing letter (decision 009): multipart with the one field `file`.
  app.put('/api/dac/:id/file', { schema: { params: uuidParam, response: { 200: letterJson } } }, async (req) => {
    await assertCanEditLetter(app.db, signedInActor(req), req.params.id); // before the upload is read
    return withReceivedUpload(req, uploadOptions, async ({ file }) => {
      if (!file) throw badRequest('letters.file_required', 'file');
      return presentLetter(
        await replaceLetterFile(app.db, app.storage, signedInActor(req), req.params.id, file),
        signedInActor(req),
      );
    });
  });

  app.delete('/api/dac/:id', { schema: { params: uuidParam, response: { 200: messageJson } } }, async (req) => {
    await deleteLetter(app.db, signedInActor(req), req.params.id);
    return { message: 'Letter moved to the recycle bin.' };
  });

  app.post(
    '/api/dac/:id/restore',
    { onRequest: adminOnly, schema: { params: uuidParam, response: { 200: letterJson } } },
    async (req) => presentLetter(await restoreLetter(app.db, signedInActor(req), req.params.id), signedInActor(req)),
  );

  app.delete(
    '/api/dac/:id/purge',
    { onRequest: adminOnly, schema: { params: uuidParam, response: { 200: messageJson } } },
    async (req) => {
      await purgeLetter(app.db, app.storage, signedInActor(req), req.params.id);
      return { message: 'Letter deleted for good.' };
    },
  );
};
