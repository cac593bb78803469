import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';

import { activityLogs, fileOcr, files, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser, letterFields } from '#server/test/factories.ts';
import { multipart } from '#server/test/multipart.ts';
import { scanPdf } from '#server/test/scans.ts';

/**
 * The admin's view of OCR (decision 113): GET /api/admin/ocr counts the scans waiting and failed and lists the failed
 * ones with their reasons, POST
 * /api/admin/ocr/retry queues the failed ones again, logged; both for admins only.
 */

let app: FastifyInstance;
let admin: UserRow;
let director: UserRow;
beforeAll(async () => {
  app = await buildTestApp();
  admin = await createUser(app, 'admin');
  director = await createUser(app, 'director');
});

/** A scanned letter whose OCR row is left as `status`. */
async function scannedLetter(status: 'pending' | 'failed') {
  const body = multipart(letterFields(), {
    field: 'file',
    filename: 'scan.pdf',
    content: await scanPdf(['en-05.png']),
  });
  const res = await app.inject({
    method: 'POST',
    url: '/api/dac',
    payload: body.payload,
    headers: { ...body.headers, ...(await authHeaders(app, director)) },
  });
  expect(res.statusCode, res.body).toBe(201);
  const storedName = (res.json().fileUrl as string).split('/').pop()!;
  const [file] = await app.db.select().from(files).where(eq(files.storedName, storedName));
  if (status === 'failed') {
    await app.db
      .update(fileOcr)
      .set({ status: 'failed', reason: 'timed_out', detail: 'took longer than OCR_TIMEOUT_SECONDS (1 s)', attempts: 1 })
      .where(eq(fileOcr.fileId, file!.id));
  }
  return file!.id;
}

const counts = async (who: UserRow) => app.inject({ url: '/api/admin/ocr', headers: await authHeaders(app, who) });

describe('GET /api/admin/ocr and POST /api/admin/ocr/retry', () => {
  it('counts the scans waiting and failed, lists the failed with the reason, and queues the failed ones again, logged', async () => {
    const waiting = await scannedLetter('pending');
    const failed = await scannedLetter('failed');
    const before = await counts(admin);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({
      waiting: 1,
      failed: 1,
      failedFiles: [
        {
          fileId: failed,
          name: 'scan.pdf',
          area: 'letters',
          reason: 'timed_out',
          detail: 'took longer than OCR_TIMEOUT_SECONDS (1 s)',
          at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ],
    });

    const retry = await app.inject({
      method: 'POST',
      url: '/api/admin/ocr/retry',
      headers: await authHeaders(app, admin),
    });
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toEqual({ queued: 1 });
    expect((await counts(admin)).json()).toEqual({ waiting: 2, failed: 0, failedFiles: [] });
    const [row] = await app.db.select().from(fileOcr).where(eq(fileOcr.fileId, failed));
    expect(row).toMatchObject({ status: 'pending', reason: null, detail: null, attempts: 0 });
    const [untouched] = await app.db.select().from(fileOcr).where(eq(fileOcr.fileId, waiting));
    expect(untouched!.status).toBe('pending');
    const logged = await app.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.userId, admin.id), eq(activityLogs.code, 'activity.ocr_retried')));
    expect(logged.map((l) => l.action)).toEqual(['Queued 1 scan again for text recognition']);

    // Nothing failed: nothing queued, nothing logged.
    const again = await app.inject({
      method: 'POST',
      url: '/api/admin/ocr/retry',
      headers: await authHeaders(app, admin),
    });
    expect(again.json()).toEqual({ queued: 0 });
  });

  it('refuses a visitor (401) and every role but the admin (403), the owner of a scan included', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const url = method === 'GET' ? '/api/admin/ocr' : '/api/admin/ocr/retry';
      expect((await app.inject({ method, url })).statusCode).toBe(401);
      for (const role of ['employee', 'director', 'associate_director'] as const) {
        const who = role === 'director' ? director : await createUser(app, role);
        const res = await app.inject({ method, url, headers: await authHeaders(app, who) });
        expect(res.statusCode, `${method} ${role}`).toBe(403);
      }
    }
  });
});
