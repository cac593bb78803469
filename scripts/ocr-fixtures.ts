import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

import sharp from 'sharp';

import { projectRoot } from '#server/lib/project-root.ts';

/**
 * Makes the OCR fixtures (decision 113): 20 scanned pages at 300 dpi, 10 English and 10 Hindi, drawn from known text
 * with the fonts the portal ships (@fontsource Noto Sans and Noto Sans Devanagari), then given specks of noise and a
 * slight skew, as a scanner leaves them. The text of each page is its exact ground truth (ground-truth.json). Pages are
 * kept as two-colour PNGs (a few tens of KB each); tests and `npm run bench:ocr` put them into PDFs.
 *
 *   node --import tsx scripts/ocr-fixtures.ts      (writes server/test/fixtures/ocr/)
 *
 * Everything is drawn from a seeded generator, so running it again writes the same pages.
 */

const OUT = path.join(projectRoot, 'server/test/fixtures/ocr');
const FONTS = {
  en: 'node_modules/@fontsource/noto-sans/files/noto-sans-latin-400-normal.woff',
  hi: 'node_modules/@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff',
};
const FAMILY = { en: 'Noto Sans', hi: 'Noto Sans Devanagari' };
const WIDTH = 2480; // A4 at 300 dpi
const HEIGHT = 3508;

const ENGLISH = [
  'Subject: fire NOC renewal for the main laboratory building.',
  'The fire safety certificate of Block C expires on 31 March 2027.',
  'Please arrange the inspection of extinguishers and hydrant lines.',
  'The electrical audit report is enclosed with this letter.',
  'Copies of the approved building plan are kept with the estate officer.',
  'The store section will issue twelve new smoke detectors.',
  'A drill will be held in the auditorium on the first Monday.',
  'All group heads are requested to nominate one fire warden.',
  'The contract for annual maintenance ends in the coming quarter.',
  'Kindly send the list of hazardous chemicals held in each store.',
  'The director has approved the revised evacuation plan.',
  'Emergency exits on the second floor must remain unlocked.',
  'The municipal fire officer will visit the campus next week.',
  'Training records of the security staff are to be updated.',
  'The water tank capacity was measured at forty thousand litres.',
  'Signed copies should reach the administration office by Friday.',
  'This letter supersedes the earlier note dated 4 November 2026.',
  'Receipt of this letter may please be acknowledged.',
];
const HINDI = [
  'विषय: मुख्य प्रयोगशाला भवन की अग्नि सुरक्षा अनापत्ति का नवीनीकरण।',
  'भवन सी का अग्नि सुरक्षा प्रमाणपत्र मार्च में समाप्त होगा।',
  'कृपया अग्निशामक यंत्रों और जल लाइनों का निरीक्षण कराएं।',
  'विद्युत लेखा परीक्षा की रिपोर्ट इस पत्र के साथ संलग्न है।',
  'स्वीकृत भवन नक्शे की प्रतियां संपदा अधिकारी के पास रखी हैं।',
  'भंडार अनुभाग बारह नए धुआं संसूचक जारी करेगा।',
  'पहले सोमवार को सभागार में एक अभ्यास किया जाएगा।',
  'सभी समूह प्रमुखों से अनुरोध है कि एक अग्नि रक्षक नामित करें।',
  'वार्षिक रखरखाव का अनुबंध अगली तिमाही में समाप्त होगा।',
  'कृपया प्रत्येक भंडार में रखे खतरनाक रसायनों की सूची भेजें।',
  'निदेशक ने संशोधित निकासी योजना को स्वीकृति दी है।',
  'दूसरी मंजिल के आपातकालीन द्वार खुले रहने चाहिए।',
  'नगर अग्निशमन अधिकारी अगले सप्ताह परिसर का दौरा करेंगे।',
  'सुरक्षा कर्मचारियों के प्रशिक्षण अभिलेख अद्यतन किए जाएं।',
  'पानी की टंकी की क्षमता चालीस हजार लीटर मापी गई।',
  'हस्ताक्षरित प्रतियां शुक्रवार तक प्रशासन कार्यालय पहुंचनी चाहिए।',
  'यह पत्र पिछले नोट का स्थान लेता है।',
  'कृपया इस पत्र की पावती भेजें।',
];

