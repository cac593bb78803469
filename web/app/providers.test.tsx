import { PasswordInput } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import i18n, { setLanguage } from '#web/i18n/index.ts';

import { AppProviders } from './providers.tsx';

afterEach(async () => {
  await act(() => setLanguage('en'));
});

describe('AppProviders', () => {
  it("names the password field's show/hide button in the reader's language", async () => {
    render(
      <AppProviders>
        <PasswordInput label="Password" />
      </AppProviders>,
    );
    expect(await screen.findByRole('button', { name: 'Show or hide the password' })).toBeInTheDocument();
    await act(() => setLanguage('hi'));
    expect(i18n.language).toBe('hi');
    expect(await screen.findByRole('button', { name: 'पासवर्ड दिखाएँ या छिपाएँ' })).toBeInTheDocument();
  });
});
