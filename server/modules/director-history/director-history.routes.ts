import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { messageJson } from '#shared/schemas/common.ts';
import { directorEntryInput, directorEntryJson } from '#shared/schemas/unit.ts';

import { parseFields } from '#server/lib/validation.ts';
import { withReceivedUpload } from '#server/modules/files/upload-receive.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import { directorHistoryPolicy } from './director-history.policy.ts';
import { presentDirectorEntry } from './director-history.presenter.ts';
import {
  createDirectorEntry,
  deleteDirectorEntry,
  DIRECTOR_IMAGES_AREA,
  type DirectorHistoryOwner,
  updateDirectorEntry,
} from './director-history.service.ts';

/** A module plugin's app (typed by its zod schemas). */
type App = Parameters<FastifyPluginAsyncZod>[0];

export interface DirectorHistoryRoutes {
  /** The history's address, e.g. /api/labs/:id/directors; an entry is `${path}/:${entryParam}`. */
  path: string;
  entryParam: string;
  /** The 400s of a malformed owner or entry id in the address. */
  invalidOwnerId: string;
  invalidEntryId: string;
  /** The owner the address names (its 404 when there is none). */
  ownerOf: (id: string) => Promise<DirectorHistoryOwner>;
  deletedMessage: string;
  /** Whether an edit's `removeImage=true` field drops the entry's image (groups). */
  imageRemovable: boolean;
}

/**
 * POST, PUT (multipart: user or name, designation, from, to, about, image) and DELETE of one director history: the
 * lab's or a group's (spec §7). Admins only: a leader does not appoint themselves.
 */
export function registerDirectorHistoryRoutes(app: App, opts: DirectorHistoryRoutes): void {
  const adminOnly = [directorHistoryPolicy.guard('director_history.edit')];
  const params = z.object({ id: z.uuid(opts.invalidOwnerId) });
  const entryParams = params.extend({ [opts.entryParam]: z.uuid(opts.invalidEntryId) });
  const upload = { area: DIRECTOR_IMAGES_AREA, kind: 'image', fileField: 'image' } as const;
  /** The owner's and the entry's ids of an entry's address (validated by `entryParams`). */
  const idsOf = (p: Record<string, string | undefined>) => ({ ownerId: p.id!, entryId: p[opts.entryParam]! });

  app.post(
    opts.path,
    { onRequest: adminOnly, schema: { params, response: { 201: directorEntryJson } } },
    async (req, reply) => {
      const owner = await opts.ownerOf(req.params.id);
      const options = { ...upload, maxBytes: app.config.uploadMaxBytes };
      return withReceivedUpload(req, options, async ({ fields, file }) => {
        const input = parseFields(directorEntryInput, fields);
        const entry = await createDirectorEntry(app.db, app.storage, signedInActor(req), owner, input, file);
        return reply.code(201).send(presentDirectorEntry(entry));
      });
    },
  );

  app.put(
    `${opts.path}/:${opts.entryParam}`,
    { onRequest: adminOnly, schema: { params: entryParams, response: { 200: directorEntryJson } } },
    async (req) => {
      const { ownerId, entryId } = idsOf(req.params);
      const owner = await opts.ownerOf(ownerId);
      const options = { ...upload, maxBytes: app.config.uploadMaxBytes };
      return withReceivedUpload(req, options, async ({ fields, file }) => {
        const input = parseFields(directorEntryInput, fields);
        const removeImage = opts.imageRemovable && fields.removeImage === 'true';
        return presentDirectorEntry(
          await updateDirectorEntry(app.db, app.storage, signedInActor(req), owner, entryId, input, file, removeImage),
        );
      });
    },
  );

  app.delete(
    `${opts.path}/:${opts.entryParam}`,
    { onRequest: adminOnly, schema: { params: entryParams, response: { 200: messageJson } } },
    async (req) => {
      const { ownerId, entryId } = idsOf(req.params);
      await deleteDirectorEntry(app.db, app.storage, signedInActor(req), await opts.ownerOf(ownerId), entryId);
      return { message: opts.deletedMessage };
    },
  );
}
