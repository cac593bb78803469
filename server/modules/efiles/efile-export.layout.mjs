// The noting side of an e-file's export (decision 111): each note N/n drawn from its structure (decision 107) —
// numbered paragraphs, bold, lists, tables and references —, then its author's name, designation and date. Plain
// JavaScript, run by the export's worker thread (efile-export.worker.mjs).
import { rgb } from '@cantoo/pdf-lib';

import { runsOf } from '../../lib/pdf-fonts.mjs';

export const A4 = [595.28, 841.89];
export const MARGIN = 56;
const SIZE = 11;
const LEADING = 15;
const INK = rgb(0, 0, 0);
const GREY = rgb(0.35, 0.35, 0.35);
const LINK = rgb(0.05, 0.25, 0.6);
const RULE = rgb(0.6, 0.6, 0.6);

/**
 * A writer of flowing text on A4 pages: `fonts` are { regular, bold }, each { fonts, kits } (the embedded faces and
 * fontkit's, in runsOf's order). References drawn are remembered with where they are, for their links.
 */
export class Flow {
  constructor(doc, fonts) {
    this.doc = doc;
    this.fonts = fonts;
    this.pages = [];
    this.refs = [];
    this.newPage();
  }

  newPage() {
    this.page = this.doc.addPage(A4);
    this.pages.push(this.page);
    this.y = A4[1] - MARGIN;
  }

  /** Room for `height` more points on this page, else a new page. */
  need(height) {
    if (this.y - height < MARGIN) this.newPage();
  }

  /** The words of a line of inlines, each with its runs (font, text, width) at `size`. */
  words(inlines, size, bold = false) {
    const words = [];
    for (const inline of inlines) {
      const ref = 'ref' in inline ? inline.ref : null;
      const face = this.fonts[bold || inline.b ? 'bold' : 'regular'];
      for (const token of (ref ?? inline.text).split(/(\s+)/u)) {
        if (!token) continue;
        const space = /^\s+$/u.test(token);
        const runs = runsOf(space ? ' ' : token, face.fonts, face.kits).map((r) => ({
          ...r,
          width: r.font.widthOfTextAtSize(r.text, size),
        }));
        words.push({ space, ref, runs, width: runs.reduce((sum, r) => sum + r.width, 0) });
      }
    }
    return words;
  }

  /** The words broken into lines no wider than `width` (a word wider than a line gets a line of its own). */
  static lines(words, width) {
    const lines = [[]];
    let used = 0;
    for (const word of words) {
      const line = lines[lines.length - 1];
      if (word.space) {
        if (line.length) {
          line.push(word);
          used += word.width;
        }
        continue;
      }
      if (used + word.width > width && line.length) {
        while (line.length && line[line.length - 1].space) line.pop();
        lines.push([word]);
        used = word.width;
      } else {
        line.push(word);
        used += word.width;
      }
    }
    return lines.filter((l) => l.length);
  }

  /** Draws one line of words at (x, baseline y) on `page`. */
  drawLine(page, line, x, y, size, color = INK) {
    for (const word of line) {
      // A space is a gap, not a glyph: text readers (pdftotext, a search) find the words' break by the gap, and a
      // space glyph drawn in another face than the next word's was read as no break at all.
      if (word.space) {
        x += word.width;
        continue;
      }
      const start = x;
      for (const run of word.runs) {
        page.drawText(run.text, { x, y, size, font: run.font, color: word.ref ? LINK : color });
        x += run.width;
      }
      if (word.ref) this.refs.push({ page, ref: word.ref, rect: [start, y - 2, x, y + size] });
    }
  }

  /** A block of inlines wrapped into [left, right], starting on the current line; `marker` hangs before it. */
  text(inlines, { left = MARGIN, right = A4[0] - MARGIN, size = SIZE, bold = false, marker, color, align } = {}) {
    const lines = Flow.lines(this.words(inlines, size, bold), right - left);
    lines.forEach((line, i) => {
      this.need(LEADING);
      const width = line.reduce((sum, w) => sum + w.width, 0);
      const x = align === 'right' ? right - width : left;
      if (i === 0 && marker)
        this.drawLine(this.page, this.words([{ text: marker }], size), left - 24, this.y - size, size);
      this.drawLine(this.page, line, x, this.y - size, size, color);
      this.y -= LEADING;
    });
  }

  gap(points = 6) {
    this.y -= points;
  }

  /** A table: equal columns, each cell's text wrapped, a row moved whole to the next page when it does not fit. */
  table(rows) {
    const columns = Math.max(...rows.map((r) => r.length));
    const width = (A4[0] - 2 * MARGIN) / columns;
    const size = SIZE - 1;
    for (const row of rows) {
      const cells = row.map((cell) => Flow.lines(this.words(cell, size), width - 8));
      const height = Math.max(1, ...cells.map((c) => c.length)) * (LEADING - 1) + 6;
      this.need(height);
      const top = this.y;
      cells.forEach((cell, c) => {
        const x = MARGIN + c * width;
        this.page.drawRectangle({ x, y: top - height, width, height, borderColor: RULE, borderWidth: 0.6 });
        cell.forEach((line, l) => this.drawLine(this.page, line, x + 4, top - 3 - size - l * (LEADING - 1), size));
      });
      this.y = top - height;
    }
  }
}

/**
 * Draws a note's blocks: paragraphs numbered 1, 2, … (decision 107), lists indented, tables in a grid. Returns the page
 * it starts on (a reference's link goes there).
 */
export function drawNote(flow, note) {
  flow.need(LEADING * 3);
  const start = flow.page;
  flow.text([{ text: note.ref }, ...(note.permanent ? [] : [{ text: '   (draft, yellow note)' }])], { bold: true });
  flow.gap(4);
  let paragraph = 0;
  for (const block of note.body.blocks) {
    if (block.t === 'p') {
      paragraph += 1;
      flow.text(block.c, { left: MARGIN + 24, marker: `${paragraph}.` });
    } else if (block.t === 'table') {
      flow.table(block.rows);
    } else {
      block.items.forEach((item, i) =>
        flow.text(item, { left: MARGIN + 48, marker: block.t === 'ol' ? `${i + 1}.` : '•' }),
      );
    }
    flow.gap(5);
  }
  flow.gap(4);
  const right = { align: 'right', left: MARGIN + 200 };
  flow.text([{ text: note.author }], { ...right, bold: true });
  if (note.designation) flow.text([{ text: note.designation }], right);
  flow.text([{ text: note.date }], { ...right, color: GREY });
  flow.gap(14);
  return start;
}

/** The export's first lines: the file's number, subject, classification and head, then the noting's title. */
export function drawTitle(flow, file) {
  flow.text([{ text: file.number }], { size: 14, bold: true });
  flow.text([{ text: file.subject }], { size: 12 });
  flow.text([{ text: `${file.classification} · ${file.head}` }], { color: GREY });
  flow.gap(10);
  flow.text([{ text: 'Noting' }], { size: 13, bold: true });
  flow.gap(6);
}
