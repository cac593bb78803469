import { open, stat, writeFile } from 'node:fs/promises';
import { setPriority } from 'node:os';
import path from 'node:path';

/** Loads officeparser (and pdf.js with it) before the file arrives (decision 108). */
export const loadTextParsers = () => import('officeparser');

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
