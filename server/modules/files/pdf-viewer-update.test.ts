import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
  drawObject,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRef,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts,
} from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';

import { pdfWithPages } from '#server/test/documents.ts';

import { PAGE_NODE_KIDS, VIEWER_UPDATE_MIN_BYTES, viewerUpdate } from './pdf-viewer-update.ts';

/**
 * The viewer's update of a PDF (decision 088): a PDF laid out as LibreOffice writes one (a flat page tree, one
 * /Resources for all pages naming every page's image and font) gets a balanced tree and pages with resources of their
 * own; appended to the original, poppler draws every page as before. PDFs that need nothing get nothing.
 */

const work = mkdtempSync(path.join(os.tmpdir(), 'lp-viewer-update-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const Resources = PDFName.of('Resources');
const XObject = PDFName.of('XObject');

/** A 64×48 JPEG of noise: a scanned figure that does not compress, different on each page. */
const noise = (seed: number) => {
  const raw = Buffer.alloc(64 * 48 * 3);
  let x = seed + 1;
  for (let i = 0; i < raw.length; i++) raw[i] = (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24;
  return sharp(raw, { raw: { width: 64, height: 48, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
};

/**
 * `count` pages, each with its own figure and title, laid out as LibreOffice lays a document out: every page a kid of
 * the one /Pages node, which carries the MediaBox and a single /Resources naming every page's figure and font. With
 * `formOn`, that page also draws a form XObject without resources of its own (it draws with the page's).
 */
async function sharedResourcesPdf(count: number, { formOn }: { formOn?: number } = {}) {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < count; i++) {
    const page = doc.addPage([595, 842]);
    page.drawImage(await doc.embedJpg(await noise(i)), { x: 50, y: 500, width: 320, height: 240 });
    page.drawText(`Survey page ${i + 1}`, { x: 50, y: 780, size: 20, font });
  }
  const { context } = doc;
  const root = doc.catalog.Pages();
  const shared = new Map<PDFName, PDFDict>();
  for (const page of doc.getPages()) {
    const own = page.node.Resources()!;
    for (const [kind, value] of own.entries()) {
      const named = context.lookup(value);
      if (!(named instanceof PDFDict)) continue;
      const all = shared.get(kind) ?? context.obj({});
      for (const [name, object] of named.entries()) all.set(name, object);
      shared.set(kind, all);
    }
    page.node.delete(Resources);
    page.node.delete(PDFName.of('MediaBox'));
  }
  const resources = context.obj({});
  for (const [kind, named] of shared) resources.set(kind, named);
  if (formOn !== undefined) {
    const form = context.stream('0 0 1 rg /GS0 gs 10 10 100 100 re f', {
      Type: 'XObject',
      Subtype: 'Form',
      BBox: [0, 0, 200, 200],
    });
    (resources.get(XObject) as PDFDict).set(PDFName.of('Fm0'), context.register(form));
    resources.set(PDFName.of('ExtGState'), context.obj({ GS0: { CA: 0.5 } }));
    doc.getPage(formOn).pushOperators(pushGraphicsState(), drawObject('Fm0'), popGraphicsState());
  }
  root.set(Resources, context.register(resources));
  root.set(PDFName.of('MediaBox'), context.obj([0, 0, 595, 842]));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** The pages of a PDF in order: each one's object number and dictionary. */
async function pagesOf(pdf: Uint8Array) {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const pages: { ref: PDFRef; node: PDFDict }[] = [];
  doc.catalog.Pages().traverse((node, ref) => {
    if (!(node instanceof PDFDict) || node.has(PDFName.of('Kids'))) return;
    pages.push({ ref, node });
  });
  return { doc, pages };
}

/** Page `n` as poppler draws it (pdftoppm, 24 dpi, PNG). */
function drawn(pdf: Uint8Array, n: number): Buffer {
  const file = path.join(work, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-png', '-r', '24', '-f', String(n), '-l', String(n), '-singlefile', file, `${file}-p`]);
  return readFileSync(`${file}-p.png`);
}

describe("the viewer's update of a PDF", () => {
  it('gives a LibreOffice-like PDF a balanced page tree and pages naming only their own resources', async () => {
    const original = await sharedResourcesPdf(200);
    expect(original.length).toBeGreaterThan(VIEWER_UPDATE_MIN_BYTES);
    const update = await viewerUpdate(original);
    expect(update).toMatchObject({ pages: 200, treeRebuilt: true, pagesPruned: 200 });
    // Small beside the document: page objects and the tree only.
    expect(update!.bytes.length).toBeLessThan(original.length / 10);
    const updated = Buffer.concat([original, update!.bytes]);
    expect(updated.subarray(0, original.length).equals(original)).toBe(true);

    const before = await pagesOf(original);
    const after = await pagesOf(updated);
    // The same pages, in the same order, under a tree of small nodes.
    expect(after.pages.map((p) => p.ref)).toEqual(before.pages.map((p) => p.ref));
    const rootKids = after.doc.catalog.Pages().Kids();
    expect(rootKids.size()).toBeLessThanOrEqual(PAGE_NODE_KIDS);
    for (const kid of rootKids.asArray()) {
      const node = after.doc.context.lookup(kid) as PDFDict;
      expect((node.lookup(PDFName.of('Kids'), PDFArray) as PDFArray).size()).toBeLessThanOrEqual(PAGE_NODE_KIDS);
    }
    // Each page names its own figure and font alone, and carries the size it inherited.
    const shared = before.doc.context.lookup(before.doc.catalog.Pages().get(Resources)) as PDFDict;
    const allFigures = (shared.lookup(XObject, PDFDict) as PDFDict).keys().length;
    expect(allFigures).toBe(200);
    for (const { node } of after.pages) {
      const own = node.lookup(Resources, PDFDict) as PDFDict;
      expect((own.lookup(XObject, PDFDict) as PDFDict).keys()).toHaveLength(1);
      expect((own.lookup(PDFName.of('Font'), PDFDict) as PDFDict).keys()).toHaveLength(1);
      expect(node.lookup(PDFName.of('MediaBox'), PDFArray)?.toString()).toBe('[ 0 0 595 842 ]');
    }
    // Poppler draws every page the same with the update as without it.
    for (const n of [1, 2, 100, 200]) expect(drawn(updated, n).equals(drawn(original, n)), `page ${n}`).toBe(true);
  });

  it('leaves the resources of a page that draws a form without resources of its own', async () => {
    const original = await sharedResourcesPdf(80, { formOn: 4 });
    const update = await viewerUpdate(original);
    expect(update).toMatchObject({ pages: 80, treeRebuilt: true, pagesPruned: 79 });
    const updated = Buffer.concat([original, update!.bytes]);
    const { doc, pages } = await pagesOf(updated);
    const sharedRef = doc.catalog.Pages().get(Resources);
    expect(sharedRef).toBeInstanceOf(PDFRef);
    expect(pages[4]!.node.get(Resources)).toBe(sharedRef);
    expect(pages[5]!.node.get(Resources)).not.toBe(sharedRef);
    expect(drawn(updated, 5).equals(drawn(original, 5))).toBe(true);
  });

  it('makes none for a PDF that needs none: small, already quick to open, or encrypted', async () => {
    const texts = (n: number) => Array.from({ length: n }, (_, i) => `Page ${i + 1}`);
    // Read whole in four ranges anyway.
    expect(await viewerUpdate(pdfWithPages(texts(200)))).toBeNull();
    // Thirty pages under one node, each naming only its own font: nothing to gain.
    const quick = pdfWithPages(texts(PAGE_NODE_KIDS - 2), 300);
    expect(quick.length).toBeGreaterThan(VIEWER_UPDATE_MIN_BYTES);
    expect(await viewerUpdate(quick)).toBeNull();
    // The same flat tree a few pages longer is rebuilt.
    expect(await viewerUpdate(pdfWithPages(texts(PAGE_NODE_KIDS + 8), 300))).toMatchObject({ treeRebuilt: true });
    // An update of an encrypted PDF would have to be encrypted alike: none.
    const plain = await sharedResourcesPdf(80);
    expect(await viewerUpdate(plain)).not.toBeNull();
    const doc = await PDFDocument.load(plain);
    doc.encrypt({ userPassword: '', ownerPassword: 'owner' });
    expect(await viewerUpdate(await doc.save({ useObjectStreams: false }))).toBeNull();
  });
});
