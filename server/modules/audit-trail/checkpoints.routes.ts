import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

import { auditCheckpointWrittenJson } from '#shared/schemas/audit-checkpoint.ts';

import { auditTrailPolicy } from './audit-trail.policy.ts';
import { auditWho } from './audit-trail.ts';
import { checkpointStore, writeCheckpoint } from './checkpoints.ts';

/** The audit trail's checkpoints on demand (decision 068); the nightly ones are audit-trail.jobs.ts's. */
export const auditCheckpointsRoutes: FastifyPluginAsyncZod = async (app) => {
  const store = checkpointStore(app.config);
  app.addHook('onClose', () => store.close());

  // An admin writes a checkpoint now (before handing a copy to an auditor, say): 201 with the checkpoint and where it
  // went; 503 audit.checkpoint_unavailable when a place could not be written.
  app.post(
    '/api/audit/checkpoints',
    {
      onRequest: [auditTrailPolicy.guard('audit.checkpoint')],
      schema: { response: { 201: auditCheckpointWrittenJson } },
    },
    async (req, reply) => {
      const written = await writeCheckpoint(app.db, store, { reason: 'requested', who: auditWho(req) });
      return reply.code(201).send(written);
    },
  );
};
