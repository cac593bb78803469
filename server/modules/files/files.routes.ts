import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { files } from '#server/db/schema/index.ts';
import { forbidden, notFound } from '#server/lib/errors.ts';
import { AREAS, PUBLIC_AREAS, storedPath, type Area } from './storage.ts';
import { canDownloadFile } from './files.policy.ts';

/** RFC 6266 Content-Disposition with the original file name, safe for any characters. */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const INLINE = /^(application\/pdf|image\/(png|jpeg|gif|webp)|video\/|text\/plain)/;

/** GET /uploads/{area}/{fileName}: public areas for everyone, private ones after an access check. */
export const filesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/uploads/:area/:name',
    {
      schema: {
        params: z.object({
          area: z.enum(AREAS, 'File not found.'),
          name: z.uuid('File not found.'),
        }),
      },
    },
    async (req, reply) => {
      const area = req.params.area as Area;
      const isPublic = PUBLIC_AREAS.has(area);
      if (!isPublic) await app.authenticate(req, reply);
      const [file] = await app.db
        .select()
        .from(files)
        .where(and(eq(files.area, area), eq(files.storedName, req.params.name)))
        .limit(1);
      if (!file) throw notFound('File not found.');
      if (!isPublic && !(await canDownloadFile(app.db, req.user, file))) {
        throw forbidden('You are not allowed to open this file.');
      }
      const filePath = storedPath(file.area, file.storedName);
      try {
        await access(filePath);
      } catch {
        throw notFound('File not found.');
      }
      return reply
        .header('Content-Type', file.mimeType)
        .header('Content-Length', file.size)
        .header(
          'Content-Disposition',
          contentDisposition(INLINE.test(file.mimeType) ? 'inline' : 'attachment', file.originalName),
        )
        .header('Cache-Control', isPublic ? 'public, max-age=3600' : 'private, no-store')
        .send(createReadStream(filePath));
    },
  );
};
