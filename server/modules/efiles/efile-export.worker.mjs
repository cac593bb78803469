// Makes an e-file's export (decision 111) in a worker thread of its own, as the watermark is made (decision 096): the
// noting pages drawn from the notes, then every page of each correspondence item's PDF — uploaded files, read by
// pdf-lib here and never on the server's main thread —, each under its C/n, then page numbers and the references'
// links. The parent ends the thread when it takes longer than its time limit (efiles.export.ts). Plain JavaScript so
// that it runs the same under tsx, Vitest and the compiled server.
import { parentPort, workerData } from 'node:worker_threads';

import { degrees, PDFDocument, rgb } from '@cantoo/pdf-lib';

import { fontFiles, runsOf, sharedFontkit } from '../../lib/pdf-fonts.mjs';
import { A4, drawNote, drawTitle, Flow, MARGIN } from './efile-export.layout.mjs';

const FACES = { regular: fontFiles(400), bold: fontFiles(700) };
const LABEL = 8;
const WHITE = rgb(1, 1, 1);
const INK = rgb(0.15, 0.15, 0.15);

async function embedFaces(doc) {
  doc.registerFontkit(sharedFontkit);
  const faces = {};
  for (const [name, files] of Object.entries(FACES)) {
    faces[name] = {
      fonts: await Promise.all(files.map((bytes) => doc.embedFont(bytes, { subset: true }))),
      kits: files.map((bytes) => sharedFontkit.create(bytes)),
    };
  }
  return faces;
}

/** A page as it is shown (its CropBox and /Rotate): its size, and where a point of it is on the page itself. */
function shown(page) {
  const box = page.getCropBox();
  const [x0, y0, x1, y1] = [box.x, box.y, box.x + box.width, box.y + box.height];
  const angle = ((page.getRotation().angle % 360) + 360) % 360;
  const turned = angle === 90 || angle === 270;
  const at = (sx, sy) => {
    if (angle === 90) return { x: x1 - sy, y: y0 + sx };
    if (angle === 180) return { x: x1 - sx, y: y1 - sy };
    if (angle === 270) return { x: x0 + sy, y: y1 - sx };
    return { x: x0 + sx, y: y0 + sy };
  };
  return {
    width: turned ? box.height : box.width,
    height: turned ? box.width : box.height,
    at,
    rotate: degrees(angle),
  };
}

/** One line of small text on a white band, at the top-left or bottom-right of the page as shown. */
function label(page, face, text, where) {
  const view = shown(page);
  const runs = runsOf(text, face.fonts, face.kits).map((r) => ({
    ...r,
    width: r.font.widthOfTextAtSize(r.text, LABEL),
  }));
  const width = runs.reduce((sum, r) => sum + r.width, 0);
  const scale = Math.min(1, (view.width - 24) / (width + 6));
  const sx = where === 'top' ? 12 : view.width - 12 - (width + 6) * scale;
  const sy = where === 'top' ? view.height - 8 - (LABEL + 6) * scale : 8;
  const corner = view.at(sx, sy);
  page.drawRectangle({
    ...corner,
    width: (width + 6) * scale,
    height: (LABEL + 6) * scale,
    color: WHITE,
    opacity: 0.85,
    rotate: view.rotate,
  });
  let x = sx + 3 * scale;
  for (const run of runs) {
    page.drawText(run.text, {
      ...view.at(x, sy + 4 * scale),
      size: LABEL * scale,
      font: run.font,
      color: INK,
      rotate: view.rotate,
    });
    x += run.width * scale;
  }
}

/** A page saying why an item's own pages are not in the export (not a PDF, unreadable, encrypted). */
function standIn(doc, faces, item, reason) {
  const flow = new Flow(doc, faces);
  flow.text([{ text: item.ref }], { size: 14, bold: true });
  flow.text([{ text: item.title }]);
  flow.gap(10);
  flow.text([{ text: reason }]);
  return flow.pages;
}

/** The item's pages in the export: its PDF's pages, its picture on a page, or a stand-in page (`texts`: its words). */
async function itemPages(doc, faces, item, texts) {
  if (item.pdf) {
    // A PDF pdf-lib cannot read whole (damaged, without a page tree, encrypted) is a stand-in page, never a failed
    // export: its pages are copied before any is added, so a failure leaves nothing half added.
    let pages;
    try {
      const source = await PDFDocument.load(new Uint8Array(item.pdf), { updateMetadata: false });
      if (!source.isEncrypted && source.getPageCount()) pages = await doc.copyPages(source, source.getPageIndices());
    } catch {
      pages = undefined;
    }
    if (!pages) {
      return standIn(doc, faces, item, texts.unreadablePdf);
    }
    return pages.map((page) => doc.addPage(page));
  }
  if (item.image) {
    let picture;
    try {
      const bytes = new Uint8Array(item.image.bytes);
      picture = item.image.type === 'png' ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
    } catch {
      return standIn(doc, faces, item, texts.unreadablePicture);
    }
    const page = doc.addPage(A4);
    const room = [A4[0] - 2 * MARGIN, A4[1] - 2 * MARGIN - 20];
    const scale = Math.min(1, room[0] / picture.width, room[1] / picture.height);
    const [w, h] = [picture.width * scale, picture.height * scale];
    page.drawImage(picture, { x: (A4[0] - w) / 2, y: A4[1] - MARGIN - 20 - h, width: w, height: h });
    return [page];
  }
  return standIn(doc, faces, item, item.missing);
}

/** A link from a reference drawn in a note to the first page of what it names. */
function link(doc, page, rect, target) {
  const annot = doc.context.obj({
    Type: 'Annot',
    Subtype: 'Link',
    Rect: rect,
    Border: [0, 0, 0],
    Dest: [target.ref, 'Fit'],
  });
  page.node.addAnnot(doc.context.register(annot));
}

/** The whole file as one PDF: the noting pages, then the correspondence, page-numbered. */
async function exportFile({ texts, file, notes, items }) {
  const doc = await PDFDocument.create();
  doc.setTitle(`${file.number} — ${file.subject}`);
  const faces = await embedFaces(doc);
  const first = new Map();
  const flow = new Flow(doc, faces);
  drawTitle(flow, file);
  if (!notes.length) flow.text([{ text: 'No notes.' }]);
  for (const note of notes) first.set(note.ref, drawNote(flow, note));
  for (const item of items) {
    const pages = await itemPages(doc, faces, item, texts);
    first.set(item.ref, pages[0]);
    pages.forEach((page, i) =>
      label(page, faces.regular, `${item.ref} · ${item.title} · page ${i + 1} of ${pages.length}`, 'top'),
    );
  }
  const all = doc.getPages();
  all.forEach((page, i) => label(page, faces.regular, `${file.number} · Page ${i + 1} of ${all.length}`, 'bottom'));
  for (const { page, ref, rect } of flow.refs) {
    const target = first.get(ref);
    if (target) link(doc, page, rect, target);
  }
  return { pdf: await doc.save(), pages: all.length };
}

try {
  const { pdf, pages } = await exportFile(workerData);
  parentPort.postMessage({ pdf, pages }, [pdf.buffer]);
} catch (err) {
  parentPort.postMessage({ error: String(err?.stack ?? err) });
}
