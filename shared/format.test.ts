import { describe, expect, it } from 'vitest';

import { formatDate, formatDateTime, todayInIndia } from './format.ts';

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

describe("today's date in India", () => {
  it('turns at midnight India time, 18:30 UTC', () => {
    expect(todayInIndia(new Date('2026-11-23T18:29:59.999Z'))).toBe('2026-11-23');
    expect(todayInIndia(new Date('2026-11-23T18:30:00.000Z'))).toBe('2026-11-24');
    expect(todayInIndia(new Date('2026-12-31T18:30:00.000Z'))).toBe('2027-01-01');
  });

  it('agrees with the Asia/Kolkata time zone every few hours of a year, leap day included', () => {
    const kolkata = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' });
    for (let t = Date.UTC(2028, 0, 1); t < Date.UTC(2029, 0, 1); t += 7 * 60 * 60 * 1000 + 13 * 60 * 1000) {
      expect(todayInIndia(new Date(t))).toBe(kolkata.format(new Date(t)));
    }
  });
});