/** A small seeded generator (mulberry32): the same pages on every run. */
function seeded(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** WOFF 1 → TrueType (the tables inflated): pango reads a font file, fontsource ships web fonts. */
function woffToTtf(woff: Buffer): Buffer {
  const n = woff.readUInt16BE(12);
  const tables = [];
  for (let i = 0; i < n; i++) {
    const o = 44 + i * 20;
    const [tag, offset, compressed, length, sum] = [0, 4, 8, 12, 16].map((d) => woff.readUInt32BE(o + d)) as [
      number,
      number,
      number,
      number,
      number,
    ];
    const raw = woff.subarray(offset, offset + compressed);
    tables.push({ tag, sum, data: compressed < length ? zlib.inflateSync(raw) : Buffer.from(raw) });
  }
  let entry = 1;
  while (entry * 2 <= n) entry *= 2;
  const head = Buffer.alloc(12 + 16 * n);
  head.writeUInt32BE(woff.readUInt32BE(4), 0);
  head.writeUInt16BE(n, 4);
  head.writeUInt16BE(entry * 16, 6);
  head.writeUInt16BE(Math.log2(entry), 8);
  head.writeUInt16BE(n * 16 - entry * 16, 10);
  let offset = head.length;
  const bodies = tables.map((t, i) => {
    head.writeUInt32BE(t.tag, 12 + i * 16);
    head.writeUInt32BE(t.sum, 16 + i * 16);
    head.writeUInt32BE(offset, 20 + i * 16);
    head.writeUInt32BE(t.data.length, 24 + i * 16);
    const padded = Buffer.alloc((t.data.length + 3) & ~3);
    t.data.copy(padded);
    offset += padded.length;
    return padded;
  });
  return Buffer.concat([head, ...bodies]);
}

/** The lines of one page: a heading and 14 sentences of its language, picked and ordered by the generator. */
function pageLines(lang: 'en' | 'hi', page: number, random: () => number): string[] {
  const pool = lang === 'en' ? ENGLISH : HINDI;
  const heading = lang === 'en' ? `Letter number ${page} of the estate office` : `संपदा कार्यालय का पत्र संख्या ${page}`;
  const lines = [heading, pool[0]!];
  const rest = pool.slice(1);
  while (lines.length < 15) lines.push(rest.splice(Math.floor(random() * rest.length), 1)[0]!);
  return lines;
}

const escapeMarkup = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function drawPage(lang: 'en' | 'hi', lines: string[], fontfile: string, random: () => number) {
  // The text in 12 pt at 300 dpi, white on black as pango draws it, then black on white.
  const text = await sharp({
    text: {
      text: escapeMarkup(lines.join('\n')),
      font: `${FAMILY[lang]} 12`,
      fontfile,
      dpi: 300,
      width: WIDTH - 500,
      spacing: 40,
    },
  })
    .negate({ alpha: false })
    .png()
    .toBuffer();
  const page = await sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: '#ffffff' } })
    .composite([{ input: text, left: 250, top: 300 }])
    .extractChannel(0)
    .raw()
    .toBuffer();
  // Specks, as dust on the glass leaves them: about one pixel in 600, some of them 2×2.
  for (let i = 0; i < (WIDTH * HEIGHT) / 600; i++) {
    const x = Math.floor(random() * (WIDTH - 2));
    const y = Math.floor(random() * (HEIGHT - 2));
    page[y * WIDTH + x] = 0;
    if (random() < 0.3) page[y * WIDTH + x + 1] = page[(y + 1) * WIDTH + x] = page[(y + 1) * WIDTH + x + 1] = 0;
  }
  // A slight skew (0.4° to 1.2°, either way), then two colours, as a scanner's black-and-white mode writes.
  const angle = (0.4 + random() * 0.8) * (random() < 0.5 ? -1 : 1);
  const rotated = await sharp(page, { raw: { width: WIDTH, height: HEIGHT, channels: 1 } })
    .rotate(angle, { background: '#ffffff' })
    .extract({ left: 0, top: 0, width: WIDTH, height: HEIGHT })
    .threshold(128)
    .png({ palette: true, colours: 2, compressionLevel: 9 })
    .withMetadata({ density: 300 })
    .toBuffer();
  return { png: rotated, angle };
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const fonts = path.join(os.tmpdir(), 'lp-ocr-fonts');
  mkdirSync(fonts, { recursive: true });
  const truth: Record<string, { lang: 'eng' | 'hin'; skew: number; text: string }> = {};
  for (const lang of ['en', 'hi'] as const) {
    const fontfile = path.join(fonts, `${lang}.ttf`);
    writeFileSync(fontfile, woffToTtf(readFileSync(path.join(projectRoot, FONTS[lang]))));
    const random = seeded(lang === 'en' ? 47 : 4747);
    for (let page = 1; page <= 10; page++) {
      const lines = pageLines(lang, page, random);
      const { png, angle } = await drawPage(lang, lines, fontfile, random);
      const name = `${lang}-${String(page).padStart(2, '0')}.png`;
      writeFileSync(path.join(OUT, name), png);
      truth[name] = {
        lang: lang === 'en' ? 'eng' : 'hin',
        skew: Math.round(angle * 100) / 100,
        text: lines.join('\n'),
      };
      console.log(name, `${Math.round(png.length / 1024)} KB`, `skew ${angle.toFixed(2)}°`);
    }
  }
  writeFileSync(path.join(OUT, 'ground-truth.json'), JSON.stringify(truth, null, 2) + '\n');
}

await main();
