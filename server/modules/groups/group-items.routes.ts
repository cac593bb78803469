import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { MAX_PAGE_SIZE } from '#shared/constants.ts';
import { type MessageCode, msg } from '#shared/messages/index.ts';
import { acknowledgementEditFieldsInput, acknowledgementFieldsInput } from '#shared/schemas/acknowledgements.ts';
import { messageJson } from '#shared/schemas/common.ts';
import {
  GROUP_DOCUMENT_FIELDS,
  GROUP_FILE_FIELDS,
  groupAchievementsJson,
  groupItemInputFor,
  groupItemJson,
} from '#shared/schemas/group.ts';

import { badRequest } from '#server/lib/errors.ts';
import { sendPage } from '#server/lib/paging.ts';
import { parseFields } from '#server/lib/validation.ts';
import { fileUrl } from '#server/modules/files/storage-areas.ts';
import { withReceivedUpload } from '#server/modules/files/upload-receive.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import {
  countAchievementGroups,
  countGroupItems,
  createGroupItem,
  deleteGroupItem,
  listAchievements,
  listGroupItems,
  updateGroupItem,
} from './group-items.service.ts';
import { requireGroupManager } from './groups.guards.ts';
import { groupsPolicy } from './groups.policy.ts';
import { GROUP_FILES_AREA, type GroupItemField, presentItem } from './groups.presenter.ts';
import { findGroupOr404 } from './groups.queries.ts';

const SINGULAR: Record<GroupItemField, string> = {
  notices: 'Notice',
  circulars: 'Circular',
  projects: 'Project',
  patents: 'Patent',
  technologies: 'Technology',
  courses: 'Course',
  publications: 'Publication',
};

const isDocument = (field: GroupItemField) => field === 'notices' || field === 'circulars';

const itemQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(MAX_PAGE_SIZE),
  offset: z.coerce.number().int().min(0).default(0),
});

/**
 * Group notices and circulars (/api/groups/{id}/{notices|circulars}) and the five group file managers
 * (/api/group-files/{groupId}/{field}), spec §7. Writes: admins and the group's current associate director.
 */
export const groupItemsRoutes: FastifyPluginAsyncZod = async (app) => {
  /** Spec §9 group file types (pdf, ppt, pptx, xls, xlsx, video): videos may be large. Notices take document types. */
  const uploadOf = (field: GroupItemField) =>
    ({
      area: GROUP_FILES_AREA,
      kind: field === 'notices' || field === 'circulars' ? 'labNotice' : 'groupFile',
      fileField: 'file',
      maxBytes:
        field === 'notices' || field === 'circulars' ? app.config.uploadMaxBytes : app.config.largeUploadMaxBytes,
    }) as const;

  const routesFor = (field: GroupItemField, base: string, param: 'id' | 'groupId', missingFile: MessageCode) => {
    const params = z.object({ [param]: z.uuid(msg('groups.not_found')) });
    const itemParams = z.object({
      [param]: z.uuid(msg('groups.not_found')),
      itemId: z.uuid(msg('groups.item_not_found')),
    });
    const manager = [requireGroupManager(app, param)];
    const groupIdOf = (p: Record<string, string>) => p[param]!;

    app.post(
      `${base}`,
      { onRequest: manager, schema: { params, response: { 201: groupItemJson } } },
      async (req, reply) => {
        const group = await findGroupOr404(app.db, groupIdOf(req.params));
        return withReceivedUpload(req, uploadOf(field), async ({ fields, file }) => {
          const input = parseFields(groupItemInputFor(field), fields);
          if (!file) throw badRequest(missingFile, 'file');
          // Decision 074: a notice or circular may ask to be acknowledged (fields checked after the spec's own).
          const acknowledgement = isDocument(field) ? parseFields(acknowledgementFieldsInput, fields) : undefined;
          const item = await createGroupItem(app.db, signedInActor(req), group, field, input, file, acknowledgement);
          return reply.code(201).send(presentItem(item));
        });
      },
    );

    app.put(
      `${base}/:itemId`,
      { onRequest: manager, schema: { params: itemParams, response: { 200: groupItemJson } } },
      async (req) => {
        const group = await findGroupOr404(app.db, groupIdOf(req.params));
        const itemId = req.params.itemId as string;
        return withReceivedUpload(req, uploadOf(field), async ({ fields, file }) => {
          const input = parseFields(groupItemInputFor(field), fields);
          const acknowledgement = isDocument(field) ? parseFields(acknowledgementEditFieldsInput, fields) : undefined;
          return presentItem(
            await updateGroupItem(
              app.db,
              app.storage,
              signedInActor(req),
              group,
              field,
              itemId,
              input,
              file,
              acknowledgement,
            ),
          );
        });
      },
    );

    app.delete(
      `${base}/:itemId`,
      { onRequest: manager, schema: { params: itemParams, response: { 200: messageJson } } },
      async (req) => {
        const group = await findGroupOr404(app.db, groupIdOf(req.params));
        await deleteGroupItem(app.db, app.storage, signedInActor(req), group, field, req.params.itemId as string);
        return { message: `${SINGULAR[field]} deleted successfully.` };
      },
    );
  };

  for (const field of GROUP_DOCUMENT_FIELDS)
    routesFor(field, `/api/groups/:id/${field}`, 'id', 'units.all_fields_required');
  for (const field of GROUP_FILE_FIELDS) {
    routesFor(field, `/api/group-files/:groupId/${field}`, 'groupId', 'groups.files_required');

    app.get(
      `/api/group-files/:groupId/${field}`,
      {
        schema: {
          params: z.object({ groupId: z.uuid(msg('groups.not_found')) }),
          querystring: itemQuery,
          response: { 200: z.array(groupItemJson) },
        },
        config: { paged: true },
      },
      async (req, reply) => {
        const group = await findGroupOr404(app.db, req.params.groupId);
        groupsPolicy.authorize(signedInActor(req), 'groups.view', { groupId: group.id });
        const rows = await listGroupItems(app.db, group.id, field, req.query);
        await sendPage(req, reply, req.query, rows.length, () => countGroupItems(app.db, group.id, field));
        return rows.map(presentItem);
      },
    );
  }

  // Lab home, Product & Achievements: every group's five lists, public (decision 006). The files stay private:
  // fileUrl is given only to those who may open them.
  app.get(
    '/api/group-files',
    {
      config: { public: true, identifies: true, paged: true },
      schema: {
        querystring: z.object({
          limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(50),
          offset: z.coerce.number().int().min(0).default(0),
        }),
        response: { 200: z.array(groupAchievementsJson) },
      },
    },
    async (req, reply) => {
      const rows = await listAchievements(app.db, req.query);
      await sendPage(req, reply, req.query, rows.length, () => countAchievementGroups(app.db));
      const out = [];
      for (const g of rows) {
        const canOpen = groupsPolicy.allows(req.actor, 'groups.view', { groupId: g.id });
        const present = (i: { id: string; name: string; description: string; fileId: string | null }) => ({
          _id: i.id,
          name: i.name,
          description: i.description,
          fileUrl: canOpen ? fileUrl(GROUP_FILES_AREA, i.fileId) : null,
          hasFile: Boolean(i.fileId),
        });
        out.push({
          _id: g.id,
          name: g.name,
          projects: g.lists.projects.map(present),
          patents: g.lists.patents.map(present),
          technologies: g.lists.technologies.map(present),
          courses: g.lists.courses.map(present),
          publications: g.lists.publications.map(present),
        });
      }
      return out;
    },
  );
};
