import { Readable } from 'node:stream';

import { diffWords } from 'diff';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { messageJson, openedFrom, uuidParam } from '#shared/schemas/common.ts';
import {
  approveInput,
  askChangesInput,
  draftDiffJson,
  draftInput,
  draftJson,
  draftParams,
  draftUploadFields,
  draftVersionInput,
  draftVersionParams,
  putUpInput,
} from '#shared/schemas/efile-draft.ts';

import { badRequest } from '#server/lib/errors.ts';
import { parseFields } from '#server/lib/validation.ts';
import { auditWho } from '#server/modules/audit-trail/audit-trail.ts';
import { readContext, recordRead } from '#server/modules/audit-trail/classified-reads.ts';
import { contentDisposition } from '#server/modules/files/files.serve.ts';
import { type ReceivedUpload, withReceivedUpload } from '#server/modules/files/upload-receive.ts';
import { DEFAULT_SIGNING_LIMITS } from '#server/modules/signatures/sign-pdf.ts';
import { SigningThread } from '#server/modules/signatures/signing-thread.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import { accessFile, assertActs } from './efiles.access.ts';
import { approveDraft } from './efiles.drafts.approve.ts';
import { versionPdf } from './efiles.drafts.pdf.ts';
import { presentDrafts } from './efiles.drafts.presenter.ts';
import { addDraft, addVersion, askChanges, findVersion, putUpDraft, uploadedKind } from './efiles.drafts.ts';
import { EFILES_AREA } from './efiles.items.ts';
import { checkOpening } from './efiles.service.ts';

/**
 * Drafts for approval (decision 122), /api/efiles/{id}/drafts: write one (rich text, or a .docx or PDF uploaded), its
 * versions, each as a PDF and as a diff with the one before, put it up, ask for changes, approve (sign). Reads of a
 * file above Unclassified are in the audit trail (`efile_draft_viewed`), as its opening is (decision 070).
 */
const created = z.object({ _id: z.uuid(), ref: z.string(), version: z.number() });

