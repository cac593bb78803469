import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';

import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import type { MessageCode } from '#shared/messages/index.ts';
import { uuidParam } from '#shared/schemas/common.ts';

import { efileHeads } from '#server/db/schema/index.ts';
import { AppError } from '#server/lib/errors.ts';
import { recordAudit } from '#server/modules/audit-trail/audit-trail.ts';
import {
  type ReadContext,
  readContext,
  type RecordedItem,
  recordRead,
  refusalsRecorded,
} from '#server/modules/audit-trail/classified-reads.ts';
import { contentDisposition } from '#server/modules/files/files.serve.ts';
import {
  DEFAULT_WATERMARKER_LIMITS,
  PdfWatermarker,
  UnwatermarkablePdf,
  WatermarkLimitExceeded,
} from '#server/modules/files/pdf-watermark.ts';
import { findUserById } from '#server/modules/users/users.queries.ts';
import { type Actor, signedInActor } from '#server/plugins/auth.ts';

import { ExportTooHeavy, gatherExport, makeExportPdf } from './efiles.export.ts';
import { checkOpening, markOpened } from './efiles.service.ts';

const exportQuery = z.object({ lang: z.enum(['en', 'hi']).optional() });

/**
 * GET /api/efiles/{id}/export.pdf (decision 111): the whole file as one PDF, for those who may see it (404 otherwise),
 * after the step-up its classification needs. A file above Unclassified, or one showing a Confidential or Secret
 * letter, is watermarked for the reader as downloads are (decisions 071, 096) under the id of its audit event
 * (`efile_exported`), each such letter recorded too (`letter_downloaded`), all before the answer leaves (decision 070).
 */
export const efileExportRoute: FastifyPluginAsyncZod = async (app) => {
  const limits = { timeoutMs: app.config.watermarkTimeoutSeconds * 1000, memoryMb: 1024 };
  const watermarker = new PdfWatermarker({ ...DEFAULT_WATERMARKER_LIMITS, timeoutMs: limits.timeoutMs });
  app.addHook('onClose', () => watermarker.close());

  app.get(
    '/api/efiles/:id/export.pdf',
    { schema: { params: uuidParam, querystring: exportQuery } },
    async (req, reply) => {
      const actor = signedInActor(req);
      const ctx = readContext(req);
      const { access, item } = await checkOpening(app.db, ctx, actor, req.params.id, 'efile_exported');
      const { file } = access;
      // The stand-in pages' words in the reader's language: the screen's, else the account's (decision 121).
      const language = req.query.lang ?? (await findUserById(app.db, actor.id))?.user.language ?? 'en';
      const [head] = await app.db
        .select({ name: efileHeads.name })
        .from(efileHeads)
        .where(eq(efileHeads.id, file.headId));
      const { job, letters } = await refusalsRecorded(app.db, ctx, item, 'efile_exported', () =>
        gatherExport(app.db, app.storage, actor, file, head?.name ?? '', language),
      );
      // The export's audit event: for a recorded file, or an Unclassified one showing classified letters.
      const recorded: RecordedItem | null =
        item ??
        (letters.length
          ? { object: { type: 'efile', id: file.id, label: file.number }, classification: file.classification }
          : null);
      const exportId = randomUUID();
      const failed = (code: MessageCode, err: Error) => refuse(app, ctx, recorded, exportId, code, err);
      let pdf: Uint8Array;
      let pages: number;
      try {
        ({ pdf, pages } = await makeExportPdf(job, limits));
      } catch (err) {
        if (err instanceof ExportTooHeavy) return failed('efiles.export_too_heavy', err);
        throw err;
      }
      if (recorded) {
        try {
          pdf = await watermarker.watermark(pdf, await watermarkFor(app, actor, exportId));
        } catch (err) {
          if (err instanceof UnwatermarkablePdf) return failed('files.unstampable', err);
          if (err instanceof WatermarkLimitExceeded) return failed('files.stamp_too_heavy', err);
          throw err;
        }
        await recordRead(app.db, ctx, recorded, 'efile_exported', { stamped: true, pages }, exportId);
        for (const letter of letters) {
          await recordRead(app.db, ctx, letter, 'letter_downloaded', { efile: file.number, exportId });
        }
        reply.header('X-Download-Id', exportId);
      }
      await markOpened(app.db, access);
      return (
        reply
          .header('Content-Type', 'application/pdf')
          .header('Content-Disposition', contentDisposition('inline', `${file.number.replace(/[/\\]/g, '-')}.pdf`))
          .header('Cache-Control', 'private, no-store')
          .header('Content-Length', pdf.length)
          // As a stream: @fastify/etag gives a buffer a validator (and would answer 304 for it); an export has none.
          .send(Readable.from([Buffer.from(pdf.buffer, pdf.byteOffset, pdf.length)]))
      );
    },
  );
};

async function watermarkFor(app: FastifyInstance, actor: Actor, downloadId: string) {
  const person = await findUserById(app.db, actor.id);
  return { name: actor.name, pis: person?.user.pis ?? '', at: new Date(), downloadId };
}

/** An export that could not be made (too heavy, or its watermark failed): recorded as a failure, refused with 422. */
async function refuse(
  app: FastifyInstance,
  ctx: ReadContext,
  recorded: RecordedItem | null,
  exportId: string,
  code: MessageCode,
  err: Error,
): Promise<never> {
  app.log.warn({ err, code }, 'an e-file export could not be made: refused');
  if (recorded) {
    await recordAudit(app.db, ctx.who, {
      id: exportId,
      action: 'efile_exported',
      object: recorded.object,
      classification: recorded.classification,
      outcome: 'failure',
      details: { code, reason: err.message },
    });
  }
  throw new AppError(422, code);
}
