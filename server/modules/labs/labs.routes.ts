import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { labDocumentsJson } from '#shared/schemas/lab.ts';
import { labs } from '#server/db/schema/index.ts';
import { notFound } from '#server/lib/errors.ts';
import { eq } from 'drizzle-orm';
import { fileUrl } from '#server/modules/files/storage.ts';
import { findOnlyLab, listLabDocuments } from './labs.service.ts';

/** Public lab reads used by the app shell (News Flash, Add Lab menu entry). */
export const labsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/labs/only', { schema: { response: { 200: z.object({ _id: z.uuid(), name: z.string() }) } } }, async () => {
    const lab = await findOnlyLab(app.db);
    if (!lab) throw notFound('No lab has been created yet.');
    return { _id: lab.id, name: lab.name };
  });

  app.get(
    '/api/labs/:id/documents',
    {
      schema: {
        params: z.object({ id: z.uuid('Lab ID is missing.') }),
        querystring: z.object({ current: z.enum(['true', 'false']).optional() }),
        response: { 200: labDocumentsJson },
      },
    },
    async (req) => {
      const [lab] = await app.db.select({ id: labs.id }).from(labs).where(eq(labs.id, req.params.id)).limit(1);
      if (!lab) throw notFound('Lab not found.');
      const items = await listLabDocuments(app.db, lab.id, { currentOnly: req.query.current === 'true' });
      const present = (i: (typeof items)[number]) => ({
        _id: i.id,
        name: i.name,
        description: i.description,
        fileUrl: fileUrl(i.kind === 'notice' ? 'notices' : 'circulars', i.fileId),
        validUntil: i.validUntil,
        createdAt: i.createdAt.toISOString(),
      });
      return {
        notices: items.filter((i) => i.kind === 'notice').map(present),
        circulars: items.filter((i) => i.kind === 'circular').map(present),
      };
    },
  );
};
