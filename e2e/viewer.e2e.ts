import { randomUUID } from 'node:crypto';

import { PDFArray, PDFDocument, PDFName, PDFNumber, type PDFRef, StandardFonts } from '@cantoo/pdf-lib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import type { LabItemJson } from '#shared/schemas/lab.ts';

import { checkA11y, screenshot } from './a11y.ts';
import { expectVisible, labId, switchLanguage, useBrowser } from './fixtures.ts';
import { apiAs, signedInAdmin } from './seed.ts';

// Issue 33: a notice's PDF opens in the portal's viewer from the home page (a visitor, in English and Hindi, at 1280
// and 390 px, axe clean), pages forward and finds a word; a 200-page PDF shows its first page after a small part of it.

const browser = useBrowser();

/**
 * A PDF of these pages' texts; `padding` lines of filler on each page make it heavy (a scanned report's size). With
 * `balanced`, its page tree groups the pages ten to a node with their /Count, as Word, Acrobat and Ghostscript write
 * long documents (decision 085: a flat tree makes pdf.js fetch every page object to find the last page).
 */
async function pdfOf(texts: string[], padding = 0, balanced = false): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of texts) {
    const page = doc.addPage([595, 842]);
    page.drawText(text, { x: 50, y: 780, size: 20, font });
    for (let i = 0; i < padding; i++) {
      page.drawText(`Line ${i} of the annexure, kept for the record and not otherwise read.`, {
        x: 50,
        y: 740 - (i % 60) * 11,
        size: 8,
        font,
      });
    }
  }
  if (balanced) {
    const rootRef = doc.catalog.get(PDFName.of('Pages')) as PDFRef;
    const root = doc.catalog.Pages();
    const pages = doc.getPages();
    const nodes = PDFArray.withContext(doc.context);
    for (let i = 0; i < pages.length; i += 10) {
      const group = pages.slice(i, i + 10);
      const kids = PDFArray.withContext(doc.context);
      const node = doc.context.obj({ Type: 'Pages', Count: group.length });
      node.set(PDFName.of('Parent'), rootRef);
      node.set(PDFName.of('Kids'), kids);
      const nodeRef = doc.context.register(node);
      for (const page of group) {
        kids.push(page.ref);
        page.node.set(PDFName.of('Parent'), nodeRef);
      }
      nodes.push(nodeRef);
    }
    root.set(PDFName.of('Kids'), nodes);
    root.set(PDFName.of('Count'), PDFNumber.of(pages.length));
  }
  return Buffer.from(await doc.save({ useObjectStreams: false, updateFieldAppearances: false }));
}

async function addNotice(name: string, pdf: Buffer) {
  const admin = apiAs(await signedInAdmin());
  const form = new FormData();
  form.set('name', name);
  form.set('description', 'Seeded by viewer.e2e.ts.');
  form.set('validUntil', '');
  form.set('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), `${name}.pdf`);
  const res = await admin.post<LabItemJson>(`/api/labs/${labId}/notices`, form);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

const rendered = (page: Page, n: number) =>
  page.waitForFunction(
    (p) => document.querySelector('canvas[data-rendered-page]')?.getAttribute('data-rendered-page') === String(p),
    n,
    {
      timeout: 20_000,
    },
  );

const TEXT = {
  en: {
    view: 'View',
    next: 'Next page',
    search: 'Search in document',
    find: 'Find',
    pageOf: 'Page 2 of 3',
    found: 'Found on page 3',
  },
  hi: {
    view: 'देखें',
    next: 'अगला पृष्ठ',
    search: 'दस्तावेज़ में खोजें',
    find: 'खोजें',
    pageOf: 'पृष्ठ 2 / 3',
    found: 'पृष्ठ 3 पर मिला',
  },
} as const;

describe('The document viewer', () => {
  it.each(['en', 'hi'] as const)(
    'opens a notice PDF from the home page, pages forward and finds a word (%s)',
    async (language) => {
      const tag = randomUUID().slice(0, 6);
      const name = `Magazine inspection ${tag}`;
      await addNotice(
        name,
        await pdfOf(['Magazine inspection report', 'Findings of the survey', `Annexure: blastwall${tag} repairs`]),
      );
      const page = browser.page;
      await page.goto('/?tab=notices');
      if (language === 'hi') await switchLanguage(page, 'hi');
      const t = TEXT[language];
      await page
        .getByRole('button', { name: `${t.view === 'View' ? `View ${name}` : `${name} देखें`}` })
        .first()
        .click();
      const dialog = page.getByRole('dialog', { name });
      await expectVisible(dialog);
      await rendered(page, 1);
      await dialog.getByRole('button', { name: t.next }).click();
      await expectVisible(dialog.getByText(t.pageOf, { exact: true }));
      await rendered(page, 2);
      await dialog.getByRole('textbox', { name: t.search }).fill(`blastwall${tag}`);
      await dialog.getByRole('button', { name: t.find, exact: true }).click();
      await expectVisible(dialog.getByText(t.found, { exact: true }));
      await rendered(page, 3);
      await checkA11y(page, { moderate: true });
      await screenshot(page, `viewer-${language}`);
      // The dialog is keyboard-operable: Escape closes it.
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
    },
  );

  it('shows the first page of a 200-page PDF after fetching under 20 % of its bytes', async () => {
    const tag = randomUUID().slice(0, 6);
    const name = `Range survey ${tag}`;
    const pdf = await pdfOf(
      Array.from({ length: 200 }, (_, i) => `Range survey page ${i + 1}`),
      400,
      true,
    );
    const item = await addNotice(name, pdf);
    const page = browser.page;
    // Every byte of the PDF's URL that reached the browser, aborted requests included (Chrome's network events).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const ofPdf = new Set<string>();
    const ranges: string[] = [];
    let bytes = 0;
    cdp.on('Network.requestWillBeSent', (e) => {
      if (new URL(e.request.url).pathname !== item.fileUrl) return;
      ofPdf.add(e.requestId);
      ranges.push(String(e.request.headers.Range ?? e.request.headers.range ?? 'whole'));
    });
    cdp.on('Network.dataReceived', (e) => {
      if (ofPdf.has(e.requestId)) bytes += e.dataLength;
    });
    await page.goto('/?tab=notices');
    await page
      .getByRole('button', { name: `View ${name}` })
      .first()
      .click();
    await rendered(page, 1);
    await page.waitForTimeout(500);
    console.log(
      `200-page PDF: ${pdf.length} bytes; fetched ${bytes} (${((100 * bytes) / pdf.length).toFixed(1)} %) in ${ranges.length} requests: ${ranges.join(', ')}`,
    );
    expect(ranges.some((r) => r.startsWith('bytes='))).toBe(true);
    expect(bytes).toBeLessThan(pdf.length * 0.2);
  });
});
