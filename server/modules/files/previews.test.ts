import { existsSync, readFileSync } from 'node:fs';

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { filePreviews, files } from '#server/db/schema/index.ts';
import { pdfWithPages } from '#server/test/documents.ts';
import { createUser, letterFields, postLetter } from '#server/test/factories.ts';

import { c, get, stateOf, textOf, upload } from './previews.test-helpers.ts';
import { makePreview } from './previews.ts';
import { PRIVATE_AREAS } from './storage-areas.ts';

/**
 * Document previews (decision 084): thumbnails made with pdftoppm and sharp, Office files converted to PDF by
 * LibreOffice (killed at the time-out, "not available" without it), served under the download's rules and removed
 * with their document.
 */

describe('a PDF in a group', () => {
  it('gets a thumbnail, served with an ETag and a year of caching, and removed with its document', async () => {
    const doc = await upload('plan.pdf', pdfWithPages(['Blast wall layout', 'Annexure']));
    expect((await stateOf(doc.fileId))?.status).toBe('pending');
    expect(await makePreview(c.app.db, c.app.storage, c.app.config, doc.fileId)).toBe('ready');

    const state = (await get('member', `/api/previews/${doc.area}/${doc.name}`)).json();
    // A group's documents are read for their text like the lab's (migration 0053, decision 113): waiting for it here.
    expect(state).toEqual({
      status: 'ready',
      pdfUrl: doc.fileUrl,
      thumbnailUrl: `${doc.fileUrl}/thumbnail`,
      text: { status: 'pending', reason: null },
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
