import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { DEFAULT_PAGE_SIZE } from '#shared/constants.ts';
import { msg } from '#shared/messages/index.ts';
import {
  classifyDocumentInput,
  closeGroupDocumentJson,
  closeGroupInput,
  closeGroupJson,
  closeGroupListQuery,
  renameDocumentInput,
  uploadDocumentFields,
} from '#shared/schemas/close-group.ts';
import { messageJson, uuidParam } from '#shared/schemas/common.ts';
import { pageJson } from '#shared/schemas/user.ts';

import { badRequest } from '#server/lib/errors.ts';
import { sendPersonal } from '#server/lib/personal-cache.ts';
import { parseFields } from '#server/lib/validation.ts';
import { auditWho } from '#server/modules/audit-trail/audit-trail.ts';
import { withReceivedUpload } from '#server/modules/files/upload-receive.ts';
import { type Actor, signedInActor } from '#server/plugins/auth.ts';

import {
  addCloseGroupDocument,
  classifyCloseGroupDocument,
  deleteCloseGroupDocument,
  findCloseGroupRow,
  renameCloseGroupDocument,
} from './close-groups.documents.ts';
import { canDownloadCloseGroupFile, recordedCloseGroupFile } from './close-groups.files.ts';
import { closeGroupsPolicy } from './close-groups.policy.ts';
import { presentCloseGroup, presentCloseGroupDocument } from './close-groups.presenter.ts';
import {
  assertCanViewCloseGroup,
  CLOSE_GROUP_AREA,
  type CloseGroupDetail,
  createCloseGroup,
  deleteCloseGroup,
  findCloseGroup,
  listCloseGroups,
  listCloseGroupsOf,
  updateCloseGroup,
} from './close-groups.service.ts';

const documentParams = z.object({ id: z.uuid(msg('common.invalid_id')), docId: z.uuid(msg('common.invalid_id')) });
const documentResult = z.object({ message: z.string(), document: closeGroupDocumentJson });
const closeGroupList = z.union([z.array(closeGroupJson), pageJson(closeGroupJson)]);

type ListQuery = { limit?: number; offset?: number };
/** A page when limit or offset is given, else the whole list. */
const pageOf = (q: ListQuery) =>
  q.limit !== undefined || q.offset !== undefined
    ? { limit: q.limit ?? DEFAULT_PAGE_SIZE, offset: q.offset ?? 0 }
    : undefined;
/** An array, as spec §7 has it; a page {items, total} when one was asked for. */
function answerList(list: { items: CloseGroupDetail[]; total: number }, actor: Actor, q: ListQuery) {
  const items = list.items.map((g) => presentCloseGroup(g, actor));
  return pageOf(q) ? { items, total: list.total } : items;
}

/**
 * Close groups (decision 007). Admin API of spec §7 (GET, POST, PUT, DELETE /admin/close-group[/{id}]) and the members'
 * document API (/api/close-groups/...).
 */
