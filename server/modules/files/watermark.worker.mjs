// Watermarks classified PDFs for their downloads (decision 071) in a worker thread (pdf-watermark.ts, decision 096), so that a
// PDF whose reading or writing takes long costs this thread's time, never the server's: the parent ends the thread when
// a watermark takes too long. Plain JavaScript so that it runs the same under tsx, Vitest and the compiled server, as
// search/extract.worker.mjs does.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { inflateSync } from 'node:zlib';

import { degrees, PDFDocument, rgb } from '@cantoo/pdf-lib';
import * as fontkit from 'fontkit';

/**
 * A WOFF 1.0 font as the plain TrueType/OpenType file it wraps (W3C WOFF §4-5: the header, a directory of tables,
 * each table zlib-compressed when that made it smaller). fontkit reads a WOFF table by inflating it again at each
 * reading, once per glyph drawn or subset: three quarters of a watermark's time went there.
 */
function woffToSfnt(woff) {
  if (woff.readUInt32BE(0) !== 0x774f4646) throw new Error('not a WOFF font');
  const count = woff.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, i) => {
    const at = 44 + i * 20;
    const offset = woff.readUInt32BE(at + 4);
    const compLength = woff.readUInt32BE(at + 8);
    const origLength = woff.readUInt32BE(at + 12);
    const stored = woff.subarray(offset, offset + compLength);
    return {
      tag: woff.readUInt32BE(at),
      checksum: woff.readUInt32BE(at + 16),
      data: compLength < origLength ? inflateSync(stored) : stored,
    };
  });
  const directory = 12 + 16 * count;
  const padded = (n) => (n + 3) & ~3;
  const out = Buffer.alloc(directory + tables.reduce((sum, t) => sum + padded(t.data.length), 0));
  const searchRange = 2 ** Math.floor(Math.log2(count)) * 16;
  out.writeUInt32BE(woff.readUInt32BE(4), 0); // flavor: the sfnt version
  out.writeUInt16BE(count, 4);
  out.writeUInt16BE(searchRange, 6);
  out.writeUInt16BE(Math.floor(Math.log2(count)), 8);
  out.writeUInt16BE(count * 16 - searchRange, 10);
  let offset = directory;
  tables.forEach((t, i) => {
    const at = 12 + i * 16;
    out.writeUInt32BE(t.tag, at);
    out.writeUInt32BE(t.checksum, at + 4);
    out.writeUInt32BE(offset, at + 8);
    out.writeUInt32BE(t.data.length, at + 12);
    t.data.copy(out, offset);
    offset += padded(t.data.length);
  });
  return out;
}

// Noto Sans Devanagari as the portal's web build ships it (@fontsource): its Latin face for the words and numbers and
// its Devanagari face for a Hindi name, then Latin Extended. Embedded as subsets: a watermark adds a few kilobytes.
const require = createRequire(import.meta.url);
const FONT_FILES = ['latin', 'devanagari', 'latin-ext'].map((subset) =>
  woffToSfnt(
    readFileSync(
      require.resolve(`@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-${subset}-400-normal.woff`),
    ),
  ),
);

/**
 * fontkit for pdf-lib, each font read once per thread: pdf-lib hands the same bytes to `create` for every document,
 * and reading a font again (its shaping tables above all) cost most of a watermark's time (decision 071). A font object
 * is only read from after it is made, and this thread watermarks one document at a time, so documents may share it.
 */
const parsed = new Map();
const sharedFontkit = {
  create(bytes, postscriptName) {
    let font = parsed.get(bytes);
    if (font === undefined) {
      font = fontkit.create(bytes, postscriptName);
      parsed.set(bytes, font);
    }
    return font;
  },
};

const SIZE = 7.5;
const LEADING = 9.5;
const MARGIN = 12;
const PADDING = 3;
const INK = rgb(0.55, 0, 0);

/** The PDF cannot carry the watermark: the parent refuses it (files.unstampable), never sends it without its watermark. */
class Unwatermarkable extends Error {}

/** Runs of text each drawn by the first font that has all its characters (a space joins the run it is in). */
function runsOf(text, fonts, kits) {
  const runs = [];
  const faceOf = (code) => kits.findIndex((k) => k.hasGlyphForCodePoint(code));
  for (const raw of text) {
    // Spaces of other widths (Intl writes U+202F before "pm" on some versions) are drawn as a plain space.
    const char = /\s/u.test(raw) ? ' ' : raw;
    const code = char.codePointAt(0);
    const last = runs[runs.length - 1];
    if (last && (char === ' ' || last.font === fonts[faceOf(code)])) {
      last.text += char;
      continue;
    }
    const index = faceOf(code);
    // A character none of the faces draws (an emoji in a name) is written as a question mark.
    if (index < 0) runs.push({ text: '?', font: fonts[0] });
    else runs.push({ text: char, font: fonts[index] });
  }
  return runs;
}

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
