import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { messageJson, uuidParam } from '#shared/schemas/common.ts';
import { storedFileParams, trustedRootInput, trustedRootJson, verificationJson } from '#shared/schemas/signature.ts';

import { notFound } from '#server/lib/errors.ts';
import { readContext, recordRead, refusalsRecorded } from '#server/modules/audit-trail/classified-reads.ts';
import { filesPolicy } from '#server/modules/files/files.policy.ts';
import { fileByName } from '#server/modules/files/files.serve.ts';
import { type Area, PUBLIC_AREAS } from '#server/modules/files/storage-areas.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import { signaturesPolicy } from './signatures.policy.ts';
import { checkStoredPdf } from './stored-check.ts';
import { addRoot, listRoots, presentRoot, removeRoot } from './trusted-roots.ts';

/** Signatures (decisions 118, 123): the check of a stored PDF, and the admin's trusted roots. */
export const signaturesRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * GET /api/signatures/{area}/{name}: the signatures of the stored PDF /uploads/{area}/{name}, for whoever may open
   * it (the area's own rule, as its download); a classified one's check is in the audit trail as its opening is.
   */
  app.get(
    '/api/signatures/:area/:name',
    { schema: { params: storedFileParams, response: { 200: verificationJson } } },
    async (req, reply) => {
      const actor = signedInActor(req);
      const [file] = await fileByName(app.db, { area: req.params.area, storedName: req.params.name });
      if (!file || file.derivedFrom) throw notFound('files.not_found');
      if (!PUBLIC_AREAS.has(file.area as Area)) {
        const allow = async () => {
          const areaAllows = await app.fileAccess.canDownload(app.db, actor, file);
          filesPolicy.authorize(actor, 'files.download', { areaAllows });
        };
        const recorded = await app.fileAccess.recordedFile(app.db, file);
        if (recorded) {
          const ctx = readContext(req);
          await refusalsRecorded(app.db, ctx, recorded, recorded.action, allow);
          await recordRead(app.db, ctx, recorded, recorded.action, { signaturesChecked: true });
        } else {
          await allow();
        }
      }
      const report = await checkStoredPdf(app.db, app.storage.driver, file);
      return reply.header('Cache-Control', 'private, no-store').send(report);
    },
  );

  app.get(
    '/admin/trusted-roots',
    {
      onRequest: [signaturesPolicy.guard('signatures.roots')],
      schema: { response: { 200: z.array(trustedRootJson) } },
    },
    async () => (await listRoots(app.db)).map(presentRoot),
  );
  app.post(
    '/admin/trusted-roots',
    {
      onRequest: [signaturesPolicy.guard('signatures.roots')],
      schema: { body: trustedRootInput, response: { 201: trustedRootJson } },
    },
    async (req, reply) => reply.code(201).send(presentRoot(await addRoot(app.db, signedInActor(req), req.body))),
  );
  app.delete(
    '/admin/trusted-roots/:id',
    {
      onRequest: [signaturesPolicy.guard('signatures.roots')],
      schema: { params: uuidParam, response: { 200: messageJson } },
    },
    async (req) => {
      await removeRoot(app.db, signedInActor(req), req.params.id);
      return { message: 'Removed' };
    },
  );
};
