import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { LetterJson, MovementJson, OfficerJson } from '#shared/schemas/letter.ts';

import { api } from '#web/lib/api-client.ts';
import { render } from '#web/test/render.tsx';

import { MarkLetterDialog } from './dak-dialogs.tsx';

const letter = {
  _id: '00000000-0000-4000-8000-00000000000a',
  letterId: 'L-2026-000007',
  letterSub: 'Annual fire drill',
  classification: 'Normal',
} as LetterJson;

const officer = (n: number, name: string): OfficerJson => ({
  _id: `00000000-0000-4000-8000-00000000010${n}`,
  name,
  designation: 'Scientist D',
  role: 'employee',
  group: { _id: '00000000-0000-4000-8000-000000000200', name: 'Fire Safety' },
  cleared: false,
});
const OFFICERS = [officer(1, 'Ravi Kumar'), officer(2, 'Meena Iyer')];

const movement = (to: OfficerJson, forInformation: boolean) =>
  ({
    _id: crypto.randomUUID(),
    letter: letter._id,
    forInformation,
    to: { _id: to._id, name: to.name },
  }) as MovementJson;

/** The options of the list an input opens (each field has its own, drawn in place). */
const optionsOf = (input: HTMLElement) => within(document.getElementById(input.getAttribute('aria-controls') ?? '')!);

describe('MarkLetterDialog', () => {
  it('closes the officer list after a pick, so it does not stay over "For information"', async () => {
    vi.spyOn(api, 'get').mockResolvedValue(OFFICERS);
    const { user } = render(<MarkLetterDialog letter={letter} onClose={() => {}} />);
    const to = await screen.findByLabelText(/^Mark to/, { selector: 'input' });
    await user.click(to);
    await user.click(await optionsOf(to).findByRole('option', { name: /Ravi Kumar/, hidden: true }));
    await waitFor(() => expect(to).toHaveAttribute('aria-expanded', 'false'));
    // Opened again for another pick, it offers the rest.
    await user.click(to);
    await waitFor(() => expect(to).toHaveAttribute('aria-expanded', 'true'));
    expect(await optionsOf(to).findByRole('option', { name: /Meena Iyer/, hidden: true })).toBeInTheDocument();
  });

  it('says one officer and one copy for information as such, not "2 officers"', async () => {
    vi.spyOn(api, 'get').mockResolvedValue(OFFICERS);
    vi.spyOn(api, 'post').mockResolvedValue([movement(OFFICERS[0]!, false), movement(OFFICERS[1]!, true)]);
    const { user } = render(<MarkLetterDialog letter={letter} onClose={() => {}} />);
    const to = await screen.findByLabelText(/^Mark to/, { selector: 'input' });
    await user.click(to);
    await user.click(await optionsOf(to).findByRole('option', { name: /Ravi Kumar/, hidden: true }));
    const info = screen.getByLabelText(/^For information/, { selector: 'input' });
    await user.click(info);
    await user.click(await optionsOf(info).findByRole('option', { name: /Meena Iyer/, hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Mark Letter' }));
    expect(
      await screen.findByText('Letter L-2026-000007 marked to 1 officer. With 1 copy for information.'),
    ).toBeInTheDocument();
  });
});
