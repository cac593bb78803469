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

describe('dates in Hindi (issue 35)', () => {
  it('names the month in Hindi, day first', () => {
    expect(formatDate('2026-11-21', 'N/A', 'hi')).toBe('21 नव॰ 2026');
    const months = Array.from({ length: 12 }, (_, i) =>
      formatDate(`2026-${String(i + 1).padStart(2, '0')}-05`, '', 'hi'),
    );
    expect(months).toEqual([
      '05 जन॰ 2026',
      '05 फ़र॰ 2026',
      '05 मार्च 2026',
      '05 अप्रैल 2026',
      '05 मई 2026',
      '05 जून 2026',
      '05 जुल॰ 2026',
      '05 अग॰ 2026',
      '05 सित॰ 2026',
      '05 अक्टू॰ 2026',
      '05 नव॰ 2026',
      '05 दिस॰ 2026',
    ]);
  });

  it('writes 12-hour times in India time with पूर्वाह्न / अपराह्न for am / pm', () => {
    expect(formatDateTime('2026-09-14T09:35:00Z', 'N/A', 'hi')).toMatch(/^14 सित॰ 2026, 3:05\sअपराह्न$/);
    expect(formatDateTime('2026-11-21T18:40:00Z', 'N/A', 'hi')).toMatch(/^22 नव॰ 2026, 12:10\sपूर्वाह्न$/);
    expect(formatDateTime('2026-11-21T06:40:00Z', 'N/A', 'hi')).toMatch(/^21 नव॰ 2026, 12:10\sअपराह्न$/);
  });

  it('keeps the time and अपराह्न together with a no-break space', () => {
    expect(formatDateTime('2026-11-21T09:35:00Z', 'N/A', 'hi')).toBe('21 नव॰ 2026, 3:05\u00a0अपराह्न');
  });

  it('has no Latin letter in a Hindi date or time', () => {
    for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 5 * 60 * 60 * 1000 + 17 * 60 * 1000) {
      expect(formatDateTime(t, '', 'hi')).not.toMatch(/[A-Za-z]/);
    }
  });

  it('leaves English as it was: English is the default', () => {
    expect(formatDateTime('2026-11-21T06:40:00Z', 'N/A', 'en')).toBe(formatDateTime('2026-11-21T06:40:00Z'));
    expect(formatDateTime('2026-11-21T18:40:00Z')).toMatch(/^22 Nov 2026, 12:10\sam$/);
  });

  it('gives the fallback for no date', () => {
    expect(formatDate(null, 'उपलब्ध नहीं', 'hi')).toBe('उपलब्ध नहीं');
    expect(formatDateTime(undefined, '', 'hi')).toBe('');
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