export const efileDraftRoutes: FastifyPluginAsyncZod = async (app) => {
  const limits = { timeoutMs: app.config.watermarkTimeoutSeconds * 1000, memoryMb: 512 };
  const thread = new SigningThread(DEFAULT_SIGNING_LIMITS);
  app.addHook('onClose', () => thread.close());
  const deps = {
    db: app.db,
    store: app.storage,
    seal: app.config.seal,
    helperUrl: app.config.signerHelperUrl,
    thread,
    limits,
  };

  /** An upload of a draft: refused before its bytes are read unless the sender may act on the file. */
  const receiveDraft = <T>(req: FastifyRequest, id: string, handle: (u: ReceivedUpload) => Promise<T>) =>
    withReceivedUpload(
      req,
      {
        area: EFILES_AREA,
        kind: 'letter',
        fileField: 'document',
        maxBytes: app.config.uploadMaxBytes,
        beforeFile: async () => {
          const actor = signedInActor(req);
          assertActs(actor, await accessFile(app.db, actor, id));
        },
      },
      async (upload) => {
        if (!upload.file) {
          const actor = signedInActor(req);
          assertActs(actor, await accessFile(app.db, actor, id));
          throw badRequest('drafts.document_required', 'document');
        }
        uploadedKind(upload.file.originalName);
        return handle(upload);
      },
    );

  /** Opens the file for a read of its drafts: its rules, the step-up, and the audit trail for a recorded file. */
  const openForDrafts = async (req: FastifyRequest, id: string, details: Record<string, unknown>) => {
    const ctx = readContext(req);
    const actor = signedInActor(req);
    const { access, item } = await checkOpening(app.db, ctx, actor, id, 'efile_draft_viewed');
    if (item) await recordRead(app.db, ctx, item, 'efile_draft_viewed', details);
    return { actor, access };
  };

  app.get(
    '/api/efiles/:id/drafts',
    { schema: { params: uuidParam, querystring: openedFrom, response: { 200: z.array(draftJson) } } },
    async (req) => {
      const { actor, access } = await openForDrafts(req, req.params.id, {});
      return presentDrafts(app.db, actor, access);
    },
  );

  app.post(
    '/api/efiles/:id/drafts',
    { schema: { params: uuidParam, body: draftInput, response: { 201: created } } },
    async (req, reply) => {
      const d = await addDraft(app.db, signedInActor(req), req.params.id, req.body.title, {
        kind: 'text',
        body: req.body.body,
      });
      return reply.code(201).send({ _id: d.id, ref: `D/${d.seq}`, version: 1 });
    },
  );
  app.post(
    '/api/efiles/:id/drafts/upload',
    { schema: { params: uuidParam, response: { 201: created } } },
    (req, reply) =>
      receiveDraft(req, req.params.id, async ({ fields, file }) => {
        const { title } = parseFields(draftUploadFields, fields);
        const d = await addDraft(app.db, signedInActor(req), req.params.id, title, { kind: 'file', stored: file! });
        return reply.code(201).send({ _id: d.id, ref: `D/${d.seq}`, version: 1 });
      }),
  );

  app.post(
    '/api/efiles/:id/drafts/:draftId/versions',
    { schema: { params: draftParams, body: draftVersionInput, response: { 201: created } } },
    async (req, reply) => {
      const { id, draftId } = req.params;
      const v = await addVersion(app.db, signedInActor(req), id, draftId, { kind: 'text', body: req.body.body });
      return reply.code(201).send({ _id: draftId, ref: `v${v.version}`, version: v.version });
    },
  );
  app.post(
    '/api/efiles/:id/drafts/:draftId/versions/upload',
    { schema: { params: draftParams, response: { 201: created } } },
    (req, reply) =>
      receiveDraft(req, req.params.id, async ({ file }) => {
        const { id, draftId } = req.params;
        const v = await addVersion(app.db, signedInActor(req), id, draftId, { kind: 'file', stored: file! });
        return reply.code(201).send({ _id: draftId, ref: `v${v.version}`, version: v.version });
      }),
  );

  app.get(
    '/api/efiles/:id/drafts/:draftId/versions/:version/pdf',
    { schema: { params: draftVersionParams, querystring: openedFrom } },
    async (req, reply) => {
      const { draftId, version: n } = req.params;
      const { access } = await openForDrafts(req, req.params.id, { draft: draftId, version: n });
      const { draft, version } = await findVersion(app.db, access.file.id, draftId, n);
      const pdf = await versionPdf(app.db, app.storage, limits, access.file, draft, version);
      const name = `${access.file.number.replace(/[/\\]/g, '-')} D-${draft.seq} v${version.version}.pdf`;
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', contentDisposition('inline', name))
        .header('Cache-Control', 'private, no-store')
        .header('Content-Length', pdf.length)
        .send(Readable.from([Buffer.from(pdf.buffer, pdf.byteOffset, pdf.length)]));
    },
  );

  app.get(
    '/api/efiles/:id/drafts/:draftId/versions/:version/diff',
    { schema: { params: draftVersionParams, querystring: openedFrom, response: { 200: draftDiffJson } } },
    async (req) => {
      const { draftId, version: n } = req.params;
      const { access } = await openForDrafts(req, req.params.id, { draft: draftId, version: n, diff: true });
      const { version } = await findVersion(app.db, access.file.id, draftId, n);
      const before = n > 1 ? (await findVersion(app.db, access.file.id, draftId, n - 1)).version : null;
      const comparable = version.kind === 'text' && (!before || before.kind === 'text');
      const parts = comparable
        ? diffWords(before?.text ?? '', version.text).map((p) => ({
            value: p.value,
            added: Boolean(p.added),
            removed: Boolean(p.removed),
          }))
        : [];
      return { version: n, against: before?.version ?? null, comparable, parts };
    },
  );

  app.post(
    '/api/efiles/:id/drafts/:draftId/put-up',
    { schema: { params: draftParams, body: putUpInput, response: { 200: messageJson } } },
    async (req) => {
      await putUpDraft(app.db, signedInActor(req), req.params.id, req.params.draftId, req.body);
      return { message: 'Put up for approval.' };
    },
  );
  app.post(
    '/api/efiles/:id/drafts/:draftId/ask-changes',
    { schema: { params: draftParams, body: askChangesInput, response: { 200: messageJson } } },
    async (req) => {
      await askChanges(app.db, signedInActor(req), req.params.id, req.params.draftId, req.body.note);
      return { message: 'Changes asked.' };
    },
  );
  app.post(
    '/api/efiles/:id/drafts/:draftId/approve',
    { schema: { params: draftParams, body: approveInput, response: { 200: messageJson } } },
    async (req) => {
      const { id, draftId } = req.params;
      const item = await approveDraft(deps, auditWho(req), signedInActor(req), id, draftId, req.body.personal);
      return { message: `C/${item.seq}` };
    },
  );
};
