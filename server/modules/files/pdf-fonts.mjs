// The portal's PDF fonts for the threads that draw text into PDFs: the watermark (watermark.worker.mjs, decisions 071
// and 096) and the e-file export (efiles/efile-export.worker.mjs, decision 111). Plain JavaScript, as the workers are.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';

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

const require = createRequire(import.meta.url);

/**
 * Noto Sans Devanagari as the portal's web build ships it (@fontsource), of one weight: its Latin face for the words
 * and numbers, its Devanagari face for Hindi, then Latin Extended, each as plain TrueType (see woffToSfnt). A character
 * is drawn by the first face that has it (runsOf).
 */
export function fontFiles(weight) {
  return ['latin', 'devanagari', 'latin-ext'].map((subset) =>
    woffToSfnt(
      readFileSync(
        require.resolve(`@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-${subset}-${weight}-normal.woff`),
      ),
    ),
  );
}

/**
 * fontkit for pdf-lib, each font read once per thread: pdf-lib hands the same bytes to `create` for every document,
 * and reading a font again (its shaping tables above all) cost most of a watermark's time (decision 071). A font object
 * is only read from after it is made, and this thread watermarks one document at a time, so documents may share it.
 */
const parsed = new Map();
export const sharedFontkit = {
  create(bytes, postscriptName) {
    let font = parsed.get(bytes);
    if (font === undefined) {
      font = fontkit.create(bytes, postscriptName);
      parsed.set(bytes, font);
    }
    return font;
  },
};

/** Runs of text each drawn by the first font that has all its characters (a space joins the run it is in). */
export function runsOf(text, fonts, kits) {
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
