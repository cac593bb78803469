import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { MAX_PAGE_SIZE } from '#shared/constants.ts';
import { todayInIndia } from '#shared/format.ts';
import { msg } from '#shared/messages/index.ts';
import { acknowledgementEditFieldsInput, acknowledgementFieldsInput } from '#shared/schemas/acknowledgements.ts';
import { messageJson } from '#shared/schemas/common.ts';
import {
  createLabInput,
  isLabDocumentKind,
  LAB_ITEM_KINDS,
  labDocumentsJson,
  labItemInputFor,
  labItemJson,
  type LabItemKind as LabItemPath,
  labJson,
  labSummaryJson,
  updateLabInput,
} from '#shared/schemas/lab.ts';

import { badRequest, notFound } from '#server/lib/errors.ts';
import { prepareJson, sendPrepared } from '#server/lib/prepared-answer.ts';
import { parseFields } from '#server/lib/validation.ts';
import { registerDirectorHistoryRoutes } from '#server/modules/director-history/director-history.routes.ts';
import { withReceivedUpload } from '#server/modules/files/upload-receive.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import { cachedRead, watchLabChanges } from './labs.cache.ts';
import { labsPolicy } from './labs.policy.ts';
import { presentLab, presentLabItem, presentLabSummary } from './labs.presenter.ts';
import {
  createLab,
  createLabItem,
  deleteLabItem,
  directorsOf,
  findOnlyLab,
  type LabItemKind,
  listLabDocuments,
  listLabs,
  loadLabRecord,
  requireLab,
  updateLab,
  updateLabItem,
} from './labs.service.ts';

const KIND_OF: Record<LabItemPath, LabItemKind> = {
  notices: 'notice',
  circulars: 'circular',
  products: 'product',
  advertisements: 'advertisement',
};
const SINGULAR: Record<LabItemPath, string> = {
  notices: 'Notice',
  circulars: 'Circular',
  products: 'Product',
  advertisements: 'Advertisement',
};

const labParams = z.object({ id: z.uuid(msg('labs.id_missing')) });
const kindParams = labParams.extend({ kind: z.enum(LAB_ITEM_KINDS, msg('labs.no_such_list')) });
const itemParams = kindParams.extend({ itemId: z.uuid(msg('labs.invalid_item_id')) });

/**
 * The lab (spec §7 Labs): public reads for the home screen and News Flash; every write is admin-only and recorded in
 * the activity log. Files go to public areas (notices, circulars, products, advertisements, directors).
 */