export const closeGroupsRoutes: FastifyPluginAsyncZod = async (app) => {
  // A stored document opens only for its close group's members and admins; a Confidential or Secret one only for
  // those cleared (decision 072); one of a class STEP_UP_CLASSIFICATIONS guards only within a step-up, admins
  // included (`everyone`, as the letters' area: decision 095). Every download and refusal is in the audit trail, and a
  // PDF Restricted or above is watermarked (decisions 070-071).
  app.fileAccess.register(CLOSE_GROUP_AREA, canDownloadCloseGroupFile, {
    everyone: true,
    recorded: recordedCloseGroupFile,
  });

  const adminOnly = [closeGroupsPolicy.guard('close_groups.administer')];

  app.get(
    '/admin/close-group',
    { onRequest: adminOnly, schema: { querystring: closeGroupListQuery, response: { 200: closeGroupList } } },
    async (req) => answerList(await listCloseGroups(app.db, pageOf(req.query)), signedInActor(req), req.query),
  );

  app.get(
    '/admin/close-group/:id',
    { onRequest: adminOnly, schema: { params: uuidParam, response: { 200: closeGroupJson } } },
    async (req) => presentCloseGroup(await findCloseGroup(app.db, req.params.id), signedInActor(req)),
  );

  app.post(
    '/admin/close-group',
    { onRequest: adminOnly, schema: { body: closeGroupInput, response: { 201: closeGroupJson } } },
    async (req, reply) =>
      reply
        .code(201)
        .send(
          presentCloseGroup(
            await createCloseGroup(app.db, signedInActor(req), auditWho(req), req.body),
            signedInActor(req),
          ),
        ),
  );

  app.put(
    '/admin/close-group/:id',
    { onRequest: adminOnly, schema: { params: uuidParam, body: closeGroupInput, response: { 200: closeGroupJson } } },
    async (req) =>
      presentCloseGroup(
        await updateCloseGroup(app.db, signedInActor(req), auditWho(req), req.params.id, req.body),
        signedInActor(req),
      ),
  );

  app.delete(
    '/admin/close-group/:id',
    { onRequest: adminOnly, schema: { params: uuidParam, response: { 200: messageJson } } },
    async (req) => {
      await deleteCloseGroup(app.db, app.storage, signedInActor(req), auditWho(req), req.params.id);
      return { message: 'Group deleted successfully!' };
    },
  );

  // --- Members: the user id always comes from the token (spec §6), never from the client.

  app.get(
    '/api/close-groups/mine',
    { schema: { querystring: closeGroupListQuery, response: { 200: closeGroupList } } },
    // Kept per person until a close group, its members or documents change (server/lib/personal-cache.ts).
    async (req, reply) =>
      sendPersonal(req, reply, async () => {
        const actor = signedInActor(req);
        const list = await listCloseGroupsOf(app.db, actor, pageOf(req.query));
        return { body: closeGroupList.parse(answerList(list, actor, req.query)) };
      }),
  );

  app.get(
    '/api/close-groups/:id',
    { schema: { params: uuidParam, response: { 200: closeGroupJson } } },
    async (req) => {
      const detail = await findCloseGroup(app.db, req.params.id);
      await assertCanViewCloseGroup(app.db, signedInActor(req), req.params.id);
      return presentCloseGroup(detail, signedInActor(req));
    },
  );

  app.post(
    '/api/close-groups/:id/upload',
    { schema: { params: uuidParam, response: { 201: documentResult } } },
    async (req, reply) => {
      // Who and when are checked before a byte of the upload is read.
      const group = await findCloseGroupRow(app.db, req.params.id);
      await assertCanViewCloseGroup(app.db, signedInActor(req), group.id);
      closeGroupsPolicy.authorize(signedInActor(req), 'close_groups.write', group);
      const options = {
        area: CLOSE_GROUP_AREA,
        kind: 'document',
        fileField: 'document',
        maxBytes: app.config.uploadMaxBytes,
      } as const;
      return withReceivedUpload(req, options, async ({ file, fields }) => {
        // The classification beside the file (decision 072): Unclassified unless chosen.
        const { classification } = parseFields(uploadDocumentFields, fields);
        if (!file) throw badRequest('close_groups.file_required', 'document');
        const doc = await addCloseGroupDocument(app.db, signedInActor(req), group.id, file, classification);
        return reply.code(201).send({
          message: 'Document uploaded successfully!',
          document: presentCloseGroupDocument(
            { ...doc, size: file.size, uploadedBy: { id: signedInActor(req).id, name: signedInActor(req).name } },
            signedInActor(req),
            group,
          ),
        });
      });
    },
  );

  app.put(
    '/api/close-groups/:id/documents/:docId',
    {
      schema: { params: documentParams, body: renameDocumentInput, response: { 200: documentResult } },
    },
    async (req) => {
      const group = await findCloseGroupRow(app.db, req.params.id);
      await assertCanViewCloseGroup(app.db, signedInActor(req), group.id);
      await renameCloseGroupDocument(app.db, signedInActor(req), group.id, req.params.docId, req.body.newFilename);
      const detail = await findCloseGroup(app.db, group.id);
      const doc = detail.documents.find((d) => d.id === req.params.docId)!;
      return {
        message: 'Document renamed successfully!',
        document: presentCloseGroupDocument(doc, signedInActor(req), detail.group),
      };
    },
  );

  // A document's classification (decision 072), beside the spec's rename (which keeps its body {newFilename}).
  app.put(
    '/api/close-groups/:id/documents/:docId/classification',
    { schema: { params: documentParams, body: classifyDocumentInput, response: { 200: documentResult } } },
    async (req) => {
      const group = await findCloseGroupRow(app.db, req.params.id);
      await assertCanViewCloseGroup(app.db, signedInActor(req), group.id);
      await classifyCloseGroupDocument(
        app.db,
        signedInActor(req),
        auditWho(req),
        group.id,
        req.params.docId,
        req.body.classification,
      );
      const detail = await findCloseGroup(app.db, group.id);
      const doc = detail.documents.find((d) => d.id === req.params.docId)!;
      return {
        message: 'Classification changed.',
        document: presentCloseGroupDocument(doc, signedInActor(req), detail.group),
      };
    },
  );

  app.delete(
    '/api/close-groups/:id/documents/:docId',
    { schema: { params: documentParams, response: { 200: messageJson } } },
    async (req) => {
      const group = await findCloseGroupRow(app.db, req.params.id);
      await assertCanViewCloseGroup(app.db, signedInActor(req), group.id);
      await deleteCloseGroupDocument(app.db, app.storage, signedInActor(req), group.id, req.params.docId);
      return { message: 'Document deleted successfully!' };
    },
  );
};
