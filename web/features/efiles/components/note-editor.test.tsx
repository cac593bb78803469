import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { NoteBody } from '#shared/schemas/efile-note.ts';

import { fillIn, render } from '#web/test/render.tsx';

import { NoteEditor } from './note-editor.tsx';

/** Picks `name` from the list the select labelled `label` opens (drawn in place, hidden from the tree until open). */
async function pick(user: ReturnType<typeof render>['user'], label: string, name: string) {
  const input = screen.getByRole('combobox', { name: label });
  await user.click(input);
  const list = within(document.getElementById(input.getAttribute('aria-controls') ?? '')!);
  await user.click(await list.findByRole('option', { name, hidden: true }));
}

const setup = (initial?: NoteBody) => {
  const onSave = vi.fn();
  const view = render(
    <NoteEditor initial={initial} pages={['N/1', 'C/1', 'C/2']} onSave={onSave} onCancel={() => undefined} />,
  );
  return { onSave, ...view };
};

describe('NoteEditor', () => {
  it('sends paragraphs with bold and references, lists and tables as the note structure', async () => {
    const { user, onSave } = setup();
    fillIn('Text of part 1', 'See C/2 and **approve** the plan.');
    await user.click(screen.getByRole('button', { name: 'Add a part' }));
    await pick(user, 'Part 2 is a', 'Numbered list');
    fillIn('Text of part 2', 'पहला\nsecond');
    await user.click(screen.getByRole('button', { name: 'Add a part' }));
    await pick(user, 'Part 3 is a', 'Table');
    fillIn('Text of part 3', 'Item | Cost\nPump | 4000');
    await user.click(screen.getByRole('button', { name: 'Save note' }));
    expect(onSave).toHaveBeenCalledWith({
      blocks: [
        {
          t: 'p',
          c: [
            { text: 'See ' },
            { ref: 'C/2' },
            { text: ' and ' },
            { text: 'approve', b: true },
            { text: ' the plan.' },
          ],
        },
        { t: 'ol', items: [[{ text: 'पहला' }], [{ text: 'second' }]] },
        {
          t: 'table',
          rows: [
            [[{ text: 'Item' }], [{ text: 'Cost' }]],
            [[{ text: 'Pump' }], [{ text: '4000' }]],
          ],
        },
      ],
    });
  });

  it('makes the selected words bold with the Bold button and inserts a chosen page reference', async () => {
    const { user, onSave } = setup();
    const text = screen.getByLabelText<HTMLTextAreaElement>('Text of part 1');
    fillIn('Text of part 1', 'please approve');
    text.setSelectionRange(7, 14);
    await user.click(screen.getByRole('button', { name: 'Bold in part 1' }));
    expect(text.value).toBe('please **approve**');
    text.setSelectionRange(text.value.length, text.value.length);
    await pick(user, 'Refer to a page (part 1)', 'C/1');
    expect(text.value).toBe('please **approve** C/1');
    expect(screen.getByRole('link', { name: 'C/1' })).toBeInTheDocument(); // the preview
    await user.click(screen.getByRole('button', { name: 'Save note' }));
    expect(onSave).toHaveBeenCalledWith({
      blocks: [{ t: 'p', c: [{ text: 'please ' }, { text: 'approve', b: true }, { text: ' ' }, { ref: 'C/1' }] }],
    });
  });

  it('refuses an empty note with the shared schema’s words and sends nothing', async () => {
    const { user, onSave } = setup();
    await user.click(screen.getByRole('button', { name: 'Save note' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please write the note.');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('opens a draft as its parts, to edit it', async () => {
    const { user, onSave } = setup({
      blocks: [
        { t: 'p', c: [{ text: 'Draft by ' }, { text: 'Ravi', b: true }, { text: ', see ' }, { ref: 'N/1' }] },
        { t: 'ul', items: [[{ text: 'a' }], [{ text: 'b' }]] },
      ],
    });
    expect(screen.getByLabelText('Text of part 1')).toHaveValue('Draft by **Ravi**, see N/1');
    expect(screen.getByLabelText('Text of part 2')).toHaveValue('a\nb');
    await user.click(screen.getByRole('button', { name: 'Remove part 2' }));
    fillIn('Text of part 1', 'Draft by **Ravi**, see N/1 — agreed.');
    await user.click(screen.getByRole('button', { name: 'Save note' }));
    expect(onSave).toHaveBeenCalledWith({
      blocks: [
        {
          t: 'p',
          c: [
            { text: 'Draft by ' },
            { text: 'Ravi', b: true },
            { text: ', see ' },
            { ref: 'N/1' },
            { text: ' — agreed.' },
          ],
        },
      ],
    });
  });
});
