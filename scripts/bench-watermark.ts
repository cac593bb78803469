// `npm run bench:watermark`: how long watermarking a classified PDF for one download takes (decision 071;
// goal: a 50-page PDF with p95 under 1.5 s).
//
// Watermarks two 50-page PDFs made here, BENCH_RUNS times each (default 40), the names alternating between English and
// Devanagari, as files.routes.ts does for each download (watermarkPdf: read, watermark every page, write the whole document
// again): "text", fifty pages of typed text, and "scanned", fifty pages each a different greyscale JPEG of an A4 page
// at 150 dpi (what a scanned letter is). Then "long", 3,000 pages of one line each (the outside review's PDF),
// BENCH_LONG_RUNS times (default 3). The first runs warm the process up and are not counted. Prints each kind's
// median, p95 and largest time, and the event-loop delay of the calling thread meanwhile (p99 and largest: what the
// server's other requests waited; decision 096 moved the watermarking into worker threads), then one JSON line.
import { randomUUID } from 'node:crypto';

import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import sharp from 'sharp';

import { watermarkPdf } from '#server/modules/files/pdf-watermark.ts';

import { textPdf as typedPdf, timed } from './bench-pdf-setup.ts';

const PAGES = 50;
const RUNS = Number(process.env.BENCH_RUNS || 40);
const LONG_PAGES = 3000;
const LONG_RUNS = Number(process.env.BENCH_LONG_RUNS || 3);
const WARM_UP = 3;
const GOAL_MS = 1500;

async function scannedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let p = 0; p < PAGES; p++) {
    // A4 at 150 dpi, grey noise so that each page is its own image of a scan's size.
    const raw = Buffer.alloc(1240 * 1754);
    for (let i = 0; i < raw.length; i++) raw[i] = 200 + ((i * 7919 + p * 104729) % 56);
    const jpeg = await sharp(raw, { raw: { width: 1240, height: 1754, channels: 1 } })
      .jpeg({ quality: 70 })
      .toBuffer();
    const image = await doc.embedJpg(jpeg);
    const page = doc.addPage([595, 842]);
    page.drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
  }
  return doc.save();
}

async function longPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < LONG_PAGES; p++)
    doc.addPage([595, 842]).drawText(`Page ${p + 1} of the range survey`, { x: 50, y: 800, size: 10, font });
  return doc.save();
}

const measure = (original: Uint8Array, runs: number, warmUp: number) =>
  timed(runs, warmUp, (i) =>
    watermarkPdf(original, {
      name: i % 2 ? 'राम कुमार शर्मा' : 'Anjali Deshmukh',
      pis: '804512',
      at: new Date(),
      downloadId: randomUUID(),
    }),
  );

type Result = { pages: number; mb: number; p50: number; p95: number; max: number; loopP99: number; loopMax: number };
const results: Record<string, Result> = {};
for (const [kind, make, pages, runs, warmUp] of [
  ['text', () => typedPdf(PAGES), PAGES, RUNS, WARM_UP],
  ['scanned', scannedPdf, PAGES, RUNS, WARM_UP],
  ['long', longPdf, LONG_PAGES, LONG_RUNS, 1],
] as const) {
  const original = await make();
  const mb = +(original.length / 1024 / 1024).toFixed(2);
  results[kind] = { pages, mb, ...(await measure(original, runs, warmUp)) };
  const r = results[kind];
  console.log(
    `${kind}: ${pages} pages, ${mb} MB, ${runs} watermarks: p50 ${r.p50} ms, p95 ${r.p95} ms, max ${r.max} ms; ` +
      `event-loop delay meanwhile p99 ${r.loopP99} ms, max ${r.loopMax} ms`,
  );
}
const worstP95 = Math.max(results.text!.p95, results.scanned!.p95);
console.log(`worst p95 of 50 pages ${worstP95} ms (goal < ${GOAL_MS} ms)`);
console.log(JSON.stringify({ bench: 'watermark', pages: PAGES, runs: RUNS, goalMs: GOAL_MS, worstP95, results }));
