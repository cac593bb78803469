// Prepares a PDF for a PAdES signature (decision 118) in a worker thread (signing-thread.ts, decisions 091 and 096):
// reads the document with pdf-lib, draws the visible signature block on its last page and adds the signature's
// dictionary with an empty /Contents, all as one incremental update, so that every earlier signature still covers
// the bytes it signed. The parent fills the byte range and the CMS (@signpdf/signpdf). Plain JavaScript so that it
// runs the same under tsx, Vitest and the compiled server, as watermark.worker.mjs does.
import { parentPort } from 'node:worker_threads';

import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFInvalidObject,
  PDFName,
  PDFNumber,
  PDFString,
  rgb,
} from '@cantoo/pdf-lib';
import {
  ANNOTATION_FLAGS,
  DEFAULT_BYTE_RANGE_PLACEHOLDER,
  SIG_FLAGS,
  SUBFILTER_ETSI_CADES_DETACHED,
} from '@signpdf/utils';

import { fontFiles, runsOf, sharedFontkit } from '../../lib/pdf-fonts.mjs';

const FONT_FILES = fontFiles(400);

const SIZE = 7.5;
const LEADING = 9.5;
const PADDING = 5;
const WIDTH = 210;
const MARGIN = 28;
const GAP = 6;
const INK = rgb(0, 0.2, 0.45);

/** The PDF cannot be signed (unreadable, encrypted, without a page, or holding a signature placeholder of its own). */
class Unsignable extends Error {}

/** Signature fields already in the document (each earlier signature has one). */
function signatureFields(doc) {
  const form = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  const fields = form?.lookupMaybe(PDFName.of('Fields'), PDFArray);
  if (!fields) return 0;
  let count = 0;
  for (let i = 0; i < fields.size(); i++) {
    const field = fields.lookupMaybe(i, PDFDict);
    if (field?.lookupMaybe(PDFName.of('FT'), PDFName) === PDFName.of('Sig')) count++;
  }
  return count;
}

/** The block's appearance: a white box with a rule round it and the lines, as a form XObject the widget shows. */
async function appearance(doc, lineTexts) {
  doc.registerFontkit(sharedFontkit);
  const fonts = await Promise.all(FONT_FILES.map((bytes) => doc.embedFont(bytes, { subset: true })));
  const kits = FONT_FILES.map((bytes) => sharedFontkit.create(bytes));
  const height = lineTexts.length * LEADING + 2 * PADDING;
  // Drawn on a page of its own made into a form XObject (as watermarks are), then the page goes again.
  const sheet = doc.addPage([WIDTH, height]);
  sheet.drawRectangle({ x: 0.5, y: 0.5, width: WIDTH - 1, height: height - 1, color: rgb(1, 1, 1) });
  sheet.drawRectangle({ x: 0.5, y: 0.5, width: WIDTH - 1, height: height - 1, borderColor: INK, borderWidth: 1 });
  lineTexts.forEach((line, i) => {
    let x = PADDING;
    const y = PADDING + (lineTexts.length - 1 - i) * LEADING + 2;
    for (const run of runsOf(line, fonts, kits)) {
      const room = WIDTH - PADDING - x;
      if (room <= 0) break;
      const size = Math.min(SIZE, (SIZE * room) / Math.max(1, run.font.widthOfTextAtSize(run.text, SIZE)));
      sheet.drawText(run.text, { x, y, size, font: run.font, color: INK });
      x += run.font.widthOfTextAtSize(run.text, size);
    }
  });
  const form = await doc.embedPage(sheet);
  doc.removePage(doc.getPageCount() - 1);
  doc.context.delete(sheet.ref);
  return { form, height };
}

/**
 * The PDF with one more signature field, its visible block on the last page (above the blocks of earlier
 * signatures, from the bottom right corner) and its signature dictionary waiting for the byte range and the CMS:
 * the placeholder of @signpdf/placeholder-pdf-lib, made on @cantoo/pdf-lib so that it is written as an incremental
 * update (decision 118).
 */
