import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';

import { degrees, PDFDocument, type PDFFont, type PDFPage, rgb } from '@cantoo/pdf-lib';
import * as fontkit from 'fontkit';

import { formatDateTime } from '#shared/format.ts';

/**
 * Stamped downloads (issue 31 item 3, decision 071): every page of a classified PDF carries who downloaded it (name
 * and PIS number), when (IST) and the download id, which is the id of the download's audit event. The document is
 * rewritten whole (never an incremental update, which would keep the original bytes as its first part, to be cut
 * back to by anyone), each time it is downloaded, and nothing stamped is kept.
 */
export interface Stamp {
  name: string;
  pis: string;
  at: Date;
  downloadId: string;
}

/** The PDF cannot carry the stamp (unreadable, encrypted, or without a page): it is refused, never sent unstamped. */
export class UnstampablePdf extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`This PDF cannot be stamped: ${reason}`, options);
  }
}

type Fontkit = Parameters<PDFDocument['registerFontkit']>[0];
type FontkitResult = ReturnType<Fontkit['create']>;
/** What this file asks of a fontkit font itself: does it draw this character? */
interface FontkitFont {
  hasGlyphForCodePoint(code: number): boolean;
}

/**
 * A WOFF 1.0 font as the plain TrueType/OpenType file it wraps (W3C WOFF §4-5: the header, a directory of tables,
 * each table zlib-compressed when that made it smaller). fontkit reads a WOFF table by inflating it again at each
 * reading, once per glyph drawn or subset: three quarters of a stamp's time went there.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.readUInt32BE(0) !== 0x774f4646) throw new Error('not a WOFF font');
  const count = woff.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, i) => {
    const at = 44 + i * 20;
    const [offset, compLength, origLength] = [
      woff.readUInt32BE(at + 4),
      woff.readUInt32BE(at + 8),
      woff.readUInt32BE(at + 12),
    ];
    const stored = woff.subarray(offset, offset + compLength);
    return {
      tag: woff.readUInt32BE(at),
      checksum: woff.readUInt32BE(at + 16),
      data: compLength < origLength ? inflateSync(stored) : stored,
    };
  });
  const directory = 12 + 16 * count;
  const padded = (n: number) => (n + 3) & ~3;
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
// its Devanagari face for a Hindi name, then Latin Extended. Embedded as subsets: a stamp adds a few kilobytes.
const require = createRequire(import.meta.url);
const FONT_FILES = ['latin', 'devanagari', 'latin-ext'].map((subset) =>
  woffToSfnt(
    readFileSync(
      require.resolve(`@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-${subset}-400-normal.woff`),
    ),
  ),
);

/**
 * fontkit for pdf-lib, each font read once per process: pdf-lib hands the same bytes to `create` for every document,
 * and reading a font again (its shaping tables above all) cost most of a stamp's time (decision 071). A font object
 * is only read from after it is made, and a stamp is drawn without a pause, so documents may share it.
 */
const parsed = new Map<Uint8Array, FontkitResult>();
const sharedFontkit: Fontkit = {
  create(bytes, postscriptName) {
    let font = parsed.get(bytes);
    if (font === undefined) {
      font = (fontkit as unknown as Fontkit).create(bytes, postscriptName);
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

/** The stamp's two lines (English: the record's language, whatever the reader's screen). */
export function stampLines(stamp: Stamp): [string, string] {
  return [
    `Downloaded by ${stamp.name} · PIS ${stamp.pis.trim() || 'not recorded'}`,
    `${formatDateTime(stamp.at)} IST · Download id ${stamp.downloadId}`,
  ];
}

/** Runs of text each drawn by the first font that has all its characters (a space joins the run it is in). */
function runsOf(text: string, fonts: PDFFont[], kits: FontkitFont[]) {
  const runs: { text: string; font: PDFFont }[] = [];
  for (const raw of text) {
    // Spaces of other widths (Intl writes U+202F before "pm" on some versions) are drawn as a plain space.
    const char = /\s/u.test(raw) ? ' ' : raw;
    const code = char.codePointAt(0)!;
    const last = runs[runs.length - 1];
    if (last && (char === ' ' || last.font === fonts[kits.findIndex((k) => hasGlyph(k, code))])) {
      last.text += char;
      continue;
    }
    const index = kits.findIndex((k) => hasGlyph(k, code));
    // A character none of the faces draws (an emoji in a name) is written as a question mark.
    if (index < 0) runs.push({ text: '?', font: fonts[0]! });
    else runs.push({ text: char, font: fonts[index]! });
  }
  return runs;
}

const hasGlyph = (font: FontkitFont, code: number) => font.hasGlyphForCodePoint(code);

/** Where the stamp goes on a page: the bottom-left corner as the page is shown (its CropBox and /Rotate). */
function placement(page: PDFPage) {
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

/**
 * Returns a copy of the PDF with the stamp on every page (decision 071). Throws UnstampablePdf when the file cannot
 * be read as a PDF, is encrypted, or has no page.
 */
export async function stampPdf(original: Uint8Array, stamp: Stamp): Promise<Uint8Array> {
  let doc: PDFDocument;
  let pages: PDFPage[];
  try {
    doc = await PDFDocument.load(original, { updateMetadata: false });
    pages = doc.getPages();
  } catch (err) {
    const encrypted = (err as Error).name === 'EncryptedPDFError' || /encrypt/i.test((err as Error).message);
    throw new UnstampablePdf(encrypted ? 'it is encrypted' : 'it cannot be read', { cause: err });
  }
  if (doc.isEncrypted) throw new UnstampablePdf('it is encrypted');
  if (!pages.length) throw new UnstampablePdf('it has no page');

  doc.registerFontkit(sharedFontkit);
  const fonts = await Promise.all(FONT_FILES.map((bytes) => doc.embedFont(bytes, { subset: true })));
  const kits = FONT_FILES.map((bytes) => sharedFontkit.create(bytes) as unknown as FontkitFont);
  const lines = stampLines(stamp).map((line) => {
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
    // A page narrower than the stamp gets it smaller, never cut off.
    const scale = Math.min(1, (room - 2 * MARGIN) / width);
    page.drawPage(form, { x, y, xScale: scale, yScale: scale, rotate: degrees(angle) });
  }
  return doc.save();
}
