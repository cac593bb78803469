import { z } from 'zod';

import { withoutBidiControls } from '../format.ts';
import { msg } from '../messages/index.ts';

/**
 * A note's rich text (decision 107): only what notes need — paragraphs, bold, bulleted and numbered lists, tables, and
 * references to a page of the file (`C/3`, `N/2`). It is stored as this structure, never as HTML: the server
 * validates it here and the screens and the export draw it, so no markup a browser sent is ever kept or shown.
 * Paragraphs are numbered on screen and in the export.
 */
export const NOTE_MAX_BLOCKS = 300;
export const NOTE_MAX_CHARS = 50_000;
/** `C/3` (correspondence item 3) or `N/2` (note 2). */
export const PAGE_REF = /^[CN]\/[1-9]\d{0,5}$/;

// A run's text keeps its spaces (plainText would trim them): "See " + C/3 + " and " + N/2 are words apart. Bidi
// controls are removed as from every text; a note of nothing but spaces is refused as a whole (noteBody).
const inline = z.union([
  z.strictObject({
    text: z
      .string()
      .overwrite(withoutBidiControls)
      .max(NOTE_MAX_CHARS, msg('efiles.note_too_long', { max: NOTE_MAX_CHARS })),
    b: z.boolean().optional(),
  }),
  z.strictObject({ ref: z.string().regex(PAGE_REF, msg('efiles.note_bad_reference')) }),
]);
const line = z.array(inline).max(200, msg('efiles.note_too_complex'));

const block = z.discriminatedUnion(
  't',
  [
    z.strictObject({ t: z.literal('p'), c: line }),
    z.strictObject({ t: z.enum(['ul', 'ol']), items: z.array(line).min(1).max(200, msg('efiles.note_too_complex')) }),
    z.strictObject({
      t: z.literal('table'),
      rows: z
        .array(z.array(line).min(1).max(20, msg('efiles.note_too_complex')))
        .min(1)
        .max(200, msg('efiles.note_too_complex')),
    }),
  ],
  { error: msg('efiles.note_bad_block') },
);

export type NoteInline = z.infer<typeof inline>;
export type NoteBlock = z.infer<typeof block>;
export interface NoteBody {
  blocks: NoteBlock[];
}

/** Every piece of text of a note, in order (the plain text the search reads). */
export function noteLines(body: NoteBody): NoteInline[][] {
  return body.blocks.flatMap((b) => (b.t === 'p' ? [b.c] : b.t === 'table' ? b.rows.flat() : b.items));
}
export const noteText = (body: NoteBody): string =>
  noteLines(body)
    .map((l) => l.map((i) => ('ref' in i ? i.ref : i.text)).join(''))
    .join('\n');
export const noteRefs = (body: NoteBody): string[] => [
  ...new Set(noteLines(body).flatMap((l) => l.flatMap((i) => ('ref' in i ? [i.ref] : [])))),
];

export const noteBody = z
  .strictObject({
    blocks: z.array(block, { error: msg('efiles.note_empty') }).max(NOTE_MAX_BLOCKS, msg('efiles.note_too_complex')),
  })
  .superRefine((body, ctx) => {
    const text = noteText(body as NoteBody);
    if (!text.trim()) ctx.addIssue({ code: 'custom', message: msg('efiles.note_empty'), path: ['blocks'] });
    else if (text.length > NOTE_MAX_CHARS)
      ctx.addIssue({ code: 'custom', message: msg('efiles.note_too_long', { max: NOTE_MAX_CHARS }), path: ['blocks'] });
  });

/** Plain text typed into a simple editor, as a note: one paragraph per blank-line-separated block, `C/3` as links. */
export function noteFromText(text: string): NoteBody {
  return {
    blocks: text
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => ({
        t: 'p' as const,
        c: p
          .split(/\b([CN]\/[1-9]\d{0,5})\b/)
          .filter(Boolean)
          .map((part) => (PAGE_REF.test(part) ? { ref: part } : { text: part })),
      })),
  };
}
