import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { OCR_FAILED_LISTED, ocrCountsJson, ocrRetriedJson } from '#shared/schemas/ocr.ts';

import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { signedInActor } from '#server/plugins/auth.ts';

import { filesPolicy } from './files.policy.ts';
import { failedOcrFiles, ocrCounts, retryFailedOcr } from './ocr.ts';

/**
 * The admin's view of OCR (decision 113): how many scans wait and how many were not recognised (the newest of these
 * listed with their reasons), and queueing the failed ones again (their reasons cleared, read anew by the queue at its lowest priority).
 */
export const ocrRoutes: FastifyPluginAsyncZod = async (app) => {
  const admins = [filesPolicy.guard('files.ocr_administer')];

  app.get(
    '/api/admin/ocr',
    { onRequest: admins, schema: { response: { 200: ocrCountsJson } } },
    async (_req, reply) => {
      const [counts, failedFiles] = await Promise.all([ocrCounts(app.db), failedOcrFiles(app.db, OCR_FAILED_LISTED)]);
      return reply.header('Cache-Control', 'private, no-store').send({ ...counts, failedFiles });
    },
  );

  app.post(
    '/api/admin/ocr/retry',
    { onRequest: admins, schema: { response: { 200: ocrRetriedJson } } },
    async (req) => {
      const actor = signedInActor(req);
      const queued = await app.db.transaction(async (tx) => {
        const ids = await retryFailedOcr(tx);
        if (ids.length) await recordActivity(tx, actor, 'activity.ocr_retried', { count: ids.length });
        return ids.length;
      });
      return { queued };
    },
  );
};
