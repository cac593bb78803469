import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './format.ts';

describe('Indian dates (spec §9)', () => {
  it('prints 21 Nov 2026', () => {
    expect(formatDate('2026-11-21')).toBe('21 Nov 2026');
  });

  it('abbreviates every month to three letters, September included (issue 16)', () => {
    const months = Array.from({ length: 12 }, (_, i) => formatDate(`2026-${String(i + 1).padStart(2, '0')}-05`));
    expect(months).toEqual([
      '05 Jan 2026',
      '05 Feb 2026',
      '05 Mar 2026',
      '05 Apr 2026',
      '05 May 2026',
      '05 Jun 2026',
      '05 Jul 2026',
      '05 Aug 2026',
      '05 Sep 2026',
      '05 Oct 2026',
      '05 Nov 2026',
      '05 Dec 2026',
    ]);
  });

  it('prints 12-hour times in India time, September as Sep', () => {
    expect(formatDateTime('2026-09-14T09:35:00Z')).toMatch(/^14 Sep 2026, 3:05\spm$/); // Intl puts a narrow space before pm
  });

  it('gives the fallback for no date or a date that is not one', () => {
    expect(formatDate(null)).toBe('N/A');
    expect(formatDate('', '')).toBe('');
    expect(formatDateTime('not a date', '-')).toBe('-');
  });
});
