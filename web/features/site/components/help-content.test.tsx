import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { Role } from '#shared/constants.ts';

import { render } from '#web/test/render.tsx';

import { HelpContent } from './help-content.tsx';

/** The one section marked "Your role": its title, and whether it is open. */
const markedSection = () => {
  const control = screen.getByText('Your role').closest('button');
  return {
    title: control?.textContent?.replace('Your role', '').trim(),
    open: control?.getAttribute('aria-expanded'),
  };
};

describe('HelpContent (issue 16 item 9)', () => {
  it("marks the reader's own section: by role, a visitor's, and a pending director reads the staff's", () => {
    const cases: [Role | null, string][] = [
      [null, 'Visitors'],
      ['employee', 'Staff (employees)'],
      ['pending_director', 'Staff (employees)'],
      ['associate_director', 'Associate directors'],
      ['director', 'Directors'],
      ['admin', 'Administrators'],
    ];
    for (const [role, title] of cases) {
      const { unmount } = render(<HelpContent role={role} />);
      expect(markedSection(), String(role)).toEqual({ title, open: 'true' });
      unmount();
    }
  });
});

describe('HelpContent per role (decision 101)', () => {
  it("shows only the sections of what the reader's role can use, each with its keyboard path", () => {
    const { unmount } = render(<HelpContent role="employee" />);
    expect(screen.getByRole('heading', { name: 'Acknowledge a circular or notice', level: 3 })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Pull back a letter you marked', level: 3 })).toBeTruthy();
    expect(screen.queryByText('Administrators')).toBeNull();
    expect(screen.queryByText('Directors')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Register as a member of staff', level: 3 })).toBeNull();
    expect(screen.getAllByText('Keyboard:').length).toBe(
      screen.getAllByRole('heading', { level: 3, hidden: true }).length,
    );
    unmount();
    render(<HelpContent role={null} />);
    expect(screen.getByRole('heading', { name: 'Register as a member of staff', level: 3 })).toBeTruthy();
    expect(screen.queryByText('Staff (employees)')).toBeNull();
  });
});
