import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { PDFArray, PDFDocument, PDFName, PDFNumber, type PDFRef, StandardFonts } from '@cantoo/pdf-lib';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import type { LabItemJson } from '#shared/schemas/lab.ts';

import { checkA11y, screenshot } from './a11y.ts';
import { expectVisible, labId, switchLanguage, useBrowser } from './fixtures.ts';
import { apiAs, apiCall, signedInAdmin } from './seed.ts';

// A notice's PDF opens in the portal's viewer from the home page (a visitor, in English and Hindi, at 1280
// and 390 px, axe clean), pages forward and finds a word; a 200-page PDF shows its first page after a small part of it,
// whichever way its page tree was written (decisions 085 and 088).

const browser = useBrowser();

/** A 160×100 JPEG of noise: a scanned figure, which does not compress, different on each page (about 11 KB). */
function scan(seed: number): Promise<Buffer> {
  const raw = Buffer.alloc(160 * 100 * 3);
  let x = seed + 1;
  for (let i = 0; i < raw.length; i++) raw[i] = (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24;
  return sharp(raw, { raw: { width: 160, height: 100, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/**
 * A PDF of these pages' texts as pdf-lib writes it: one /Pages node with every page, each page object beside its
 * content. With `scans`, each page also carries its own scanned figure (a 200-page report of about 2.5 MB). With
 * `balanced`, its page tree groups the pages ten to a node with their /Count, as Word, Acrobat and Ghostscript write
 * long documents.
 */
async function pdfOf(texts: string[], { scans = false, balanced = false } = {}): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const [i, text] of texts.entries()) {
    const page = doc.addPage([595, 842]);
    page.drawText(text, { x: 50, y: 780, size: 20, font });
    if (scans) page.drawImage(await doc.embedJpg(await scan(i)), { x: 50, y: 300, width: 480, height: 300 });
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

const soffice = existsSync('/usr/bin/soffice');

/**
 * A 200-page report as LibreOffice writes one (soffice --convert-to pdf, as letters and notices typed in Writer are):
 * each page a title, a scanned figure and some lines; one /Pages node with every page, and one /Resources for all pages
 * naming every page's figure and font.
 */
async function libreOfficePdf(): Promise<Buffer> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'lp-viewer-e2e-'));
  try {
    const pages: string[] = [];
    for (let p = 1; p <= 200; p++) {
      writeFileSync(path.join(work, `f${p}.jpg`), await scan(p));
      const lines = Array.from({ length: 14 }, (_, i) => `<p>Line ${i} of page ${p}, kept for the record.</p>`);
      pages.push(
        `<h1${p > 1 ? ' style="page-break-before: always"' : ''}>Range survey page ${p}</h1>` +
          `<p><img src="f${p}.jpg" width="320" height="200"></p>${lines.join('')}`,
      );
    }
    const html = path.join(work, 'report.html');
    writeFileSync(html, `<html><head><meta charset="utf-8"></head><body>${pages.join('')}</body></html>`);
    const profile = `file://${path.join(work, 'profile')}`;
    const args = [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', 'pdf:writer_pdf_Export'];
    const run = spawnSync('soffice', [...args, '--outdir', work, html], {
      timeout: 120_000,
      env: { ...process.env, HOME: work },
    });
    expect(run.status, String(run.stderr)).toBe(0);
    return readFileSync(path.join(work, 'report.pdf'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
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

  /**
   * Opens the notice's viewer and counts every byte of the PDF's URL that reached the browser (Chrome's network events,
   * aborted requests included) until its first page is drawn. The preview job has run first (the thumbnail is there),
   * so a PDF that needs the viewer's update is read with it (decision 088).
   */
  async function firstPageCost(name: string, pdf: Buffer, { update }: { update: boolean }) {
    const item = await addNotice(name, pdf);
    const storedName = item.fileUrl!.split('/')[3];
    let state: { pdfUrl: string; thumbnailUrl: string | null } | undefined;
    await expect
      .poll(
        async () => {
          state = (await apiCall<typeof state>('GET', `/api/previews/notices/${storedName}`)).body;
          return state?.thumbnailUrl;
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBeTruthy();
    expect(state!.pdfUrl).toBe(update ? `${item.fileUrl}/pdf` : item.fileUrl);
    const page = browser.page;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const ofPdf = new Set<string>();
    const inFlight = new Set<string>(); // the PDF's requests not yet finished or failed
    cdp.on('Network.loadingFinished', (e) => inFlight.delete(e.requestId));
    cdp.on('Network.loadingFailed', (e) => inFlight.delete(e.requestId));
    const ranges: string[] = [];
    let bytes = 0;
    let served = 0;
    cdp.on('Network.requestWillBeSent', (e) => {
      if (new URL(e.request.url).pathname !== state!.pdfUrl) return;
      ofPdf.add(e.requestId);
      inFlight.add(e.requestId);
      ranges.push(String(e.request.headers.Range ?? e.request.headers.range ?? 'whole'));
    });
    cdp.on('Network.responseReceived', (e) => {
      const range = /\/(\d+)$/.exec(String(e.response.headers['Content-Range'] ?? e.response.headers['content-range']));
      if (ofPdf.has(e.requestId) && range) served = Number(range[1]);
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
    // Every request for the PDF the page made has ended (the signal, not a pause): its bytes are all counted.
    await expect.poll(() => inFlight.size, { timeout: 15_000 }).toBe(0);
    await cdp.detach();
    const percent = ((100 * bytes) / pdf.length).toFixed(1);
    const read = update ? ` with its update, ${served} bytes as read,` : '';
    console.log(
      `${name}: ${pdf.length} bytes${read} fetched ${bytes} (${percent} % of the PDF) in ${ranges.length} requests: ${ranges.join(', ')}`,
    );
    expect(ranges.some((r) => r.startsWith('bytes='))).toBe(true);
    return bytes;
  }

  const pages = Array.from({ length: 200 }, (_, i) => `Range survey page ${i + 1}`);

  it('shows the first page of a 200-page PDF with a balanced page tree after fetching under 20 % of it', async () => {
    const pdf = await pdfOf(pages, { scans: true, balanced: true });
    // Quick to open as it is: no update.
    const bytes = await firstPageCost(`Balanced survey ${randomUUID().slice(0, 6)}`, pdf, { update: false });
    expect(bytes).toBeLessThan(pdf.length * 0.2);
  });

  it('shows the first page of a 200-page PDF with a flat page tree (pdf-lib) after fetching under 20 % of it', async () => {
    const pdf = await pdfOf(pages, { scans: true });
    const bytes = await firstPageCost(`Flat survey ${randomUUID().slice(0, 6)}`, pdf, { update: true });
    expect(bytes).toBeLessThan(pdf.length * 0.2);
  });

  it.skipIf(!soffice)(
    'shows the first page of a 200-page PDF written by LibreOffice after fetching under 20 % of it',
    async () => {
      const pdf = await libreOfficePdf();
      const bytes = await firstPageCost(`LibreOffice survey ${randomUUID().slice(0, 6)}`, pdf, { update: true });
      expect(bytes).toBeLessThan(pdf.length * 0.2);
    },
  );
});
