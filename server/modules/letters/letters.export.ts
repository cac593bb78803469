import { formatDate, formatDateTime } from '#shared/format.ts';

import type { MovementView } from './letters.movements.views.ts';
import type { LetterView } from './letters.register.views.ts';

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

export const csvLine = (cells: string[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** A letter's movements in one cell (decision 020): who had it, from when to when, remarks, and how it ended. */
export function movementsCell(movements: MovementView[]): string {
  return movements
    .map(({ movement: m, from, to }) => {
      const parts = [`${from?.name ?? 'Unknown'} → ${to.name}, ${formatDateTime(m.markedAt)}`];
      if (m.priority !== 'Normal') parts.push(m.priority);
      if (m.dueDate) parts.push(`due ${formatDate(m.dueDate)}`);
      if (m.remarks) parts.push(`remarks: ${m.remarks}`);
      if (m.receivedAt) parts.push(`received ${formatDateTime(m.receivedAt)}`);
      if (m.endedAt && m.outcome) parts.push(`${m.outcome} ${formatDateTime(m.endedAt)}`);
      if (m.disposal) parts.push(`disposal: ${m.disposal}`);
      if (m.fileNo) parts.push(`file ${m.fileNo}`);
      if (m.replyRef) parts.push(`reply ${m.replyRef}`);
      return parts.join('; ');
    })
    .join(' | ');
}

/**
 * The CSV text of the letters, page by page, with a byte-order mark so spreadsheets read Hindi text as UTF-8. The
 * last column lists each letter's movements (`movementsOf` loads them a page at a time).
 */
export async function* lettersCsv(
  pages: AsyncIterable<LetterView[]>,
  movementsOf: (letterIds: string[]) => Promise<Map<string, MovementView[]>>,
): AsyncGenerator<string> {
  yield `\uFEFF${csvLine([...COLUMNS.map(([title]) => title), 'Movements'])}`;
  for await (const views of pages) {
    if (!views.length) continue;
    const moves = await movementsOf(views.map((v) => v.letter.id));
    yield views
      .map((v) => csvLine([...COLUMNS.map(([, cell]) => cell(v)), movementsCell(moves.get(v.letter.id) ?? [])]))
      .join('');
  }
}
