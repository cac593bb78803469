// Watermarks classified PDFs for their downloads (decision 071) in a worker thread (pdf-watermark.ts, decision 096), so that a
// PDF whose reading or writing takes long costs this thread's time, never the server's: the parent ends the thread when
// a watermark takes too long. Plain JavaScript so that it runs the same under tsx, Vitest and the compiled server, as
// search/extract.worker.mjs does.
import { parentPort } from 'node:worker_threads';

import { degrees, PDFDocument, rgb } from '@cantoo/pdf-lib';

import { fontFiles, runsOf, sharedFontkit } from './pdf-fonts.mjs';

// Noto Sans Devanagari as the portal's web build ships it, read once per thread (pdf-fonts.mjs): its Latin face for the
// words and numbers and its Devanagari face for a Hindi name, then Latin Extended. Embedded as subsets: a watermark adds
// a few kilobytes.
const FONT_FILES = fontFiles(400);

const SIZE = 7.5;
const LEADING = 9.5;
const MARGIN = 12;
const PADDING = 3;
const INK = rgb(0.55, 0, 0);

/** The PDF cannot carry the watermark: the parent refuses it (files.unstampable), never sends it without its watermark. */
class Unwatermarkable extends Error {}

/** Where the watermark goes on a page: the bottom-left corner as the page is shown (its CropBox and /Rotate). */
function placement(page) {
  const box = page.getCropBox();
  const [x0, y0, x1, y1] = [box.x, box.y, box.x + box.width, box.y + box.height];
  switch (((page.getRotation().angle % 360) + 360) % 360) {
    case 90:
      return { x: x1 - MARGIN, y: y0 + MARGIN, angle: 90, room: box.height };
    case 180:
      return { x: x1 - MARGIN, y: y1 - MARGIN, angle: 180, room: box.width };
    case 270:
      return { x: x0 + MARGIN, y: y1 - MARGIN, angle: 270, room: box.height };
    default:
      return { x: x0 + MARGIN, y: y0 + MARGIN, angle: 0, room: box.width };
  }
}

/** The PDF with the two lines watermarked on every page, written again whole (decision 071). */
async function watermark(original, lineTexts) {
  let doc;
  let pages;
  try {
    doc = await PDFDocument.load(original, { updateMetadata: false });
    pages = doc.getPages();
  } catch (err) {
    const encrypted = err?.name === 'EncryptedPDFError' || /encrypt/i.test(String(err?.message));
    throw new Unwatermarkable(encrypted ? 'it is encrypted' : 'it cannot be read', { cause: err });
  }
  if (doc.isEncrypted) throw new Unwatermarkable('it is encrypted');
  if (!pages.length) throw new Unwatermarkable('it has no page');

  doc.registerFontkit(sharedFontkit);
  const fonts = await Promise.all(FONT_FILES.map((bytes) => doc.embedFont(bytes, { subset: true })));
  const kits = FONT_FILES.map((bytes) => sharedFontkit.create(bytes));
  const lines = lineTexts.map((line) => {
    const runs = runsOf(line, fonts, kits).map((run) => ({
      ...run,
      width: run.font.widthOfTextAtSize(run.text, SIZE),
    }));
    return { runs, width: runs.reduce((sum, r) => sum + r.width, 0) };
  });
  const width = Math.max(...lines.map((l) => l.width)) + 2 * PADDING;
  const height = lines.length * LEADING + 2 * PADDING;

  // Drawn once, on a page of its own made into a form XObject that every page then shows: the text is shaped once
  // (a Hindi name's shaping was most of the cost when drawn page by page). The page itself goes again.
  const sheet = doc.addPage([width, height]);
  sheet.drawRectangle({ x: 0, y: 0, width, height, color: rgb(1, 1, 1), opacity: 0.8 });
  lines.forEach((line, i) => {
    let x = PADDING;
    const y = PADDING + (lines.length - 1 - i) * LEADING + 2; // the first line on top
    for (const run of line.runs) {
      sheet.drawText(run.text, { x, y, size: SIZE, font: run.font, color: INK });
      x += run.width;
    }
  });
  const form = await doc.embedPage(sheet);
  doc.removePage(doc.getPageCount() - 1);
  doc.context.delete(sheet.ref);

  for (const page of pages) {
    const { x, y, angle, room } = placement(page);
    // A page narrower than the watermark gets it smaller, never cut off.
    const scale = Math.min(1, (room - 2 * MARGIN) / width);
    page.drawPage(form, { x, y, xScale: scale, yScale: scale, rotate: degrees(angle) });
  }
  return doc.save();
}

// Ready once pdf-lib and the fonts are loaded and one page has been watermarked with Latin and Devanagari (fontkit reads
// the fonts, the code is compiled): a download's time limit counts from here, not from the thread's start.
const blank = await PDFDocument.create();
blank.addPage([595, 842]);
await watermark(await blank.save(), ['Downloaded by राम कुमार · PIS 0', '1 Jan 2026, 9:00 am IST · Download id -']);
parentPort?.postMessage({ ready: true });

// One document at a time: the parent sends the next only after this one's answer (pdf-watermark.ts).
parentPort?.on('message', async ({ id, original, lines }) => {
  try {
    const pdf = await watermark(new Uint8Array(original), lines);
    parentPort.postMessage({ id, pdf }, [pdf.buffer]);
  } catch (err) {
    if (err instanceof Unwatermarkable) parentPort.postMessage({ id, unstampable: err.message });
    else parentPort.postMessage({ id, error: String(err?.stack ?? err) });
  }
});
