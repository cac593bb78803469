import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { inflateSync } from 'node:zlib';

import sharp from 'sharp';

import type { DbOrTx } from '#server/db/client.ts';
import type { FileRow } from '#server/db/schema/index.ts';
import { type FileStore, saveFileRow, type StoredFile } from '#server/modules/files/storage.ts';
import type { Area } from '#server/modules/files/storage-areas.ts';

// Real, small files for the demo: PDFs written by hand, JPEGs drawn from SVG with sharp (ZIPs: server/lib/zip.ts).

/** Only printable ASCII goes into the PDF's standard fonts; anything else becomes a plain stand-in. */
const pdfText = (s: string) =>
  s
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[–—]/g, '-')
    .replace(/[^\x20-\x7e]/g, '?')
    .replace(/[\\()]/g, '\\$&');

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > width) {
        out.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    out.push(line);
  }
  return out;
}

export interface PdfDocument {
  /** Letterhead line at the top, e.g. the lab's name. */
  heading: string;
  title: string;
  /** Reference and date line under the title. */
  reference?: string;
  body: string;
  signature?: string;
}

/** A one-page A4 PDF (PDF 1.4, Helvetica) with a letterhead, a title, wrapped body text and a signature block. */
export function makePdf(doc: PdfDocument): Buffer {
  const ops: string[] = ['0.75 0 0 RG 1.5 w 56 790 m 539 790 l S'];
  const text = (font: 'F1' | 'F2', size: number, x: number, y: number, s: string) =>
    ops.push(`BT /${font} ${size} Tf ${x} ${y} Td (${pdfText(s)}) Tj ET`);
  text('F2', 13, 56, 800, doc.heading);
  let y = 752;
  for (const line of wrap(doc.title, 60)) {
    text('F2', 15, 56, y, line);
    y -= 20;
  }
  if (doc.reference) {
    text('F1', 10, 56, y, doc.reference);
    y -= 26;
  }
  for (const line of wrap(doc.body, 88)) {
    if (y < 120) break;
    text('F1', 11, 56, y, line);
    y -= 16;
  }
  if (doc.signature) {
    y = Math.min(y - 30, 150);
    for (const line of doc.signature.split('\n')) {
      text('F1', 11, 360, y, line);
      y -= 15;
    }
  }
  const content = ops.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export interface Scene {
  title: string;
  /** Sky gradient, top and bottom. */
  sky: [string, string];
  ground: string;
  /** Extra SVG drawn over the background (buildings, flames, trees). */
  shapes: string;
  /** A line of Hindi (or any) text drawn with the shipped Noto Sans Devanagari, centred on (x, y). */
  banner?: { text: string; x: number; y: number; size: number; colour: string };
}

/**
 * A TrueType copy of a WOFF 1.0 font: the same tables, inflated, behind an sfnt header (W3C WOFF 1.0 §4-5). Pango,
 * which sharp draws text with, reads TrueType but not the WOFF files @fontsource ships.
 */
export function woffToTrueType(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('Not a WOFF 1.0 font');
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, i) => {
    const entry = 44 + i * 20;
    const offset = woff.readUInt32BE(entry + 4);
    const compLength = woff.readUInt32BE(entry + 8);
    const origLength = woff.readUInt32BE(entry + 12);
    const raw = woff.subarray(offset, offset + compLength);
    return {
      tag: woff.readUInt32BE(entry),
      checksum: woff.readUInt32BE(entry + 16),
      data: compLength < origLength ? inflateSync(raw) : raw,
    };
  });
  const entrySelector = Math.floor(Math.log2(numTables));
  const searchRange = 2 ** entrySelector * 16;
  const headerLength = 12 + numTables * 16;
  const padded = (n: number) => (n + 3) & ~3;
  const out = Buffer.alloc(headerLength + tables.reduce((sum, t) => sum + padded(t.data.length), 0));
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(searchRange, 6);
  out.writeUInt16BE(entrySelector, 8);
  out.writeUInt16BE(numTables * 16 - searchRange, 10);
  let offset = headerLength;
  tables.forEach((table, i) => {
    const entry = 12 + i * 16;
    out.writeUInt32BE(table.tag, entry);
    out.writeUInt32BE(table.checksum, entry + 4);
    out.writeUInt32BE(offset, entry + 8);
    out.writeUInt32BE(table.data.length, entry + 12);
    table.data.copy(out, offset);
    offset += padded(table.data.length);
  });
  return out;
}

/**
 * The portal's own Devanagari font (the web font the screens use) as a TrueType file in the temp folder. sharp draws
 * SVG <text> with the machine's installed fonts, and most Linux machines have no Devanagari font: Hindi would come out
 * as boxes. Text drawn through this file reads the same everywhere.
 */
function devanagariFontFile(): string {
  const file = path.join(os.tmpdir(), 'lab-portal-noto-sans-devanagari-700.ttf');
  if (!existsSync(file)) {
    const woff = createRequire(import.meta.url).resolve(
      '@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-700-normal.woff',
    );
    writeFileSync(file, woffToTrueType(readFileSync(woff)));
  }
  return file;
}

