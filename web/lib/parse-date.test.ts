import { describe, expect, it } from 'vitest';

import { parseDateInput } from './parse-date.ts';

describe('parseDateInput', () => {
  it('reads the Indian display format and day-first numbers', () => {
    expect(parseDateInput('21 Nov 2026')).toBe('2026-11-21');
    expect(parseDateInput('05-Jan-1990')).toBe('1990-01-05');
    expect(parseDateInput('21/11/2026')).toBe('2026-11-21');
    expect(parseDateInput('1.2.2020')).toBe('2020-02-01');
    expect(parseDateInput(' 2026-11-21 ')).toBe('2026-11-21');
  });
  it('reads Hindi month names, as the portal shows dates in Hindi (issue 35)', () => {
    expect(parseDateInput('21 नव॰ 2026')).toBe('2026-11-21');
    expect(parseDateInput('21 नव 2026')).toBe('2026-11-21');
    expect(parseDateInput('5 नवंबर 2026')).toBe('2026-11-05');
    expect(parseDateInput('05 फ़र॰ 1990')).toBe('1990-02-05');
    expect(parseDateInput('05 \u092b\u093c\u0930 1990')).toBe('1990-02-05'); // फ़ as फ + nukta
    expect(parseDateInput('05 \u095e\u0930 1990')).toBe('1990-02-05'); // फ़ as one character
    expect(parseDateInput('14 सितंबर 2026')).toBe('2026-09-14');
    expect(parseDateInput('31 मार्च 2026')).toBe('2026-03-31');
  });
  it('refuses dates that do not exist and text that is not a date', () => {
    expect(parseDateInput('31/02/2024')).toBeNull();
    expect(parseDateInput('29 Feb 2023')).toBeNull();
    expect(parseDateInput('tomorrow')).toBeNull();
    expect(parseDateInput('')).toBeNull();
    expect(parseDateInput('29 फ़र॰ 2023')).toBeNull();
    expect(parseDateInput('5 कल 2026')).toBeNull();
  });
});
