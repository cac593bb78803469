import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { NoteBody } from '#shared/schemas/efile-note.ts';

import { render } from '#web/test/render.tsx';

import { NoteView } from './note-view.tsx';

const body: NoteBody = {
  blocks: [
    {
      t: 'p',
      c: [{ text: 'Please see ' }, { ref: 'C/1' }, { text: ' and ' }, { text: 'approve', b: true }, { text: '.' }],
    },
    { t: 'ol', items: [[{ text: 'first step' }], [{ text: 'second step, as in ' }, { ref: 'N/2' }]] },
    {
      t: 'table',
      rows: [
        [[{ text: 'Item' }], [{ text: 'Cost' }]],
        [[{ text: 'Pump' }], [{ text: '₹ 4,000' }]],
      ],
    },
    { t: 'p', c: [{ text: '<b>not markup</b> हिंदी पाठ' }] },
  ],
};

describe('NoteView', () => {
  it('numbers every paragraph and draws bold, lists and tables', () => {
    const { container } = render(<NoteView body={body} onRef={() => undefined} />);
    const paragraphs = container.querySelector('ol')!.children;
    expect(paragraphs).toHaveLength(4);
    expect(screen.getByText('approve').tagName).toBe('STRONG');
    const steps = within(paragraphs[1] as HTMLElement).getAllByRole('listitem');
    expect(steps.map((li) => li.textContent)).toEqual(['first step', 'second step, as in N/2']);
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['ItemCost', 'Pump₹ 4,000']);
  });

  it('draws text that looks like HTML as text, never as markup', () => {
    const { container } = render(<NoteView body={body} onRef={() => undefined} />);
    expect(screen.getByText('<b>not markup</b> हिंदी पाठ')).toBeInTheDocument();
    expect(container.querySelectorAll('b')).toHaveLength(0);
  });

  it('renders references as links that go to that page of the file', async () => {
    const onRef = vi.fn();
    const { user } = render(<NoteView body={body} onRef={onRef} />);
    const link = screen.getByRole('link', { name: 'C/1' });
    expect(link).toHaveAttribute('href', '#efile-page-C-1');
    await user.click(link);
    await user.click(screen.getByRole('link', { name: 'N/2' }));
    expect(onRef.mock.calls).toEqual([['C/1'], ['N/2']]);
  });
});
