import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { render } from '#web/test/render.tsx';

import { birthCalendarStart, DateField } from './date-field.tsx';

describe('DateField', () => {
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
