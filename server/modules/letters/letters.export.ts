import { formatDate, formatDateTime } from '#shared/format.ts';
import type { LetterView } from './letters.service.ts';

/** NOTE: an export is a file on someone's desk; a cap keeps one click from copying the whole register. */
export const EXPORT_MAX_LETTERS = 10000;

const COLUMNS: [string, (v: LetterView) => string][] = [
  ['Letter ID', (v) => v.letter.letterId],
  ['Subject', (v) => v.letter.letterSub],
  ['Docket No', (v) => v.letter.docketNo],
  ['Letter No', (v) => v.letter.letterNo],
  ['Letter Date', (v) => formatDate(v.letter.letterDate)],
  ['Docket Date', (v) => formatDate(v.letter.docketDate)],
  ['Category', (v) => v.letter.category],
  ['Establishment', (v) => v.letter.establishment],
  ['Language', (v) => v.letter.letterLanguage],
  ['Communicated By', (v) => v.letter.letterCommunBy],
  ['Classification', (v) => v.letter.classification],
  ['Uploaded By', (v) => v.uploader?.name ?? 'Unknown'],
  ['Uploaded On', (v) => formatDateTime(v.letter.letterUploadDate)],
  ['File', (v) => v.originalName ?? ''],
];

/**
 * One CSV cell (RFC 4180). A cell that a spreadsheet would run as a formula (= + - @, tab, CR) is prefixed with an
 * apostrophe (OWASP "CSV injection").
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const csvLine = (cells: string[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** The CSV text of the letters, page by page, with a byte-order mark so spreadsheets read Hindi text as UTF-8. */
export async function* lettersCsv(pages: AsyncIterable<LetterView[]>): AsyncGenerator<string> {
  yield `\uFEFF${csvLine(COLUMNS.map(([title]) => title))}`;
  for await (const views of pages) {
    if (views.length) yield views.map((v) => csvLine(COLUMNS.map(([, cell]) => cell(v)))).join('');
  }
}
