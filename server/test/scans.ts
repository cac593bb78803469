import { readFileSync } from 'node:fs';
import path from 'node:path';

import { PDFDocument } from '@cantoo/pdf-lib';

import { projectRoot } from '#server/lib/project-root.ts';

/**
 * The OCR fixtures (server/test/fixtures/ocr, made by scripts/ocr-fixtures.ts, decision 113): 20 scanned pages at
 * 300 dpi, 10 English (en-01.png …) and 10 Hindi (hi-01.png …), and the exact text of each. `scanPdf` puts pages into
 * a PDF as a scanner does (an image a page, no text), A4 at 300 dpi.
 */
export const SCANS_DIR = path.join(projectRoot, 'server/test/fixtures/ocr');

export interface ScanTruth {
  lang: 'eng' | 'hin';
  skew: number;
  text: string;
}

export const scanTruth = (): Record<string, ScanTruth> =>
  JSON.parse(readFileSync(path.join(SCANS_DIR, 'ground-truth.json'), 'utf8')) as Record<string, ScanTruth>;

export const scanPage = (name: string): Buffer => readFileSync(path.join(SCANS_DIR, name));

/** A PDF of these fixture pages, one image a page; `password` encrypts it (an encrypted scan). */
export async function scanPdf(pages: string[], { password }: { password?: string } = {}): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  for (const name of pages) {
    const image = await pdf.embedPng(scanPage(name));
    // 300 dpi: 72 points an inch.
    const width = (image.width * 72) / 300;
    const height = (image.height * 72) / 300;
    pdf.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
  }
  if (password) pdf.encrypt({ userPassword: password, ownerPassword: password });
  return Buffer.from(await pdf.save());
}

/** Levenshtein distance over characters (code points), for the character error rate. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1)));
    }
    previous = current;
  }
  return previous[y.length]!;
}

/** The character error rate of recognised text against the truth, both with their white space made single spaces. */
export function characterErrorRate(recognised: string, truth: string): number {
  const norm = (s: string) => s.normalize('NFC').replace(/\s+/g, ' ').trim();
  const t = norm(truth);
  return editDistance(norm(recognised), t) / [...t].length;
}
