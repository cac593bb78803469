import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import { renderTextLine, woffToTrueType } from './demo-files.ts';

const woffPath = createRequire(import.meta.url).resolve(
  '@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-700-normal.woff',
);

describe('Hindi in the demo images (issue 16)', () => {
  it('turns the shipped WOFF font into a TrueType file with the same tables', () => {
    const woff = readFileSync(woffPath);
    const ttf = woffToTrueType(woff);
    expect(ttf.readUInt32BE(0)).toBe(woff.readUInt32BE(4)); // the sfnt flavour (0x00010000 TrueType)
    expect(ttf.readUInt16BE(4)).toBe(woff.readUInt16BE(12)); // number of tables
    expect(ttf.length).toBe(woff.readUInt32BE(16)); // WOFF header's totalSfntSize
  });

  it('refuses a file that is not WOFF 1.0', () => {
    expect(() => woffToTrueType(Buffer.from('not a font at all, not at all'))).toThrow('Not a WOFF 1.0 font');
  });

  it('draws Devanagari as shaped letters, not one box per code point', async () => {
    // A missing glyph is drawn as a box holding its hex code, about 0.95 em wide per code point (13 here: ~540 px at
    // 44 px); shaped Devanagari joins matras and conjuncts, and the phrase comes out about half as wide.
    const png = await renderTextLine('हिंदी पखवाड़ा', 44, '#7b2d26');
    const { width = 0, height = 0 } = await sharp(png).metadata();
    expect(height).toBeGreaterThan(40);
    expect(width).toBeGreaterThan(150);
    expect(width).toBeLessThan(320);
  });
});
