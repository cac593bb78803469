import { open, stat, writeFile } from 'node:fs/promises';
import { setPriority } from 'node:os';
import path from 'node:path';

/** A one-page PDF saying "made up", built here: the text parsers' warm-up reads it (loadTextParsers). */
function madeUpPdf(): Buffer {
  const content = 'BT /F1 12 Tf 20 100 Td (made up) Tj ET';
  const objects = [
    '<</Type/Catalog/Pages 2 0 R>>',
    '<</Type/Pages/Kids[3 0 R]/Count 1>>',
    '<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>',
    `<</Length ${content.length}>>\nstream\n${content}\nendstream`,
    '<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets = objects.map((body, i) => {
    const at = pdf.length;
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
    return at;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) pdf += `${String(at).padStart(10, '0')} 00000 n \n`;
  pdf += `trailer\n<</Size ${objects.length + 1}/Root 1 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/**
 * Loads officeparser (and pdf.js with it) before the file arrives (decision 108), and reads one made-up PDF with it,
 * so that pdf.js' loading and V8's first compilation of it are not the file's time. Nothing of any upload is involved.
 */
export async function loadTextParsers() {
  const officeparser = await import('officeparser');
  await officeparser
    .parseOffice(madeUpPdf(), { outputErrorToConsole: false, extractAttachments: false, ocr: false })
    .catch(() => undefined); // a warm-up only: the file's own reading reports its errors
  return officeparser;
}

/** PostgreSQL text cannot hold NUL; runs of blanks say nothing to a search. */
const tidy = (text: string, maxChars: number) =>
  text
    .replaceAll('\u0000', ' ')
    .replace(/[ \t\f\v\r]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n')
    .trim()
    .slice(0, maxChars);

/** The first bytes of a file, never more than `limit`. */
async function head(file: string, limit: number) {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(limit);
    const { bytesRead } = await handle.read(buffer, 0, limit, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The text of one uploaded file for search (search/extractor.ts), into `text.txt`: PDF, DOCX, PPTX and XLSX through
 * officeparser (pdf.js for PDFs), TXT as it is. Answers `{ error }` for a file it cannot read.
 */
export async function extractText(
  input: string,
  output: string,
  o: { ext: string; maxBytes: number; maxChars: number },
) {
  // Background work: the server's answers and the database take the cores first.
  try {
    setPriority(19);
  } catch {
    // a container that forbids it
  }
  try {
    let text: string;
    if (o.ext === 'txt') {
      // A text file is cut, not refused: its first characters are searchable however long it is.
      text = tidy(new TextDecoder('utf-8').decode(await head(input, o.maxChars * 4)), o.maxChars);
    } else {
      const { size } = await stat(input);
      if (size > o.maxBytes) return { error: `The file is larger than ${Math.round(o.maxBytes / 1024 / 1024)} MB.` };
      const { parseOffice } = await loadTextParsers();
      const ast = await parseOffice(await head(input, size), {
        outputErrorToConsole: false,
        extractAttachments: false,
        ocr: false,
        includeRawContent: false,
      });
      text = tidy(ast.toText(), o.maxChars);
    }
    await writeFile(path.join(output, 'text.txt'), text);
    return { chars: text.length };
  } catch (err) {
    return { error: String((err as Error)?.message ?? err).slice(0, 500) };
  }
}
