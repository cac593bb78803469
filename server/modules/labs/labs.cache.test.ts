import { afterEach, describe, expect, it, vi } from 'vitest';

import { cachedRead, labChanged, READ_CACHE_MS } from './labs.cache.ts';

/** A stand-in database handle: the cache only uses it as a key. */
const aDb = () => ({}) as never;

afterEach(() => vi.useRealTimers());

describe('lab read cache', () => {
  it('loads once for concurrent and repeated reads, until it expires', async () => {
    vi.useFakeTimers();
    const db = aDb();
    const load = vi.fn(async () => ({ n: load.mock.calls.length }));
    const [a, b] = await Promise.all([cachedRead(db, 'k', load), cachedRead(db, 'k', load)]);
    expect(a).toBe(b);
    expect(load).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(READ_CACHE_MS + 1);
    await cachedRead(db, 'k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('forgets everything of a database after a write, and keeps databases apart', async () => {
    const [db, other] = [aDb(), aDb()];
    const load = vi.fn(async () => 'x');
    await cachedRead(db, 'k', load);
    await cachedRead(other, 'k', load);
    expect(load).toHaveBeenCalledTimes(2);
    labChanged(db);
    await cachedRead(db, 'k', load);
    await cachedRead(other, 'k', load);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('does not remember a failure', async () => {
    const db = aDb();
    const load = vi.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce('ok');
    await expect(cachedRead(db, 'f', load)).rejects.toThrow('down');
    await Promise.resolve();
    expect(await cachedRead(db, 'f', load)).toBe('ok');
  });
});

describe('cached lab reads, bounded', () => {
  it('keeps at most 1,000 keys per database, the least recently asked dropped first', async () => {
    const db = aDb();
    const load = vi.fn(async () => 'page');
    for (let skip = 0; skip < 1001; skip++) await cachedRead(db, `photos:lab:${skip}:20`, load);
    expect(load).toHaveBeenCalledTimes(1001);
    await cachedRead(db, 'photos:lab:1000:20', load); // still kept
    expect(load).toHaveBeenCalledTimes(1001);
    await cachedRead(db, 'photos:lab:0:20', load); // the first one went
    expect(load).toHaveBeenCalledTimes(1002);
  });
});
