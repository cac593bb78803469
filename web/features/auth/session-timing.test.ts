import { describe, expect, it } from 'vitest';

import { formatCountdown, warningAt } from './session-timing.ts';

describe('session-timeout warning timing (issue 16 item 5)', () => {
  it('warns two minutes before an 8-hour sign-in ends', () => {
    const issuedAt = 1_800_000_000;
    expect(warningAt({ issuedAt, expiresAt: issuedAt + 8 * 3600 })).toBe((issuedAt + 8 * 3600 - 120) * 1000);
  });

  it('warns at half-time when the whole sign-in is shorter than four minutes', () => {
    expect(warningAt({ issuedAt: 1000, expiresAt: 1020 })).toBe(1010 * 1000);
  });

  it('formats the time left as m:ss', () => {
    expect(formatCountdown(120_000)).toBe('2:00');
    expect(formatCountdown(9_001)).toBe('0:10');
    expect(formatCountdown(-5)).toBe('0:00');
  });
});