async function prepare(original, { lines, name, reason, location, contactInfo, signingTime, signatureLength }) {
  const text = Buffer.from(original.buffer, original.byteOffset, original.byteLength).toString('latin1');
  // @signpdf/signpdf fills the first placeholder it finds: a document carrying one already would have it fill that.
  if (text.includes(`/${DEFAULT_BYTE_RANGE_PLACEHOLDER}`)) throw new Unsignable('it holds a signature placeholder');
  let doc;
  let pages;
  try {
    // No yielding between objects: this thread has nothing else to do (pdf-lib's default pauses every 100).
    doc = await PDFDocument.load(original, { updateMetadata: false, forIncrementalUpdate: true, parseSpeed: Infinity });
    pages = doc.getPages();
  } catch (err) {
    const encrypted = err?.name === 'EncryptedPDFError' || /encrypt/i.test(String(err?.message));
    throw new Unsignable(encrypted ? 'it is encrypted' : 'it cannot be read', { cause: err });
  }
  if (doc.isEncrypted) throw new Unsignable('it is encrypted');
  if (!pages.length) throw new Unsignable('it has no page');

  const earlier = signatureFields(doc);
  const page = pages[pages.length - 1];
  const { form, height } = await appearance(doc, lines);
  const box = page.getCropBox();
  const perColumn = Math.max(1, Math.floor((box.height - 2 * MARGIN) / (height + GAP)));
  const column = Math.floor(earlier / perColumn);
  const x1 = Math.max(box.x, box.x + box.width - MARGIN - column * (WIDTH + GAP));
  const y0 = box.y + MARGIN + (earlier % perColumn) * (height + GAP);
  const rect = [x1 - WIDTH, y0, x1, y0 + height];

  const ctx = doc.context;
  const byteRange = PDFArray.withContext(ctx);
  byteRange.push(PDFNumber.of(0));
  for (let i = 0; i < 3; i++) byteRange.push(PDFName.of(DEFAULT_BYTE_RANGE_PLACEHOLDER));
  const signatureDict = ctx.obj({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: SUBFILTER_ETSI_CADES_DETACHED,
    ByteRange: byteRange,
    Contents: PDFHexString.of('0'.repeat(signatureLength * 2)),
    Reason: PDFString.of(reason),
    M: PDFString.fromDate(new Date(signingTime)),
    ContactInfo: PDFString.of(contactInfo),
    Name: PDFString.of(name),
    Location: PDFString.of(location),
    Prop_Build: { Filter: { Name: 'Adobe.PPKLite' }, App: { Name: 'Lab Portal' } },
  });
  // Written as it is (never in an object stream), so that its /Contents can be filled in place.
  const bytes = new Uint8Array(signatureDict.sizeInBytes());
  signatureDict.copyBytesInto(bytes, 0);
  const signatureRef = ctx.register(PDFInvalidObject.of(bytes));

  const widgetRef = ctx.register(
    ctx.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: 'Sig',
      Rect: rect,
      V: signatureRef,
      T: PDFString.of(`Signature${earlier + 1}`),
      F: ANNOTATION_FLAGS.PRINT,
      P: page.ref,
      AP: { N: form.ref },
    }),
  );
  const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
  if (annots) annots.push(widgetRef);
  else page.node.set(PDFName.of('Annots'), ctx.obj([widgetRef]));

  let acroForm = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  if (!acroForm) {
    acroForm = ctx.obj({ Fields: [] });
    doc.catalog.set(PDFName.of('AcroForm'), ctx.register(acroForm));
  }
  const flags = acroForm.lookupMaybe(PDFName.of('SigFlags'), PDFNumber)?.asNumber() ?? 0;
  acroForm.set(PDFName.of('SigFlags'), PDFNumber.of(flags | SIG_FLAGS.SIGNATURES_EXIST | SIG_FLAGS.APPEND_ONLY));
  const fields = acroForm.lookupMaybe(PDFName.of('Fields'), PDFArray);
  if (fields) fields.push(widgetRef);
  else acroForm.set(PDFName.of('Fields'), ctx.obj([widgetRef]));
  return doc.commit({ useObjectStreams: false });
}

// Ready once pdf-lib and the fonts are loaded and one block has been drawn in Latin and Devanagari: a signing's
// time limit counts from here, not from the thread's start.
const blank = await PDFDocument.create();
blank.addPage([595, 842]);
await prepare(await blank.save(), {
  lines: ['Digitally signed by राम कुमार', 'Scientist F', 'Date: 1 Jan 2026, 9:00 am IST'],
  name: '-',
  reason: '-',
  location: '-',
  contactInfo: '-',
  signingTime: 0,
  signatureLength: 16,
});
parentPort?.postMessage({ ready: true });

// One document at a time: the parent sends the next only after this one's answer (signing-thread.ts).
parentPort?.on('message', async ({ id, original, details }) => {
  try {
    const pdf = await prepare(new Uint8Array(original), details);
    parentPort.postMessage({ id, result: pdf }, [pdf.buffer]);
  } catch (err) {
    if (err instanceof Unsignable) parentPort.postMessage({ id, unsignable: err.message });
    else parentPort.postMessage({ id, error: String(err?.stack ?? err) });
  }
});
