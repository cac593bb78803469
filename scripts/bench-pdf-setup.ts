// What the PDF benchmarks share (bench-watermark.ts, bench-sign.ts): the 50-page PDF of typed text they work on, and
// the timing of repeated runs with the calling thread's event-loop delay meanwhile.
import { monitorEventLoopDelay } from 'node:perf_hooks';

import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';

/** A PDF of `pages` A4 pages of 48 lines of typed text each (Helvetica). */
export async function textPdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([595, 842]);
    for (let line = 0; line < 48; line++) {
      page.drawText(`Page ${p + 1}, line ${line + 1}: storage of explosives, distances and the magazine's licence.`, {
        x: 50,
        y: 800 - line * 15,
        size: 10,
        font,
      });
    }
  }
  return doc.save();
}

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

export interface Timing {
  p50: number;
  p95: number;
  max: number;
  /** The calling thread's event-loop delay while the counted runs ran (p99 and largest), ms. */
  loopP99: number;
  loopMax: number;
}

/** Runs `work` warmUp + runs times; the first `warmUp` are not counted. Times in whole milliseconds. */
export async function timed(runs: number, warmUp: number, work: (i: number) => Promise<unknown>): Promise<Timing> {
  const times: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 10 });
  for (let i = 0; i < warmUp + runs; i++) {
    if (i === warmUp) loop.enable();
    const started = performance.now();
    await work(i);
    if (i >= warmUp) times.push(performance.now() - started);
  }
  loop.disable();
  const sorted = [...times].sort((a, b) => a - b);
  return {
    p50: Math.round(percentile(sorted, 0.5)),
    p95: Math.round(percentile(sorted, 0.95)),
    max: Math.round(sorted.at(-1)!),
    loopP99: Math.round(loop.percentile(99) / 1e6),
    loopMax: Math.round(loop.max / 1e6),
  };
}
