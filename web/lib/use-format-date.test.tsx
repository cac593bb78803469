import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';

import i18n, { setLanguage } from '#web/i18n/index.ts';

import { dateLanguageOf, useFormatDate } from './use-format-date.ts';

afterEach(async () => {
  await act(() => setLanguage('en'));
});

const wrapper = ({ children }: { children: ReactNode }) => <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;

describe('useFormatDate', () => {
  it('writes English as shared/format.ts always has (spec §9): 21 Nov 2026, 3:05 pm', () => {
    const { result } = renderHook(() => useFormatDate(), { wrapper });
    expect(result.current.formatDate('2026-11-21')).toBe('21 Nov 2026');
    expect(result.current.formatDateTime('2026-11-21T09:35:00Z')).toMatch(/^21 Nov 2026, 3:05\spm$/);
    expect(result.current.formatDate(null)).toBe('N/A');
    expect(result.current.formatDate(null, '')).toBe('');
  });

  it('follows a switch to Hindi: Hindi month, पूर्वाह्न / अपराह्न, day first (issue 35)', async () => {
    const { result } = renderHook(() => useFormatDate(), { wrapper });
    await act(() => setLanguage('hi'));
    expect(result.current.formatDate('2026-11-21')).toBe('21 नव॰ 2026');
    expect(result.current.formatDateTime('2026-11-21T09:35:00Z')).toMatch(/^21 नव॰ 2026, 3:05\sअपराह्न$/);
    expect(result.current.formatDateTime('2026-11-21T03:35:00Z')).toMatch(/^21 नव॰ 2026, 9:05\sपूर्वाह्न$/);
    expect(result.current.formatDate(undefined)).toBe('उपलब्ध नहीं');
    await act(() => setLanguage('en'));
    expect(result.current.formatDate('2026-11-21')).toBe('21 Nov 2026');
  });

  it('takes Hindi for hi and its regional forms, English for anything else', () => {
    expect(dateLanguageOf('hi')).toBe('hi');
    expect(dateLanguageOf('hi-IN')).toBe('hi');
    expect(dateLanguageOf('en')).toBe('en');
    expect(dateLanguageOf(undefined)).toBe('en');
  });
});
