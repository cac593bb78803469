// Makes web/app/fonts/hindi-word-600.woff2: Noto Sans Devanagari SemiBold cut down to the glyphs of the one Hindi word
// an English page draws, "हिन्दी" on the language button (the whole 600 face, 53 KB, was downloaded
// for it). The file is committed; run this again only if the word or the fontsource package changes.
//
// It needs subset-font (HarfBuzz's hb-subset in WebAssembly), which the portal does not depend on. Install it anywhere
// outside the project and name that folder:
//   npm install --prefix /tmp/subset subset-font@2 && SUBSET_FONT_PREFIX=/tmp/subset node scripts/subset-language-word.mjs
// hb-subset keeps the layout rules (GSUB, GPOS) the kept glyphs need, so the conjunct न्द and the vowel signs are
// shaped as in the full face.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WORD = 'हिन्दी';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const source =
  require.resolve('@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-600-normal.woff2');
const target = path.join(root, 'web', 'app', 'fonts', 'hindi-word-600.woff2');

const prefix = process.env.SUBSET_FONT_PREFIX;
if (!prefix) throw new Error('Name the folder where subset-font is installed: SUBSET_FONT_PREFIX=/tmp/subset');
const subsetFont = createRequire(path.join(prefix, 'package.json'))('subset-font');
const subset = await subsetFont(readFileSync(source), WORD, { targetFormat: 'woff2' });
writeFileSync(target, subset);
const codePoints = [...new Set(WORD)].map((c) => `U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
console.log(`${path.relative(root, target)}: ${subset.length} bytes (from ${readFileSync(source).length})`);
console.log(`unicode-range: ${codePoints.join(', ')}`);
