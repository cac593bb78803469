import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { setLanguage } from '#web/i18n/index.ts';
import { fillIn, render } from '#web/test/render.tsx';

import { birthCalendarStart, DateField } from './date-field.tsx';

afterEach(async () => {
  await act(() => setLanguage('en'));
});

describe('DateField', () => {
  it('shows its date the Indian way, in Hindi with a Hindi month, and reads a date typed either way (issue 35)', async () => {
    const onChange = vi.fn();
    render(<DateField label="From" value="2026-11-21" onChange={onChange} />);
    expect(screen.getByLabelText('From')).toHaveValue('21 Nov 2026');
    await act(() => setLanguage('hi'));
    expect(screen.getByLabelText('From')).toHaveValue('21 नव॰ 2026');
    fillIn('From', '5 दिस॰ 2026');
    expect(onChange).toHaveBeenLastCalledWith('2026-12-05');
    fillIn('From', '6 Dec 2026');
    expect(onChange).toHaveBeenLastCalledWith('2026-12-06');
  });

  it('opens an empty date of birth about 30 years back', async () => {
    const { user } = render(<DateField label="Date of Birth" birthDate />);
    await user.click(screen.getByLabelText('Date of Birth'));
    const year = String(new Date().getFullYear() - 30);
    expect(await screen.findByText(new RegExp(`^\\S+ ${year}$`))).toBeInTheDocument();
  });

  it('opens another empty date on this month', async () => {
    const { user } = render(<DateField label="From" />);
    await user.click(screen.getByLabelText('From'));
    const year = String(new Date().getFullYear());
    expect(await screen.findByText(new RegExp(`^\\S+ ${year}$`))).toBeInTheDocument();
  });

  it('starts the birth calendar on the first of the month 30 years before today', () => {
    expect(birthCalendarStart(new Date(2026, 10, 27))).toBe('1996-11-01');
  });
});
