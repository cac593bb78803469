import type { NoteBlock, NoteBody, NoteInline } from '#shared/schemas/efile-note.ts';

/**
 * The note editor's model (decision 112): a note is edited as blocks of plain text, never as markup. In a block's
 * text `**…**` is bold and `C/3` or `N/2` a reference; a list holds one item a line, a table one row a line with its
 * cells split by `|`. The shared structure (shared/schemas/efile-note.ts) is what is sent and kept.
 */
export const BLOCK_KINDS = ['p', 'ul', 'ol', 'table'] as const;
export type BlockKind = (typeof BLOCK_KINDS)[number];
export interface EditorBlock {
  id: string;
  kind: BlockKind;
  text: string;
}

let nextId = 0;
export const newBlock = (kind: BlockKind = 'p', text = ''): EditorBlock => ({ id: `b${++nextId}`, kind, text });

const REF_SPLIT = /\b([CN]\/[1-9]\d{0,5})\b/;
const IS_REF = /^[CN]\/[1-9]\d{0,5}$/;

/** One line of text as runs: `**bold**` and references found. */
export function parseLine(text: string): NoteInline[] {
  const out: NoteInline[] = [];
  text.split(/(\*\*[^*]+\*\*)/).forEach((chunk) => {
    if (!chunk) return;
    const bold = /^\*\*([^*]+)\*\*$/.exec(chunk);
    const plain = bold ? bold[1]! : chunk;
    for (const part of plain.split(REF_SPLIT)) {
      if (!part) continue;
      if (IS_REF.test(part)) out.push({ ref: part });
      else out.push(bold ? { text: part, b: true } : { text: part });
    }
  });
  return out;
}

/** Runs back to the editor's text. */
export const lineText = (line: NoteInline[]): string =>
  line.map((i) => ('ref' in i ? i.ref : i.b ? `**${i.text}**` : i.text)).join('');

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** The blocks typed, as the note's structure; empty blocks are left out. */
export function toBody(blocks: EditorBlock[]): NoteBody {
  const out: NoteBlock[] = [];
  for (const b of blocks) {
    if (!b.text.trim()) continue;
    if (b.kind === 'p') out.push({ t: 'p', c: parseLine(b.text.trim()) });
    else if (b.kind === 'table')
      out.push({ t: 'table', rows: lines(b.text).map((row) => row.split('|').map((cell) => parseLine(cell.trim()))) });
    else out.push({ t: b.kind, items: lines(b.text).map(parseLine) });
  }
  return { blocks: out };
}

/** A kept note as editor blocks (to edit a draft). */
export function fromBody(body: NoteBody): EditorBlock[] {
  return body.blocks.map((b) => {
    if (b.t === 'p') return newBlock('p', lineText(b.c));
    if (b.t === 'table') return newBlock('table', b.rows.map((r) => r.map(lineText).join(' | ')).join('\n'));
    return newBlock(b.t, b.items.map(lineText).join('\n'));
  });
}

/** The element id of a page of the file (N/2 → efile-page-N-2), where a reference scrolls to. */
export const pageAnchor = (ref: string) => `efile-page-${ref.replace('/', '-')}`;
