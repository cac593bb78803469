import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { msg } from '#shared/messages/index.ts';
import { messageJson } from '#shared/schemas/common.ts';
import { officeMemberInput, officeMemberJson } from '#shared/schemas/unit.ts';

import { registerDirectorHistoryRoutes } from '#server/modules/director-history/director-history.routes.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import {
  associateDirectorsOf,
  createOfficeMember,
  deleteOfficeMember,
  updateOfficeMember,
} from './group-leadership.service.ts';
import { requireGroupManager } from './groups.guards.ts';
import { presentOffice } from './groups.presenter.ts';
import { findGroupOr404 } from './groups.queries.ts';

const groupParams = z.object({ id: z.uuid(msg('groups.not_found')) });
const officeParams = z.object({
  id: z.uuid(msg('groups.not_found')),
  memberId: z.uuid(msg('groups.office_member_not_found')),
});

/**
 * Associate-director history (multipart, admins only: a group's leader does not appoint themselves) and the O/o
 * Group Leader table (JSON, admins and the group's current associate director). Spec §7 Groups.
 */
export const groupLeadershipRoutes: FastifyPluginAsyncZod = async (app) => {
  const manager = [requireGroupManager(app, 'id')];

  registerDirectorHistoryRoutes(app, {
    path: '/api/groups/:id/assistant-director-history',
    entryParam: 'entryId',
    invalidOwnerId: msg('groups.not_found'),
    invalidEntryId: msg('groups.entry_not_found'),
    ownerOf: async (id) => associateDirectorsOf(await findGroupOr404(app.db, id)),
    deletedMessage: 'Entry deleted successfully.',
    imageRemovable: true,
  });

  app.post(
    '/api/groups/:id/office',
    {
      onRequest: manager,
      schema: { params: groupParams, body: officeMemberInput, response: { 201: officeMemberJson } },
    },
    async (req, reply) => {
      const group = await findGroupOr404(app.db, req.params.id);
      return reply.code(201).send(presentOffice(await createOfficeMember(app.db, signedInActor(req), group, req.body)));
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
      return presentOffice(await updateOfficeMember(app.db, signedInActor(req), group, req.params.memberId, req.body));
    },
  );

  app.delete(
    '/api/groups/:id/office/:memberId',
    { onRequest: manager, schema: { params: officeParams, response: { 200: messageJson } } },
    async (req) => {
      const group = await findGroupOr404(app.db, req.params.id);
      await deleteOfficeMember(app.db, signedInActor(req), group, req.params.memberId);
      return { message: 'Office member removed successfully.' };
    },
  );
};
