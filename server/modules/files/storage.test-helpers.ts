import { existsSync, readdirSync } from 'node:fs';

import type { FastifyInstance } from 'fastify';

import { badRequest } from '#server/lib/errors.ts';
import { buildTestApp } from '#server/test/app.ts';
import { type TestS3 } from '#server/test/s3-server.ts';

import { saveFileRow } from './storage.ts';
import type { Area } from './storage-areas.ts';
import { withReceivedUpload } from './upload-receive.ts';

// The app and helpers of the storage tests, split by subject: storage.uploads and storage.serving (.test.ts). Each
// runs its tests for both drivers and builds its own app (and database) per driver with buildStorageApp.

export let app: FastifyInstance;

/** A route that uses the storage module as every module does: receive, validate, insert in a transaction. */
async function uploadRoute(instance: FastifyInstance) {
  instance.post('/test/upload/:area', { onRequest: [instance.authenticate] }, async (req) => {
    const area = (req.params as { area: Area }).area;
    const kind = area === 'letters' ? 'letter' : area === 'trial-repos' ? 'trialRepo' : 'image';
    const options = { area, kind, fileField: 'file', maxBytes: instance.config.uploadMaxBytes } as const;
    return withReceivedUpload(req, options, async ({ fields, file }) => {
      if (!fields.title) throw badRequest('common.invalid_input', 'title');
      return instance.db.transaction(async (tx) => {
        const row = file ? await saveFileRow(tx, file, req.actor!.id) : null;
        if (fields.fail === 'db') throw new Error('insert failed after the file row');
        return { fileId: row?.id ?? null };
      });
    });
  });
}

/** The ids stored in one area, asked of the driver under test (a folder listing, or an S3 ListObjectsV2). */
export async function areaFiles(area: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const object of app.storage.driver.list()) if (object.area === area) ids.push(object.id);
  return ids;
}

/** Staging copies left in DATA_DIR/incoming (there must be none once a request has ended). */
export const stagedFiles = () =>
  existsSync(app.storage.stagingDir)
    ? readdirSync(app.storage.stagingDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    : [];

/** Builds the app of one driver's tests (with the S3 server's settings for s3), with the test upload route. */
export async function buildStorageApp(s3: TestS3 | undefined) {
  app = await buildTestApp({ UPLOAD_MAX_BYTES: String(64 * 1024), ...s3?.env }, uploadRoute);
  app.fileAccess.register(
    'letters',
    async (_db, actor, file) => file.uploadedBy === actor.id || actor.role === 'director',
  );
}
