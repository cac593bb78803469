import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { msg } from '#shared/messages/index.ts';
import { messageJson } from '#shared/schemas/common.ts';
import {
  type PhotoJson,
  photoJson,
  photoPageQuery,
  updatePhotoInput,
  uploadPhotoInput,
} from '#shared/schemas/gallery.ts';

import { badRequest } from '#server/lib/errors.ts';
import { sendPagingHeaders } from '#server/lib/paging.ts';
import { parseFields } from '#server/lib/validation.ts';
import { fileUrl } from '#server/modules/files/storage-areas.ts';
import { withReceivedUpload } from '#server/modules/files/upload-receive.ts';
import { cachedRead } from '#server/modules/labs/labs.cache.ts';
import { requireLab } from '#server/modules/labs/labs.service.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import { galleryPolicy } from './gallery.policy.ts';
import { createPhoto, deletePhoto, listPhotos, makeWebPhoto, type PhotoRow, updatePhoto } from './gallery.service.ts';

/** Row -> spec JSON (spec §3 Lab photo), with the web copy's link beside the original's. */
export const presentPhoto = (p: PhotoRow): PhotoJson => ({
  _id: p.id,
  name: p.name,
  description: p.description,
  fileUrl: fileUrl('photos', p.fileId),
  webUrl: fileUrl('photos', p.webFileId ?? p.fileId),
  createdAt: p.createdAt.toISOString(),
});

const labParams = z.object({ id: z.uuid(msg('gallery.lab_id_missing')) });
const photoParams = labParams.extend({ photoId: z.uuid(msg('gallery.invalid_photo_id')) });

/** The lab's photo gallery (spec §7 Labs: photos). Reading is public; uploads, edits and deletes are admin-only. */
export const galleryRoutes: FastifyPluginAsyncZod = async (app) => {
  const adminOnly = [galleryPolicy.guard('gallery.edit')];

  app.get(
    '/api/labs/:id/photos',
    {
      config: { public: true, paged: true },
      schema: { params: labParams, querystring: photoPageQuery, response: { 200: z.array(photoJson) } },
    },
    async (req, reply) => {
      // One of the lab home's reads, kept like the others (labs.cache.ts; every gallery write is a lab write).
      const { limit, skip } = req.query;
      const { id } = req.params;
      const page = await cachedRead(app.db, `photos:${id}:${skip}:${limit}`, async () =>
        listPhotos(app.db, (await requireLab(app.db, id)).id, { skip, limit }),
      );
      // The spec's answer is an array (?skip&limit); the total and the next page ride in headers.
      sendPagingHeaders(req, reply, {
        limit,
        offset: skip,
        offsetParam: 'skip',
        count: page.photos.length,
        total: page.total,
      });
      return page.photos.map(presentPhoto);
    },
  );

  app.post(
    '/api/labs/:id/upload-photo',
    { onRequest: adminOnly, schema: { params: labParams, response: { 201: photoJson } } },
    async (req, reply) => {
      const lab = await requireLab(app.db, req.params.id);
      const options = {
        area: 'photos',
        kind: 'image',
        fileField: 'photo',
        maxBytes: app.config.uploadMaxBytes,
      } as const;
      return withReceivedUpload(req, options, async (upload) => {
        const input = parseFields(uploadPhotoInput, upload.fields);
        if (!upload.file) throw badRequest('gallery.upload_incomplete', 'photo');
        const web = upload.alsoDiscardOnFailure(await makeWebPhoto(app.storage, app.config.sandbox, upload.file));
        const photo = await createPhoto(app.db, signedInActor(req), lab.id, input, upload.file, web);
        return reply.code(201).send(presentPhoto(photo));
      });
    },
  );

  app.put(
    '/api/labs/:id/photos/:photoId',
    { onRequest: adminOnly, schema: { params: photoParams, body: updatePhotoInput, response: { 200: photoJson } } },
    async (req) => {
      const lab = await requireLab(app.db, req.params.id);
      return presentPhoto(await updatePhoto(app.db, signedInActor(req), lab.id, req.params.photoId, req.body));
    },
  );

  app.delete(
    '/api/labs/:id/photos/:photoId',
    { onRequest: adminOnly, schema: { params: photoParams, response: { 200: messageJson } } },
    async (req) => {
      const lab = await requireLab(app.db, req.params.id);
      await deletePhoto(app.db, app.storage, signedInActor(req), lab.id, req.params.photoId);
      return { message: 'Photo deleted successfully!' };
    },
  );
};