/** A line of text (Hindi included) as a transparent PNG, drawn by Pango with the shipped Noto Sans Devanagari. */
export async function renderTextLine(text: string, size: number, colour: string): Promise<Buffer> {
  return sharp({
    text: {
      text: `<span foreground="${colour}">${escapeXml(text)}</span>`,
      font: `Noto Sans Devanagari Bold ${size}`,
      fontfile: devanagariFontFile(),
      rgba: true,
      dpi: 72,
    },
  })
    .png()
    .toBuffer();
}

/**
 * A 1200×800 JPEG gallery photo drawn from an SVG scene, and a 600 px wide copy for the carousel. The title is not
 * drawn on it: the gallery prints each photo's name below it, and a second copy in the picture read twice.
 */
export async function makePhoto(scene: Scene): Promise<{ full: Buffer; web: Buffer }> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800" viewBox="0 0 1200 800">
  <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="${scene.sky[0]}"/><stop offset="1" stop-color="${scene.sky[1]}"/></linearGradient></defs>
  <rect width="1200" height="800" fill="url(#sky)"/>
  <rect y="560" width="1200" height="240" fill="${scene.ground}"/>
  ${scene.shapes}
</svg>`;
  const banner = scene.banner
    ? await renderTextLine(scene.banner.text, scene.banner.size, scene.banner.colour)
    : undefined;
  let picture = sharp(Buffer.from(svg));
  if (banner && scene.banner) {
    const { width = 0, height = 0 } = await sharp(banner).metadata();
    const left = Math.max(0, Math.round(scene.banner.x - width / 2));
    const top = Math.max(0, Math.round(scene.banner.y - height / 2));
    picture = sharp(await picture.png().toBuffer()).composite([{ input: banner, left, top }]);
  }
  const full = await picture.jpeg({ quality: 78, mozjpeg: true }).toBuffer();
  const web = await sharp(full).resize({ width: 600 }).jpeg({ quality: 72, mozjpeg: true }).toBuffer();
  return { full, web };
}

/** A square JPEG portrait: initials on a coloured disc (profile photos and director images). */
export async function makePortrait(name: string, colour: string): Promise<Buffer> {
  const initials = name
    .replace(/^(Dr|Shri|Smt|Ms|Mr)\.?\s+/i, '')
    .split(/\s+/)
    .filter((w) => /^[A-Z]/.test(w))
    .map((w) => w[0])
    .slice(0, 2)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="320">
  <rect width="320" height="320" fill="#eef2f7"/>
  <circle cx="160" cy="160" r="150" fill="${colour}"/>
  <text x="160" y="196" text-anchor="middle" font-family="DejaVu Sans, sans-serif" font-size="110" font-weight="bold" fill="#fff">${escapeXml(initials)}</text>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
}

const MIME: Record<string, string> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  png: 'image/png',
  zip: 'application/zip',
  txt: 'text/plain; charset=utf-8',
};

/**
 * Writes the demo's files through the storage driver (<area>/<uuid> plus a files row) and
 * remembers them, so a failed run can take them away again (`discardAll`).
 */
export class DemoFileStore {
  private written: StoredFile[] = [];

  constructor(private readonly store: FileStore) {}

  /** Stores `bytes` as a file named `originalName` in `area`; returns the files row. */
  async save(db: DbOrTx, area: Area, originalName: string, bytes: Buffer, uploadedBy: string | null): Promise<FileRow> {
    const id = randomUUID();
    const absolutePath = this.store.receivingPath(area, id);
    await mkdir(path.dirname(absolutePath), { recursive: true });
    await writeFile(absolutePath, bytes, { mode: 0o640 });
    const ext = path.extname(originalName).slice(1).toLowerCase();
    const file = {
      id,
      area,
      originalName,
      mimeType: MIME[ext] ?? 'application/octet-stream',
      size: bytes.length,
      absolutePath,
    };
    this.written.push(file);
    await this.store.storeReceived(file);
    if (!this.store.driver.localPath) await rm(absolutePath, { force: true }); // the staging copy
    return saveFileRow(db, file, uploadedBy);
  }

  get count() {
    return this.written.length;
  }

  async discardAll(): Promise<void> {
    await Promise.all(this.written.map((file) => this.store.discard(file)));
    this.written = [];
  }
}

/** A scanned letter: a greyish A4 page with a letterhead, a subject line and ruled text, as a JPEG. */
export async function makeScan(from: string, subject: string): Promise<Buffer> {
  const lines = Array.from({ length: 14 }, (_, i) => {
    const width = 560 - ((i * 37) % 160);
    return `<rect x="90" y="${330 + i * 34}" width="${width}" height="9" fill="#555" fill-opacity="0.55"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="827" height="1169">
  <rect width="827" height="1169" fill="#f1efe8"/>
  <text x="413" y="110" text-anchor="middle" font-family="DejaVu Serif, serif" font-size="30" font-weight="bold" fill="#222">${escapeXml(from)}</text>
  <rect x="90" y="135" width="647" height="3" fill="#333"/>
  <text x="90" y="260" font-family="DejaVu Serif, serif" font-size="22" fill="#222">Subject: ${escapeXml(subject)}</text>
  ${lines}
  <text x="520" y="1000" font-family="DejaVu Serif, serif" font-size="20" fill="#222">(Authorised signatory)</text>
</svg>`;
  return sharp(Buffer.from(svg)).grayscale().jpeg({ quality: 70 }).toBuffer();
}
