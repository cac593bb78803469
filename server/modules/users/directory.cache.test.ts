import { describe, expect, it, vi } from 'vitest';
import type { DbOrTx } from '#server/db/client.ts';
import { prepareJson } from '#server/lib/prepared-answer.ts';
import { directoryAnswer } from './directory.cache.ts';

const database = () => ({}) as DbOrTx; // entries are kept per database object: each test its own
const maker = (value: unknown = ['card']) => vi.fn(async () => prepareJson(value));

describe('the directory answers kept per version', () => {
  it('makes an answer once per search and version; a new version makes it again', async () => {
    const db = database();
    const make = maker();
    const first = await directoryAnswer(db, 1n, 'q=rao', make);
    expect(await directoryAnswer(db, 1n, 'q=rao', make)).toBe(first);
    expect(make).toHaveBeenCalledTimes(1);
    expect(await directoryAnswer(db, 2n, 'q=rao', make)).not.toBe(first);
    expect(make).toHaveBeenCalledTimes(2);
  });

  it('answers a request that read an older version without keeping its answer', async () => {
    const db = database();
    const kept = await directoryAnswer(db, 5n, 'q=a', maker(['new']));
    const older = maker(['old']);
    expect(await directoryAnswer(db, 4n, 'q=a', older)).not.toBe(kept);
    expect(await directoryAnswer(db, 4n, 'q=b', older)).toBeDefined();
    expect(older).toHaveBeenCalledTimes(2);
    expect(await directoryAnswer(db, 5n, 'q=a', maker())).toBe(kept);
  });

  it('keeps at most 500 searches, dropping the least recently asked', async () => {
    const db = database();
    const make = maker();
    const oldest = await directoryAnswer(db, 1n, 'q=0', make);
    for (let i = 1; i < 500; i++) await directoryAnswer(db, 1n, `q=${i}`, make);
    expect(await directoryAnswer(db, 1n, 'q=0', make)).toBe(oldest); // asked again: now the most recent
    await directoryAnswer(db, 1n, 'q=500', make); // one over: q=1 goes
    const calls = make.mock.calls.length;
    expect(await directoryAnswer(db, 1n, 'q=0', make)).toBe(oldest);
    await directoryAnswer(db, 1n, 'q=1', make);
    expect(make).toHaveBeenCalledTimes(calls + 1);
  });

  it('does not keep a failure', async () => {
    const db = database();
    const failing = vi.fn(async () => {
      throw new Error('database unavailable');
    });
    await expect(directoryAnswer(db, 1n, 'q=x', failing)).rejects.toThrow('database unavailable');
    const make = maker();
    await directoryAnswer(db, 1n, 'q=x', make);
    expect(make).toHaveBeenCalledTimes(1);
  });
});
