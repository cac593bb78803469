import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { msg } from '#shared/messages/index.ts';
import { messageJson } from '#shared/schemas/common.ts';
import {
  addMembersInput,
  assignableStaffJson,
  createGroupInput,
  groupJson,
  groupMenuItemJson,
  groupNameJson,
  groupSummaryJson,
  moveMemberInput,
  myGroupJson,
  staffQuery,
  updateGroupInput,
} from '#shared/schemas/group.ts';

import type { Db } from '#server/db/client.ts';
import type { GroupRow } from '#server/db/schema/index.ts';
import { answerCache } from '#server/lib/answer-cache.ts';
import { sendPagingHeaders } from '#server/lib/paging.ts';
import { personalAnswer, sendPersonal } from '#server/lib/personal-cache.ts';
import { prepareJson, sendPrepared } from '#server/lib/prepared-answer.ts';
import { auditWho } from '#server/modules/audit-trail/audit-trail.ts';
import { type Actor, signedInActor } from '#server/plugins/auth.ts';

import { groupItemsRoutes } from './group-items.routes.ts';
import { groupLeadershipRoutes } from './group-leadership.routes.ts';
import { groupPageAnswer, myGroupAnswer } from './group-page.cache.ts';
import { requireGroupManager } from './groups.guards.ts';
import { groupsPolicy } from './groups.policy.ts';
import { GROUP_FILES_AREA, presentGroup } from './groups.presenter.ts';
import {
  canManageGroup,
  canOpenGroupFile,
  findGroupAndManagerOr404,
  findGroupOr404,
  groupsLedBy,
} from './groups.queries.ts';
import {
  addMembers,
  createGroup,
  findMyGroup,
  listAssignableStaff,
  listGroups,
  loadGroupDetails,
  moveMember,
  removeMember,
  updateGroup,
} from './groups.service.ts';

const groupNameListJson = z.array(groupNameJson);
const groupMenuJson = z.array(groupMenuItemJson);
/** GET /api/groups/name, one answer per version of the directory. */
const groupNameAnswers = answerCache('group names', { entries: 1, bytes: 4 * 1024 * 1024 });

const groupParams = z.object({ id: z.uuid(msg('groups.not_found')) });
const memberParams = z.object({
  id: z.uuid(msg('groups.not_found')),
  userId: z.uuid(msg('groups.not_a_member')),
});

/** The whole group as the spec's JSON, with whether this actor may edit it. */
export async function groupFor(db: Db, actor: Actor, group: GroupRow) {
  return presentGroup(group, await loadGroupDetails(db, group.id), await canManageGroup(db, actor, group.id));
}

