import { and, eq } from 'drizzle-orm';
import rangeParser from 'range-parser';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { files } from '#server/db/schema/index.ts';
import { forbidden, notFound } from '#server/lib/errors.ts';
import { AREAS, PUBLIC_AREAS, type Area } from './storage.ts';

/** RFC 6266 Content-Disposition with the original file name, safe for any characters. */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const errorJson = (message: string) => ({ error: message, message });

const INLINE = /^(application\/pdf|image\/(png|jpeg|gif|webp)|video\/|text\/plain)/;

/** GET /uploads/{area}/{fileName}: public areas for everyone, private ones after an access check. */
export const filesRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/uploads/:area/:name',
    {
      // Public areas need no sign-in; a private area authenticates in the handler (decision 014).
      config: { public: true },
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
      if (!isPublic && !(await app.fileAccess.canDownload(app.db, req.user, file))) {
        throw forbidden('You are not allowed to open this file.');
      }
      // A stored file never changes (a new upload gets a new name), so its name is its ETag: a browser that has a
      // public file gets 304 without the file being opened (issue 12). Private files stay `private, no-store`.
      const etag = `W/"${file.storedName}"`;
      if (isPublic) {
        reply.header('ETag', etag).header('Cache-Control', 'public, max-age=3600');
        const match = req.headers['if-none-match'];
        if (match === etag || match === etag.slice(2)) return reply.code(304).send();
      }
      // One byte range (a video's seek, a resumed download) is answered with 206; several, or a malformed header,
      // with the whole file, as RFC 9110 allows; a range past the end with 416.
      const header = req.headers.range;
      const parsed = header ? rangeParser(file.size, header, { combine: true }) : undefined;
      if (parsed === -1) {
        return reply
          .code(416)
          .header('Content-Range', `bytes */${file.size}`)
          .send(errorJson('The requested part of the file is past its end.'));
      }
      const range = Array.isArray(parsed) && parsed.type === 'bytes' && parsed.length === 1 ? parsed[0] : undefined;
      const body = await app.storage.driver.read(file.area, file.storedName, range);
      if (!body) throw notFound('File not found.');
      if (range) {
        reply.code(206).header('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
      }
      return reply
        .header('Content-Type', file.mimeType)
        .header('Content-Length', range ? range.end - range.start + 1 : file.size)
        .header('Accept-Ranges', 'bytes')
        .header(
          'Content-Disposition',
          contentDisposition(INLINE.test(file.mimeType) ? 'inline' : 'attachment', file.originalName),
        )
        .header('Cache-Control', isPublic ? 'public, max-age=3600' : 'private, no-store')
        .send(body);
    },
  );
};
