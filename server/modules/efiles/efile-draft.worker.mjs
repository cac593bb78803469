// Draws a rich-text draft for approval (decision 122) as a PDF, in a worker thread of its own as the export is
// (decision 111), with the export's layout and fonts (Noto Sans Devanagari, server/lib/pdf-fonts.mjs): the file's
// number and subject, the draft's title, then its paragraphs, lists and tables as a letter shows them (paragraphs not
// numbered), and each page numbered. Plain JavaScript so that it runs the same under tsx, Vitest and the compiled server.
import { parentPort, workerData } from 'node:worker_threads';

import { PDFDocument, rgb } from '@cantoo/pdf-lib';

import { fontFiles, sharedFontkit } from '../../lib/pdf-fonts.mjs';
import { A4, Flow, MARGIN } from './efile-export.layout.mjs';

const GREY = rgb(0.35, 0.35, 0.35);

async function embedFaces(doc) {
  doc.registerFontkit(sharedFontkit);
  const faces = {};
  for (const [name, weight] of [
    ['regular', 400],
    ['bold', 700],
  ]) {
    const files = fontFiles(weight);
    faces[name] = {
      fonts: await Promise.all(files.map((bytes) => doc.embedFont(bytes, { subset: true }))),
      kits: files.map((bytes) => sharedFontkit.create(bytes)),
    };
  }
  return faces;
}

async function drawDraft({ file, title, ref, version, body }) {
  const doc = await PDFDocument.create();
  doc.setTitle(`${title} — ${file.number}`);
  const faces = await embedFaces(doc);
  const flow = new Flow(doc, faces);
  flow.text([{ text: `${file.number} · ${ref} v${version}` }], { size: 9, color: GREY });
  flow.text([{ text: file.subject }], { size: 9, color: GREY });
  flow.gap(12);
  flow.text([{ text: title }], { size: 14, bold: true });
  flow.gap(10);
  for (const block of body.blocks) {
    if (block.t === 'p') flow.text(block.c);
    else if (block.t === 'table') flow.table(block.rows);
    else {
      block.items.forEach((item, i) =>
        flow.text(item, { left: MARGIN + 24, marker: block.t === 'ol' ? `${i + 1}.` : '•' }),
      );
    }
    flow.gap(6);
  }
  // Room on the last page, bottom right, for the signatures' visible blocks (two, decision 118), under the text.
  flow.need(72);
  const pages = doc.getPages();
  pages.forEach((page, i) => {
    const words = flow.words([{ text: `Page ${i + 1} of ${pages.length}` }], 8);
    flow.drawLine(page, Flow.lines(words, A4[0])[0] ?? [], MARGIN, 28, 8, GREY);
  });
  return doc.save();
}

try {
  const pdf = await drawDraft(workerData);
  parentPort.postMessage({ pdf }, [pdf.buffer]);
} catch (err) {
  parentPort.postMessage({ error: String(err?.stack ?? err) });
}
