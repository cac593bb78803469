import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { PDFDocument } from '@cantoo/pdf-lib';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';

import { filePreviews, files, type UserRow } from '#server/db/schema/index.ts';
import { send } from '#server/modules/groups/group-items.test-helpers.ts';
import { type GroupCast, groupCast, type Person } from '#server/modules/groups/groups.fixtures.ts';
import { docxWithPages, docxWithText, pdfWithPages, xlsxWithText } from '#server/test/documents.ts';
import { createUser, letterFields, postLetter } from '#server/test/factories.ts';

import { PAGE_NODE_KIDS, VIEWER_UPDATE_MIN_BYTES } from './pdf-viewer-update.ts';
import { makePreview } from './previews.ts';
import { PRIVATE_AREAS } from './storage-areas.ts';

/**
 * Document previews (decision 084): thumbnails made with pdftoppm and sharp, Office files converted to PDF by
 * LibreOffice (killed at the time-out, "not available" without it), served under the download's rules and removed
 * with their document.
 */

const work = mkdtempSync(path.join(os.tmpdir(), 'lp-preview-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const c: GroupCast = await groupCast();
const preview = (over: Partial<{ soffice: string; timeoutSeconds: number; maxBytes: number }> = {}) => ({
  preview: { ...c.app.config.preview, ...over },
  sandbox: c.app.config.sandbox,
});

/** Uploads to the group: an Office document as a group notice (.doc/.docx), anything else to its Projects. */
async function upload(filename: string, content: Buffer) {
  const list = /\.docx?$/.test(filename)
    ? `/api/groups/${c.group.id}/notices`
    : `/api/group-files/${c.group.id}/projects`;
  const res = await send(
    c,
    'admin',
    'POST',
    list,
    { name: filename, description: 'x' },
    {
      field: 'file',
      filename,
      content,
    },
  );
  expect(res.statusCode, res.body).toBe(201);
  const item = res.json() as { _id: string; fileUrl: string };
  const [, , area, name] = item.fileUrl.split('/');
  const [row] = await c.app.db.select().from(files).where(eq(files.storedName, name!));
  return { ...item, area: area!, name: name!, fileId: row!.id };
}

const get = async (who: Person | UserRow, url: string, headers: Record<string, string> = {}) =>
  c.app.inject({ url, headers: { ...(await c.as(who)), ...headers } });

const stateOf = async (fileId: string) =>
  (await c.app.db.select().from(filePreviews).where(eq(filePreviews.fileId, fileId)))[0];

function textOf(pdf: Buffer): string {
  const file = path.join(work, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
}

const soffice = existsSync('/usr/bin/soffice');

describe('a PDF in a group', () => {
  it('gets a thumbnail, served with an ETag and a year of caching, and removed with its document', async () => {
    const doc = await upload('plan.pdf', pdfWithPages(['Blast wall layout', 'Annexure']));
    expect((await stateOf(doc.fileId))?.status).toBe('pending');
    expect(await makePreview(c.app.db, c.app.storage, c.app.config, doc.fileId)).toBe('ready');

    const state = (await get('member', `/api/previews/${doc.area}/${doc.name}`)).json();
    // A group's own documents are not among the areas whose scans are recognised (decision 113).
    expect(state).toEqual({
      status: 'ready',
      pdfUrl: doc.fileUrl,
      thumbnailUrl: `${doc.fileUrl}/thumbnail`,
      text: null,
    });
    const thumb = await get('member', `${doc.fileUrl}/thumbnail`);
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    expect(thumb.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    const etag = String(thumb.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    expect((await get('member', `${doc.fileUrl}/thumbnail`, { 'if-none-match': etag })).statusCode).toBe(304);
    // The viewer's PDF of a PDF is the file itself, with ranges.
    const part = await get('member', `${doc.fileUrl}/pdf`, { range: 'bytes=0-99' });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.length).toBe(100);

    const thumbRow = (await stateOf(doc.fileId))!.thumbnailId!;
    const [stored] = await c.app.db.select().from(files).where(eq(files.id, thumbRow));
    const onDisk = c.app.storage.storedPath(stored!.area, stored!.storedName);
    expect(existsSync(onDisk)).toBe(true);

    const del = await c.app.inject({
      method: 'DELETE',
      url: `/api/group-files/${c.group.id}/projects/${doc._id}`,
      headers: await c.as('admin'),
    });
    expect(del.statusCode, del.body).toBe(200);
    expect(await c.app.db.select().from(files).where(eq(files.id, thumbRow))).toHaveLength(0);
    expect(existsSync(onDisk)).toBe(false);
    expect((await get('member', `${doc.fileUrl}/thumbnail`)).statusCode).toBe(404);
  });

  it('refuses the viewer and the thumbnail to whoever the download is refused to', async () => {
    const doc = await upload('layout.pdf', pdfWithPages(['Layout']));
    await makePreview(c.app.db, c.app.storage, c.app.config, doc.fileId);
    for (const [who, status] of [
      ['anonymous', 401],
      ['outsider', 403],
      ['member', 200],
      ['admin', 200],
    ] as const) {
      expect((await get(who, doc.fileUrl)).statusCode, `download ${who}`).toBe(status);
      expect((await get(who, `${doc.fileUrl}/pdf`)).statusCode, `pdf ${who}`).toBe(status);
      expect((await get(who, `${doc.fileUrl}/thumbnail`)).statusCode, `thumbnail ${who}`).toBe(status);
      expect((await get(who, `/api/previews/${doc.area}/${doc.name}`)).statusCode, `state ${who}`).toBe(status);
    }
  });
});

describe("a long PDF with a flat page tree: the viewer's update (decision 088)", () => {
  const longPdf = () =>
    pdfWithPages(
      Array.from({ length: 200 }, (_, i) => `Survey page ${i + 1}`),
      300,
    );

  it('is read by the viewer as the PDF followed by its update, in ranges, and removed with it', async () => {
    const original = longPdf();
    const doc = await upload('survey.pdf', original);
    expect(await makePreview(c.app.db, c.app.storage, c.app.config, doc.fileId)).toBe('ready');
    const state = (await get('member', `/api/previews/${doc.area}/${doc.name}`)).json();
    expect(state).toMatchObject({ status: 'ready', pdfUrl: `${doc.fileUrl}/pdf` });
    const updateId = (await stateOf(doc.fileId))!.pdfId!;
    const [update] = await c.app.db.select().from(files).where(eq(files.id, updateId));
    expect(update).toMatchObject({ derivedFrom: doc.fileId, originalName: 'survey.pdf.update' });

    // The download is the upload, byte for byte; the viewer's PDF is the upload, then the update.
    expect((await get('member', doc.fileUrl)).rawPayload.equals(original)).toBe(true);
    const whole = await get('member', state.pdfUrl);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('application/pdf');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['cache-control']).toBe('private, no-store');
    expect(String(whole.headers['content-disposition'])).toContain('survey.pdf');
    const viewed = whole.rawPayload;
    expect(viewed.length).toBe(original.length + update!.size);
    expect(Number(whole.headers['content-length'])).toBe(viewed.length);
    expect(viewed.subarray(0, original.length).equals(original)).toBe(true);
    // Every page is still there, in order, under a tree of small nodes.
    const text = textOf(viewed).split('\f');
    expect(text[0]).toContain('Survey page 1');
    expect(text[149]).toContain('Survey page 150');
    expect(text[199]).toContain('Survey page 200');
    expect(viewed.subarray(original.length).toString('latin1')).toMatch(/\/Type \/Pages\s/);

    // A range across the join, a range of the update alone; 304 and If-Range by the update's validator; 416.
    const join = await get('member', state.pdfUrl, { range: `bytes=${original.length - 10}-${original.length + 9}` });
    expect(join.statusCode).toBe(206);
    expect(join.headers['content-range']).toBe(`bytes ${original.length - 10}-${original.length + 9}/${viewed.length}`);
    expect(join.rawPayload.equals(viewed.subarray(original.length - 10, original.length + 10))).toBe(true);
    const tail = await get('member', state.pdfUrl, { range: 'bytes=-100' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(viewed.subarray(viewed.length - 100))).toBe(true);
    const head = await get('member', state.pdfUrl, { range: 'bytes=0-99' });
    expect(head.rawPayload.equals(original.subarray(0, 100))).toBe(true);
    const etag = String(whole.headers.etag);
    expect(etag).toBe(`W/"${update!.storedName}"`);
    expect((await get('member', state.pdfUrl, { 'if-none-match': etag })).statusCode).toBe(304);
    const stale = await get('member', state.pdfUrl, { range: 'bytes=0-99', 'if-range': 'W/"another"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(viewed.length);
    expect((await get('member', state.pdfUrl, { range: `bytes=${viewed.length}-` })).statusCode).toBe(416);
    // Refused where the download is.
    expect((await get('outsider', state.pdfUrl)).statusCode).toBe(403);
    expect((await get('anonymous', state.pdfUrl)).statusCode).toBe(401);

    // Gone with its document: the row and its bytes.
    const onDisk = c.app.storage.storedPath(update!.area, update!.storedName);
    expect(existsSync(onDisk)).toBe(true);
    const del = await c.app.inject({
      method: 'DELETE',
      url: `/api/group-files/${c.group.id}/projects/${doc._id}`,
      headers: await c.as('admin'),
    });
    expect(del.statusCode, del.body).toBe(200);
    expect(await c.app.db.select().from(files).where(eq(files.id, updateId))).toHaveLength(0);
    expect(existsSync(onDisk)).toBe(false);
    expect((await get('member', state.pdfUrl)).statusCode).toBe(404);
  });

  it('of a Confidential letter: the viewer gets the original stamped, whole, never the update', async () => {
    const director = await createUser(c.app, 'director', { name: 'Dinesh Rao', pis: '771204' });
    const original = longPdf();
    const res = await postLetter(c.app, director, letterFields({ classification: 'Confidential' }), {
      field: 'file',
      filename: 'survey.pdf',
      content: original,
    });
    expect(res.statusCode, res.body).toBe(201);
    const fileUrl = (res.json() as { fileUrl: string }).fileUrl;
    const name = fileUrl.split('/')[3]!;
    const [row] = await c.app.db.select().from(files).where(eq(files.storedName, name));
    expect(await makePreview(c.app.db, c.app.storage, c.app.config, row!.id)).toBe('ready');
    const update = (await c.app.db.select().from(files).where(eq(files.derivedFrom, row!.id))).find(
      (f) => f.originalName === 'survey.pdf.update',
    );
    expect(update).toBeDefined();
    const state = (await get(director, `/api/previews/letters/${name}`)).json();
    // A letter's PDF is a scan to recognise until its OCR job has looked at it (decision 113; no job runs here).
    expect(state).toEqual({
      status: 'ready',
      pdfUrl: `${fileUrl}/pdf`,
      thumbnailUrl: null,
      text: { status: 'pending', reason: null },
    });

    const viewed = await get(director, state.pdfUrl, { range: 'bytes=0-99' });
    expect(viewed.statusCode).toBe(200);
    expect(viewed.headers['accept-ranges']).toBeUndefined();
    expect(viewed.headers['content-range']).toBeUndefined();
    const downloadId = String(viewed.headers['x-download-id']);
    const pages = textOf(viewed.rawPayload).split('\f');
    expect(pages[0]).toContain('Downloaded by Dinesh Rao');
    expect(pages[0]).toContain(`Download id ${downloadId}`);
    expect(pages[199]).toContain('Survey page 200');
    // Stamped from the upload, rewritten whole: neither the original's bytes nor the update's are in it.
    expect(viewed.rawPayload.includes(original.subarray(0, 4096))).toBe(false);
    const updateBytes = readFileSync(c.app.storage.storedPath(update!.area, update!.storedName));
    expect(viewed.rawPayload.includes(updateBytes.subarray(0, 200))).toBe(false);
  });
});

describe('every private area', () => {
  it.each(PRIVATE_AREAS)(
    '%s: the viewer, its state and the thumbnail are refused where the download is',
    async (area) => {
      // A document of the area, stored by someone, with a thumbnail and a PDF: an outsider's download is refused, and so
      // is every preview of it.
      const owner = await createUser(c.app, 'employee');
      const outsider = await createUser(c.app, 'employee');
      const [file] = await c.app.db
        .insert(files)
        .values({
          area,
          storedName: crypto.randomUUID(),
          originalName: 'memo.docx',
          mimeType: 'application/octet-stream',
          size: 1,
          uploadedBy: owner.id,
        })
        .returning();
      const [thumb] = await c.app.db
        .insert(files)
        .values({
          area,
          storedName: crypto.randomUUID(),
          originalName: 't',
          mimeType: 'image/webp',
          size: 1,
          derivedFrom: file!.id,
        })
        .returning();
      await c.app.db
        .insert(filePreviews)
        .values({ fileId: file!.id, status: 'ready', thumbnailId: thumb!.id, pdfId: thumb!.id })
        .onConflictDoUpdate({
          target: filePreviews.fileId,
          set: { status: 'ready', thumbnailId: thumb!.id, pdfId: thumb!.id },
        });
      const base = `/uploads/${area}/${file!.storedName}`;
      const download = (await get(outsider, base)).statusCode;
      expect([403, 404]).toContain(download);
      for (const url of [`${base}/pdf`, `${base}/thumbnail`, `/api/previews/${area}/${file!.storedName}`]) {
        expect([403, 404], url).toContain((await get(outsider, url)).statusCode);
        expect((await get('anonymous', url)).statusCode, url).toBe(401);
      }
      // The copy itself is never served under its own name.
      expect((await get('admin', `/uploads/${area}/${thumb!.storedName}`)).statusCode).toBe(404);
    },
  );
});

describe.skipIf(!soffice)('Office files, converted by LibreOffice', () => {
  it('shows a .docx and an .xlsx uploaded to a group as PDF within 30 s', { timeout: 90_000 }, async () => {
    for (const [name, content, text] of [
      ['memo.docx', docxWithText('Range safety memo'), 'Range safety memo'],
      ['ledger.xlsx', xlsxWithText('Ammunition ledger'), 'Ammunition ledger'],
    ] as const) {
      const started = Date.now();
      const doc = await upload(name, content);
      expect((await get('member', `/api/previews/${doc.area}/${doc.name}`)).json().status).toBe('pending');
      expect(await makePreview(c.app.db, c.app.storage, c.app.config, doc.fileId)).toBe('ready');
      const state = (await get('member', `/api/previews/${doc.area}/${doc.name}`)).json();
      expect(state).toMatchObject({ status: 'ready', pdfUrl: `${doc.fileUrl}/pdf` });
      const pdf = await get('member', state.pdfUrl);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(String(pdf.headers['content-disposition'])).toContain(name.replace(/\.\w+$/, '.pdf'));
      expect(textOf(pdf.rawPayload)).toContain(text);
      expect(Date.now() - started).toBeLessThan(30_000);
      if (doc.area === 'group-files') expect((await get('outsider', state.pdfUrl)).statusCode).toBe(403);
    }
  });

  it(
    "gives a long document's PDF the viewer's update, appended to it (decision 088)",
    { timeout: 120_000 },
    async () => {
      // 320 pages of text: LibreOffice writes them under one /Pages node, and the PDF is over four of the viewer's ranges.
      const pages = Array.from({ length: 320 }, (_, p) => [
        `Range survey page ${p + 1}`,
        ...Array.from(
          { length: 30 },
          (_, i) => `Line ${i} of page ${p + 1}: observation ${p * 30 + i}, kept on record.`,
        ),
      ]);
      const doc = await upload('survey.docx', docxWithPages(pages));
      expect(await makePreview(c.app.db, c.app.storage, c.app.config, doc.fileId)).toBe('ready');
      const state = (await get('member', `/api/previews/${doc.area}/${doc.name}`)).json();
      const res = await get('member', state.pdfUrl, { range: 'bytes=0-99' });
      expect(res.statusCode).toBe(206);
      const viewed = (await get('member', state.pdfUrl)).rawPayload;
      expect(viewed.length).toBeGreaterThan(VIEWER_UPDATE_MIN_BYTES);
      // The converted PDF, then an update (its cross-reference section points back to the converted one's) that gives
      // the pages a tree of small nodes.
      expect(viewed.toString('latin1').match(/%%EOF/g)?.length).toBeGreaterThanOrEqual(2);
      expect(viewed.toString('latin1')).toMatch(/\/Prev \d+/);
      const pdf = await PDFDocument.load(viewed, { updateMetadata: false });
      expect(pdf.getPageCount()).toBe(320);
      expect(pdf.catalog.Pages().Kids().size()).toBeLessThanOrEqual(PAGE_NODE_KIDS);
      const text = textOf(viewed).split('\f');
      expect(text[0]).toContain('Range survey page 1');
      expect(text[319]).toContain('Range survey page 320');
    },
  );

  it(
    'kills a conversion that hangs at the time-out, marks it not available, and the next one still works',
    { timeout: 90_000 },
    async () => {
      // A LibreOffice that hangs on this file: it starts a child that would sleep for five minutes and waits for it.
      // The child is known by its odd duration (it runs in the sandbox's own PID namespace, decision 091).
      const marker = `300.${Date.now() % 100_000}`;
      const hanging = path.join(work, 'soffice-hangs');
      writeFileSync(hanging, `#!/bin/sh\nsleep ${marker} &\nwait\n`);
      chmodSync(hanging, 0o755);
      const sleepers = () =>
        readdirSync('/proc')
          .filter((p) => /^\d+$/.test(p))
          .filter((p) => {
            try {
              const running = !readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
              return running && readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(marker);
            } catch {
              return false; // gone meanwhile
            }
          });
      let seen = false;
      const watch = setInterval(() => (seen ||= sleepers().length > 0), 20);
      const doc = await upload('hangs.docx', docxWithText('Never converted'));
      const started = Date.now();
      expect(
        await makePreview(c.app.db, c.app.storage, preview({ soffice: hanging, timeoutSeconds: 2 }), doc.fileId),
      ).toBe('unavailable');
      clearInterval(watch);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect((await stateOf(doc.fileId))?.reason).toBe('LibreOffice took longer than 2 s');
      expect(seen).toBe(true);
      // Its child went too, with the whole sandbox.
      await expect.poll(sleepers, { timeout: 5000 }).toEqual([]);
      expect((await get('member', `/api/previews/${doc.area}/${doc.name}`)).json().status).toBe('unavailable');
      expect((await get('member', `${doc.fileUrl}/pdf`)).json().code).toBe('files.preview_unavailable');

      const next = await upload('next.docx', docxWithText('Converted after all'));
      expect(await makePreview(c.app.db, c.app.storage, c.app.config, next.fileId)).toBe('ready');
      expect(textOf((await get('member', `${next.fileUrl}/pdf`)).rawPayload)).toContain('Converted after all');
    },
  );
});

describe('without LibreOffice', () => {
  it('an Office file is "not available" and still downloads; nothing fails', async () => {
    const doc = await upload('minutes.docx', docxWithText('Minutes'));
    expect(
      await makePreview(c.app.db, c.app.storage, preview({ soffice: path.join(work, 'no-soffice') }), doc.fileId),
    ).toBe('unavailable');
    expect((await stateOf(doc.fileId))?.reason).toBe('LibreOffice is not installed');
    expect((await get('member', `/api/previews/${doc.area}/${doc.name}`)).json()).toEqual({
      status: 'unavailable',
      pdfUrl: null,
      thumbnailUrl: null,
      text: null, // an Office file is never a scan (decision 113)
    });
    expect((await get('member', doc.fileUrl)).statusCode).toBe(200);
  });

  it('a file larger than PREVIEW_MAX_BYTES is not converted', async () => {
    const doc = await upload('big.docx', docxWithText('Big'));
    expect(await makePreview(c.app.db, c.app.storage, preview({ maxBytes: 10 }), doc.fileId)).toBe('unavailable');
    expect((await stateOf(doc.fileId))?.reason).toBe('larger than PREVIEW_MAX_BYTES');
  });
});
