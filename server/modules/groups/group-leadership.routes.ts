import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageJson } from '#shared/schemas/common.ts';
import { directorEntryInput, directorEntryJson, officeMemberInput, officeMemberJson } from '#shared/schemas/unit.ts';
import { parseFields } from '#server/lib/validation.ts';
import { receiveMultipart } from '#server/modules/files/storage.ts';
import { findGroupOr404 } from './groups.policy.ts';
import { requireGroupManager } from './groups.guards.ts';
import { DIRECTOR_IMAGES_AREA, presentEntry, presentOffice } from './groups.presenter.ts';
import {
  createDirectorEntry,
  createOfficeMember,
  deleteDirectorEntry,
  deleteOfficeMember,
  updateDirectorEntry,
  updateOfficeMember,
} from './group-leadership.service.ts';

const groupParams = z.object({ id: z.uuid('Group not found.') });
const entryParams = z.object({ id: z.uuid('Group not found.'), entryId: z.uuid('Entry not found.') });
const officeParams = z.object({ id: z.uuid('Group not found.'), memberId: z.uuid('Office member not found.') });

/**
 * Associate-director history (multipart, admins only: a group's leader does not appoint themselves) and the O/o
 * Group Leader table (JSON, admins and the group's current associate director). Spec §7 Groups.
 */
export const groupLeadershipRoutes: FastifyPluginAsyncZod = async (app) => {
  const adminOnly = [app.requireRole('admin')];
  const manager = [requireGroupManager(app, 'id')];

  const receiveEntry = (req: Parameters<typeof receiveMultipart>[0]) =>
    receiveMultipart(req, {
      area: DIRECTOR_IMAGES_AREA,
      kind: 'image',
      fileField: 'image',
      maxBytes: app.config.uploadMaxBytes,
    });

  app.post(
    '/api/groups/:id/assistant-director-history',
    { onRequest: adminOnly, schema: { params: groupParams, response: { 201: directorEntryJson } } },
    async (req, reply) => {
      const group = await findGroupOr404(app.db, req.params.id);
      const upload = await receiveEntry(req);
      try {
        const input = parseFields(directorEntryInput, upload.fields);
        const entry = await createDirectorEntry(app.db, req.user, group, input, upload.file);
        return reply.code(201).send(presentEntry(entry));
      } catch (err) {
        await upload.discard();
        throw err;
      }
    },
  );

  app.put(
    '/api/groups/:id/assistant-director-history/:entryId',
    { onRequest: adminOnly, schema: { params: entryParams, response: { 200: directorEntryJson } } },
    async (req) => {
      const group = await findGroupOr404(app.db, req.params.id);
      const upload = await receiveEntry(req);
      try {
        const input = parseFields(directorEntryInput, upload.fields);
        const removeImage = upload.fields.removeImage === 'true';
        return presentEntry(
          await updateDirectorEntry(app.db, req.user, group, req.params.entryId, input, upload.file, removeImage),
        );
      } catch (err) {
        await upload.discard();
        throw err;
      }
    },
  );

  app.delete(
    '/api/groups/:id/assistant-director-history/:entryId',
    { onRequest: adminOnly, schema: { params: entryParams, response: { 200: messageJson } } },
    async (req) => {
      const group = await findGroupOr404(app.db, req.params.id);
      await deleteDirectorEntry(app.db, req.user, group, req.params.entryId);
      return { message: 'Entry deleted successfully.' };
    },
  );

  app.post(
    '/api/groups/:id/office',
    {
      onRequest: manager,
      schema: { params: groupParams, body: officeMemberInput, response: { 201: officeMemberJson } },
    },
    async (req, reply) => {
      const group = await findGroupOr404(app.db, req.params.id);
      return reply.code(201).send(presentOffice(await createOfficeMember(app.db, req.user, group, req.body)));
    },
  );

  app.put(
    '/api/groups/:id/office/:memberId',
    {
      onRequest: manager,
      schema: { params: officeParams, body: officeMemberInput, response: { 200: officeMemberJson } },
    },
    async (req) => {
      const group = await findGroupOr404(app.db, req.params.id);
      return presentOffice(await updateOfficeMember(app.db, req.user, group, req.params.memberId, req.body));
    },
  );

  app.delete(
    '/api/groups/:id/office/:memberId',
    { onRequest: manager, schema: { params: officeParams, response: { 200: messageJson } } },
    async (req) => {
      const group = await findGroupOr404(app.db, req.params.id);
      await deleteOfficeMember(app.db, req.user, group, req.params.memberId);
      return { message: 'Office member removed successfully.' };
    },
  );
};
