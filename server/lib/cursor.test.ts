import { describe, expect, it } from 'vitest';

import {
  decodeCursor,
  decodeTimeCursor,
  encodeCursor,
  encodeTimeCursor,
  isPossibleTimestamp,
  SERVER_YEARS,
} from './cursor.ts';
import { AppError } from './errors.ts';
import { isUuid } from './ids.ts';

const ID = '0b7e2c1a-3f4d-4e5f-8a9b-0c1d2e3f4a5b';
const refusal = 'letters.bad_cursor';
const REFUSED = 'This list has changed. Please open it again.';
const raw = (parts: unknown) => Buffer.from(JSON.stringify(parts)).toString('base64url');

/** The AppError a call throws, or null. */
function thrown(call: () => unknown): AppError | null {
  try {
    call();
    return null;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
}

describe('isPossibleTimestamp', () => {
  it.each([
    '2026-11-21 10:15:30+05:30',
    '2026-11-21 10:15:30.123456+05:30',
    '2026-11-21 10:15:30.5+00',
    '2026-11-21 23:59:59-03:30',
    '2024-02-29 00:00:00+00',
    '2026-11-21T04:45:30.123456Z',
    '0001-01-01T00:00:00.000000Z',
    '9999-12-31T23:59:59.999999Z',
  ])('takes %s, a time that exists', (at) => {
    expect(isPossibleTimestamp(at)).toBe(true);
  });

  it.each([
    ['month 13', '2026-13-01 10:00:00+00'],
    ['day 45', '2026-01-45 10:00:00+00'],
    ['30 February', '2026-02-30 10:00:00+00'],
    ['29 February of a common year', '2026-02-29 10:00:00+00'],
    ['hour 25', '2026-11-21 25:00:00+00'],
    ['24:00', '2026-11-21 24:00:00+00'],
    ['minute 99', '2026-11-21 10:99:00+00'],
    ['second 60', '2026-11-21 10:15:60+00'],
    ['an offset of 99 hours', '2026-11-21 10:15:30+99'],
    ['an offset of 99 minutes', '2026-11-21 10:15:30+05:99'],
    ['year 0', '0000-01-01 00:00:00+00'],
    ['an impossible ISO time', '2026-13-45T25:99:00Z'],
    ['six parts of a time', '2026-11-21 1:2:3.4.5.6+00'],
    ['seven digits of a second', '2026-11-21 10:15:30.1234567+00'],
    ['no zone', '2026-11-21 10:15:30'],
    ['a date alone', '2026-11-21'],
    ['SQL after it', "2026-11-21 10:15:30+00'; drop table letters; --"],
    ['an empty text', ''],
  ])('refuses %s (%s)', (_what, at) => {
    expect(isPossibleTimestamp(at)).toBe(false);
  });

  it('keeps to the years it is given', () => {
    expect(isPossibleTimestamp('1899-12-31 23:59:59+00', SERVER_YEARS)).toBe(false);
    expect(isPossibleTimestamp('1900-01-01 00:00:00+00', SERVER_YEARS)).toBe(true);
    expect(isPossibleTimestamp('2200-12-31 23:59:59+00', SERVER_YEARS)).toBe(true);
    expect(isPossibleTimestamp('2201-01-01 00:00:00+00', SERVER_YEARS)).toBe(false);
    expect(isPossibleTimestamp('2201-01-01 00:00:00+00')).toBe(true);
  });

  it('refuses what is not text', () => {
    for (const at of [null, undefined, 20261121, {}, ['2026-11-21 10:15:30+00']]) {
      expect(isPossibleTimestamp(at)).toBe(false);
    }
  });
});

describe('isUuid', () => {
  it('takes a UUID in either case and nothing else', () => {
    expect(isUuid(ID)).toBe(true);
    expect(isUuid(ID.toUpperCase())).toBe(true);
    expect(isUuid('00000000-0000-0000-0000-000000000000')).toBe(true);
    for (const id of [`${ID}x`, ID.slice(1), ID.replace(/-/g, ''), 'g'.repeat(8) + ID.slice(8), '', null, 42, {}]) {
      expect(isUuid(id)).toBe(false);
    }
  });
});

describe('[time, id] cursors', () => {
  it('reads back what it hands out', () => {
    const cursor = { at: '2026-11-21 10:15:30.123456+05:30', id: ID };
    expect(decodeTimeCursor(encodeTimeCursor(cursor), refusal)).toEqual(cursor);
    expect(encodeTimeCursor(cursor)).toBe(raw([cursor.at, cursor.id]));
  });

  it.each([
    ['not base64url JSON', 'abc'],
    ['an empty text', ''],
    ['not a list', raw({ at: '2026-11-21 10:15:30+00', id: ID })],
    ['a list of one', raw(['2026-11-21 10:15:30+00'])],
    ['an impossible time', raw(['2026-13-45 25:99:00+00', ID])],
    ['an impossible ISO time', raw(['2026-13-45T25:99:00Z', ID])],
    ['a year past 2200', raw(['2300-01-01 00:00:00+00', ID])],
    ['a time that is a number', raw([1764000000, ID])],
    ['an id that is not a UUID', raw(['2026-11-21 10:15:30+00', 'not-a-uuid'])],
    ['an id that is a number', raw(['2026-11-21 10:15:30+00', 7])],
  ])('refuses %s with a 400 on `cursor`, with the words and code given', (_what, cursor) => {
    const err = thrown(() => decodeTimeCursor(cursor, refusal));
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      statusCode: 400,
      message: REFUSED,
      field: 'cursor',
      code: refusal,
    });
  });
});

describe('decodeCursor', () => {
  it("hands the parts to the list's reader and keeps what it returns", () => {
    expect(decodeCursor(encodeCursor([1, 'a']), refusal, (parts) => ({ parts }))).toEqual({ parts: [1, 'a'] });
  });

  it('refuses a cursor the reader returns null for, or throws on', () => {
    expect(thrown(() => decodeCursor(encodeCursor([1]), refusal, () => null))?.statusCode).toBe(400);
    const reader = (parts: unknown) => {
      const [[at]] = parts as [[unknown]]; // throws on anything but a list of lists
      return at;
    };
    expect(thrown(() => decodeCursor(encodeCursor(5), refusal, reader))?.message).toBe(REFUSED);
  });
});
