import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { msg } from '#shared/messages/index.ts';

import { notFound } from '#server/lib/errors.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import { filesPolicy } from './files.policy.ts';
import { PAST_END } from './files.send.ts';
import { fileByName, fileServer } from './files.serve.ts';
import { ocrRoutes } from './ocr.routes.ts';
import { previewState } from './previews.ts';
import { type Area, AREAS, PUBLIC_AREAS } from './storage-areas.ts';

/**
 * GET /uploads/{area}/{fileName}: public areas for everyone, private ones after an access check. The local disk is
 * served by @fastify/static's reply.sendFile after that check (ranges for 2 GB videos and repository ZIPs, resume,
 * ETag and 304 come from the library); an S3 object streams through the portal (decision 022).
 */
export const filesRoutes: FastifyPluginAsyncZod = async (app) => {
  // @fastify/static for downloads alone (the web build is served from memory by web.ts): reply.sendFile with the
  // uploads folder as the root of each call.
  if (!app.hasReplyDecorator('sendFile')) await app.register(fastifyStatic, { serve: false });
  const { serve, close } = fileServer(app);
  await ocrRoutes(app, {});
  app.addHook('onClose', close);

  // @fastify/static's own refusals in the portal's words: a range past the end (416, with the file's size).
  // Any refusal is the portal's JSON, not the file: its name goes (Fastify drops the file's type itself).
  app.setErrorHandler((err, _req, reply) => {
    reply.removeHeader('Content-Disposition');
    if ((err as { statusCode?: number }).statusCode !== 416) throw err;
    const range = (err as { headers?: Record<string, string> }).headers?.['Content-Range'];
    if (range) reply.header('Content-Range', range);
    return reply.code(416).send(PAST_END);
  });

  const params = z.object({
    area: z.enum(AREAS, msg('files.not_found')),
    name: z.uuid(msg('files.not_found')),
  });
  // Public areas need no sign-in; a private area authenticates in the handler (decision 048).
  app.get('/uploads/:area/:name', { config: { public: true }, schema: { params } }, (req, reply) =>
    serve(req, reply, req.params, 'original'),
  );
  // The PDF a document is shown as in the viewer (decision 084): a PDF itself, or the PDF an Office file
  // was converted to. Under the download's rules, watermarked alike (decision 085).
  app.get('/uploads/:area/:name/pdf', { config: { public: true }, schema: { params } }, (req, reply) =>
    serve(req, reply, req.params, 'pdf'),
  );
  // Its thumbnail: under the download's rules, never for classified material (decision 084).
  app.get('/uploads/:area/:name/thumbnail', { config: { public: true }, schema: { params } }, (req, reply) =>
    serve(req, reply, req.params, 'thumbnail'),
  );

  // What the viewer shows for a document: its PDF (itself, or its converted copy: ready), still being converted
  // (pending), or nothing (unavailable: the viewer offers the download). Refused as its download is.
  app.get('/api/previews/:area/:name', { config: { public: true }, schema: { params } }, async (req, reply) => {
    const area = req.params.area as Area;
    const isPublic = PUBLIC_AREAS.has(area);
    if (!isPublic) await app.authenticate(req, reply);
    const [file] = await fileByName(app.db, { area, storedName: req.params.name });
    if (!file || file.derivedFrom) throw notFound('files.not_found');
    if (!isPublic) {
      const actor = signedInActor(req);
      const areaAllows = await app.fileAccess.canDownload(app.db, actor, file);
      filesPolicy.authorize(actor, 'files.download', { areaAllows });
    }
    const state = await previewState(app.db, file);
    // A classified document's first page is never a thumbnail (decision 084).
    if (!isPublic && state.thumbnailUrl && (await app.fileAccess.recordedFile(app.db, file))) state.thumbnailUrl = null;
    return reply.header('Cache-Control', 'private, no-store').send(state);
  });
};