export const labsRoutes: FastifyPluginAsyncZod = async (app) => {
  const adminOnly = [labsPolicy.guard('lab.edit')];
  watchLabChanges(app.changeFeed, app.db); // another node's lab write clears this node's cached reads

  app.get(
    '/api/labs/only',
    { config: { public: true }, schema: { response: { 200: z.object({ _id: z.uuid(), name: z.string() }) } } },
    async () => {
      const lab = await cachedRead(app.db, 'only', () => findOnlyLab(app.db));
      if (!lab) throw notFound('labs.not_created');
      return { _id: lab.id, name: lab.name };
    },
  );

  app.get('/api/labs', { config: { public: true }, schema: { response: { 200: z.array(labSummaryJson) } } }, async () =>
    (await listLabs(app.db)).map(presentLabSummary),
  );

  // The answer is checked against its schema, turned into bytes, an ETag and compressed forms once per cache entry,
  // not once per request; sendPrepared answers 304 to a browser that already has it.
  app.get(
    '/api/labs/:id',
    { config: { public: true }, schema: { params: labParams, response: { 200: labJson } } },
    async (req, reply) => {
      const { id } = req.params;
      const answer = await cachedRead(app.db, `record:${id}:${todayInIndia()}`, async () =>
        prepareJson(labJson.parse(presentLab(await loadLabRecord(app.db, await requireLab(app.db, id))))),
      );
      return sendPrepared(req, reply, answer);
    },
  );

  app.get(
    '/api/labs/:id/documents',
    {
      config: { public: true },
      schema: {
        params: labParams,
        querystring: z.object({
          current: z.enum(['true', 'false']).optional(),
          /** The newest N of each list (the latest box); all when absent. */
          limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
        }),
        response: { 200: labDocumentsJson },
      },
    },
    async (req, reply) => {
      const { id } = req.params;
      const { current, limit } = req.query;
      const today = todayInIndia();
      const answer = await cachedRead(app.db, `documents:${id}:${current}:${limit}:${today}`, async () => {
        const lab = await requireLab(app.db, id);
        const items = await listLabDocuments(app.db, lab.id, { currentOnly: current === 'true', limit, today });
        return prepareJson(
          labDocumentsJson.parse({
            notices: items.filter((i) => i.kind === 'notice').map((i) => presentLabItem(i, today)),
            circulars: items.filter((i) => i.kind === 'circular').map((i) => presentLabItem(i, today)),
          }),
        );
      });
      return sendPrepared(req, reply, answer);
    },
  );

  app.post(
    '/api/labs',
    { onRequest: adminOnly, schema: { body: createLabInput, response: { 201: labSummaryJson } } },
    async (req, reply) =>
      reply.code(201).send(presentLabSummary(await createLab(app.db, signedInActor(req), req.body))),
  );

  app.put(
    '/api/labs/:id',
    { onRequest: adminOnly, schema: { params: labParams, body: updateLabInput, response: { 200: labJson } } },
    async (req) => {
      const lab = await requireLab(app.db, req.params.id);
      const updated = await updateLab(app.db, signedInActor(req), lab, req.body);
      return presentLab(await loadLabRecord(app.db, updated));
    },
  );

  // ---- director history (the director-history module) --------------------------------------------------------
  registerDirectorHistoryRoutes(app, {
    path: '/api/labs/:id/directors',
    entryParam: 'directorId',
    invalidOwnerId: msg('labs.id_missing'),
    invalidEntryId: msg('labs.invalid_entry_id'),
    ownerOf: async (id) => directorsOf((await requireLab(app.db, id)).id),
    deletedMessage: 'Director entry deleted successfully.',
    imageRemovable: false,
  });

  // ---- notices, circulars, products, advertisements (multipart: name, description, file[, validUntil]) -----------

  const itemUpload = (kind: LabItemPath) =>
    ({
      area: kind,
      kind: isLabDocumentKind(kind) ? 'labNotice' : 'product',
      fileField: 'file',
      maxBytes: app.config.uploadMaxBytes,
    }) as const;

  app.post(
    '/api/labs/:id/:kind',
    { onRequest: adminOnly, schema: { params: kindParams, response: { 201: labItemJson } } },
    async (req, reply) => {
      const lab = await requireLab(app.db, req.params.id);
      const kind = req.params.kind;
      return withReceivedUpload(req, itemUpload(kind), async ({ fields, file }) => {
        const input = parseFields(labItemInputFor(kind), fields);
        // spec §5 Lab: a notice or circular needs its file ('All fields are required'); a product's file is optional.
        if (isLabDocumentKind(kind) && !file) throw badRequest('units.all_fields_required', 'file');
        // Decision 074: a notice or circular may ask to be acknowledged (fields checked after the spec's own).
        const acknowledgement = isLabDocumentKind(kind) ? parseFields(acknowledgementFieldsInput, fields) : undefined;
        const item = await createLabItem(
          app.db,
          signedInActor(req),
          lab.id,
          KIND_OF[kind],
          input,
          file,
          acknowledgement,
        );
        return reply.code(201).send(presentLabItem(item, todayInIndia()));
      });
    },
  );

  app.put(
    '/api/labs/:id/:kind/:itemId',
    { onRequest: adminOnly, schema: { params: itemParams, response: { 200: labItemJson } } },
    async (req) => {
      const lab = await requireLab(app.db, req.params.id);
      const kind = req.params.kind;
      return withReceivedUpload(req, itemUpload(kind), async ({ fields, file }) => {
        const input = parseFields(labItemInputFor(kind), fields);
        const acknowledgement = isLabDocumentKind(kind)
          ? parseFields(acknowledgementEditFieldsInput, fields)
          : undefined;
        const item = await updateLabItem(
          app.db,
          app.storage,
          signedInActor(req),
          lab.id,
          KIND_OF[kind],
          req.params.itemId,
          input,
          file,
          acknowledgement,
        );
        return presentLabItem(item, todayInIndia());
      });
    },
  );

  app.delete(
    '/api/labs/:id/:kind/:itemId',
    { onRequest: adminOnly, schema: { params: itemParams, response: { 200: messageJson } } },
    async (req) => {
      const lab = await requireLab(app.db, req.params.id);
      await deleteLabItem(app.db, app.storage, signedInActor(req), lab.id, KIND_OF[req.params.kind], req.params.itemId);
      return { message: `${SINGULAR[req.params.kind]} deleted successfully.` };
    },
  );
};
