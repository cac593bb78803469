import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { PDFDocument } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';

import { docxWithPages, docxWithText, xlsxWithText } from '#server/test/documents.ts';

import { PAGE_NODE_KIDS, VIEWER_UPDATE_MIN_BYTES } from './pdf-viewer-update.ts';
import { c, get, preview, soffice, stateOf, textOf, upload, work } from './previews.test-helpers.ts';
import { makePreview } from './previews.ts';

// Office files in the viewer (decision 084): converted by LibreOffice in the sandbox, killed at the time-out, and
// "not available" without it or past PREVIEW_MAX_BYTES; moved out of previews.test.ts by size (decision 105).

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
