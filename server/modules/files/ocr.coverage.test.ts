import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { fileOcr, files } from '#server/db/schema/index.ts';
import { app, cast, open } from '#server/modules/efiles/efiles.test-helpers.ts';
import { authHeaders, createGroup, createLab, createUser } from '#server/test/factories.ts';
import { multipart } from '#server/test/multipart.ts';
import { scanPdf } from '#server/test/scans.ts';

import { recogniseFile } from './ocr.ts';

/**
 * Which scans OCR reads (decision 113), beside the letters and close-group documents of ocr.test.ts: a lab notice's
 * scan, a group notice's and an e-file's correspondence document wait for their text from their upload (the preview state says so), and
 * are read by the real ocrmypdf: their text kept, the notice's searchable copy the PDF its viewer shows.
 */

const OCR_TEST_MS = 240_000;

async function post(url: string, headers: Record<string, string>, fields: Record<string, string>, field: string) {
  const content = await scanPdf(['en-06.png']);
  const body = multipart(fields, { field, filename: 'scan.pdf', content, contentType: 'application/pdf' });
  const res = await app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, ...headers },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res;
}

/** The upload's file in `area` (the newest), and its OCR row. */
async function scanIn(area: string) {
  const [file] = await app.db.select().from(files).where(eq(files.area, area));
  const [ocr] = await app.db.select().from(fileOcr).where(eq(fileOcr.fileId, file!.id));
  return { file: file!, ocr };
}

describe("scans of notices (the lab's and a group's) and e-file correspondence", () => {
  it(
    'wait for their text from the upload and are read: the text kept, the searchable copy shown',
    async () => {
      const admin = await createUser(app, 'admin');
      const lab = await createLab(app);
      await post(
        `/api/labs/${lab.id}/notices`,
        await authHeaders(app, admin),
        { name: 'Fire drill notice', description: 'Scanned', validUntil: '' },
        'file',
      );
      const group = await createGroup(app, { labId: lab.id });
      await post(
        `/api/groups/${group.id}/notices`,
        await authHeaders(app, admin),
        { name: 'Group fire drill notice', description: 'Scanned' },
        'file',
      );
      const c = await cast();
      const efile = await open(c.employee);
      await post(`/api/efiles/${efile._id}/items`, await authHeaders(app, c.employee), {}, 'document');

      for (const area of ['notices', 'group-files', 'efiles']) {
        const { file, ocr } = await scanIn(area);
        expect(ocr, area).toMatchObject({ status: 'pending' });
        expect(await recogniseFile(app.db, app.storage, app.config, file.id), area).toBe('done');
        const [read] = await app.db
          .select()
          .from(fileOcr)
          .where(and(eq(fileOcr.fileId, file.id), eq(fileOcr.status, 'done')));
        expect(read!.text, area).toContain('extinguishers');
        expect(read!.pdfId, area).toBeTruthy();
      }

      // The notice (a public area): its preview state says the text was recognised, its viewer PDF is the copy.
      const { file: notice } = await scanIn('notices');
      const state = await app.inject({ url: `/api/previews/notices/${notice.storedName}` });
      expect(state.json()).toMatchObject({
        status: 'ready',
        pdfUrl: `/uploads/notices/${notice.storedName}/pdf`,
        text: { status: 'done', reason: null },
      });
    },
    OCR_TEST_MS,
  );
});