/** Research groups (decision 006): spec §7 Groups, plus membership management and the staff picker. */
export const groupsRoutes: FastifyPluginAsyncZod = async (app) => {
  // Group notices, circulars and files open for whoever may view their group (admins pass before this is asked).
  app.fileAccess.register(GROUP_FILES_AREA, (db, actor, file) => canOpenGroupFile(db, actor, file.id));

  const adminOnly = [groupsPolicy.guard('groups.administer')];
  const manager = [requireGroupManager(app, 'id')];

  app.get('/api/groups', { schema: { response: { 200: z.array(groupSummaryJson) } } }, async () =>
    (await listGroups(app.db)).map((g) => ({ _id: g.id, name: g.name, description: g.description })),
  );

  // The same for everyone: made once per version of the directory (a group added, removed or renamed moves it,
  // migrations 0019 and 0034), which every signed-in request reads with its session check (decision 089).
  app.get('/api/groups/name', { schema: { response: { 200: groupNameListJson } } }, async (req, reply) =>
    sendPrepared(
      req,
      reply,
      await groupNameAnswers(app.db, 'groups/name', req.directoryVersion!, async () =>
        prepareJson(groupNameListJson.parse((await listGroups(app.db)).map((g) => ({ _id: g.id, name: g.name })))),
      ),
      'private, no-cache',
    ),
  );

  // The Groups menu: every group, with the person's own marked and those they may not open flagged.
  // Kept per person (server/lib/personal-cache.ts): the groups' names move the directory's version, who leads a
  // group the personal one (its director entries), the person's role and group their own row's.
  app.get('/api/groups/menu', { schema: { response: { 200: groupMenuJson } } }, async (req, reply) =>
    sendPersonal(req, reply, async () => {
      const actor = signedInActor(req);
      const [all, led] = await Promise.all([listGroups(app.db), groupsLedBy(app.db, actor)]);
      return {
        body: groupMenuJson.parse(
          all.map((g) => {
            const mine = g.id === actor.groupId || led.includes(g.id);
            return {
              _id: g.id,
              name: g.name,
              mine,
              canOpen: mine || groupsPolicy.allows(actor, 'groups.view', { groupId: g.id }),
            };
          }),
        ),
      };
    }),
  );

  // Made once per version of the group, like the group page (group-page.cache.ts).
  app.get('/api/groups/my-group', { schema: { response: { 200: myGroupJson } } }, async (req, reply) =>
    sendPrepared(
      req,
      reply,
      await personalAnswer(req, async () => myGroupAnswer(app.db, await findMyGroup(app.db, signedInActor(req)))),
      'private, no-cache',
    ),
  );

  // Staff an admin may put in a group: the create form's checklist and Manage Members. Total and next page in headers.
  app.get(
    '/api/groups/staff',
    {
      onRequest: adminOnly,
      config: { paged: true },
      schema: { querystring: staffQuery, response: { 200: z.array(assignableStaffJson) } },
    },
    async (req, reply) => {
      const { rows, total } = await listAssignableStaff(app.db, req.query);
      const { limit, offset } = req.query;
      sendPagingHeaders(req, reply, { limit, offset, count: rows.length, total });
      return rows.map((r) => ({
        _id: r.id,
        name: r.name,
        email: r.email,
        role: r.role,
        group: r.groupId ? { _id: r.groupId, name: r.groupName ?? '' } : null,
      }));
    },
  );

  // The group page: spec §6, directors, admins and members only; everyone else gets the spec's Access Denied text.
  // Its answer is made once per version of the group (group-page.cache.ts) and sent as it is, 304 when unchanged.
  app.get(
    '/api/groups/id/:id',
    { schema: { params: groupParams, response: { 200: groupJson } } },
    // Kept per viewer as well (server/lib/personal-cache.ts): a change to the group's content moves the personal
    // version (migration 0034), who may see or manage it follows the viewer's row and the director entries. The kept
    // entry is the group's own answer, not a copy. A refusal is never kept.
    async (req, reply) => {
      const answer = await personalAnswer(req, async () => {
        const { group, managerId } = await findGroupAndManagerOr404(app.db, req.params.id);
        groupsPolicy.authorize(signedInActor(req), 'groups.view', { groupId: group.id });
        const canManage = groupsPolicy.allows(req.actor, 'groups.manage', { groupId: group.id, managerId });
        return groupPageAnswer(app.db, group, canManage);
      });
      return sendPrepared(req, reply, answer, 'private, no-cache');
    },
  );

  // The group for editing: only those who may save it.
  app.get(
    '/api/groups/:id',
    { onRequest: manager, schema: { params: groupParams, response: { 200: groupJson } } },
    async (req) => groupFor(app.db, signedInActor(req), await findGroupOr404(app.db, req.params.id)),
  );

  app.post(
    '/api/groups',
    {
      onRequest: adminOnly,
      schema: {
        querystring: z.object({ labId: z.uuid(msg('labs.id_missing')).optional() }),
        body: createGroupInput,
        response: { 201: groupJson },
      },
    },
    async (req, reply) => {
      const group = await createGroup(app.db, signedInActor(req), req.body, auditWho(req), req.query.labId);
      return reply.code(201).send(await groupFor(app.db, signedInActor(req), group));
    },
  );

  app.put(
    '/api/groups/:id',
    { onRequest: manager, schema: { params: groupParams, body: updateGroupInput, response: { 200: groupJson } } },
    async (req) => {
      const group = await updateGroup(app.db, signedInActor(req), req.params.id, req.body);
      return groupFor(app.db, signedInActor(req), group);
    },
  );

  // ---- Manage Members (spec §2 calls it a static placeholder; built for real): admins only ----------------------

  app.post(
    '/api/groups/:id/members',
    {
      onRequest: adminOnly,
      schema: {
        params: groupParams,
        body: addMembersInput,
        response: { 200: z.object({ message: z.string(), added: z.number() }) },
      },
    },
    async (req) => {
      const group = await findGroupOr404(app.db, req.params.id);
      const added = await addMembers(app.db, signedInActor(req), group, req.body.userIds, auditWho(req));
      return { message: added === 1 ? '1 member added.' : `${added} members added.`, added };
    },
  );

  app.put(
    '/api/groups/:id/members/:userId',
    {
      onRequest: adminOnly,
      schema: {
        params: memberParams,
        body: moveMemberInput,
        response: { 200: z.object({ message: z.string(), group: groupNameJson }) },
      },
    },
    async (req) => {
      const group = await findGroupOr404(app.db, req.params.id);
      const target = await moveMember(
        app.db,
        signedInActor(req),
        group,
        req.params.userId,
        req.body.groupId,
        auditWho(req),
      );
      return { message: `Member moved to ${target.name}.`, group: { _id: target.id, name: target.name } };
    },
  );

  app.delete(
    '/api/groups/:id/members/:userId',
    { onRequest: adminOnly, schema: { params: memberParams, response: { 200: messageJson } } },
    async (req) => {
      const group = await findGroupOr404(app.db, req.params.id);
      await removeMember(app.db, signedInActor(req), group, req.params.userId, auditWho(req));
      return { message: 'Member removed from the group.' };
    },
  );

  await app.register(groupLeadershipRoutes);
  await app.register(groupItemsRoutes);
};
