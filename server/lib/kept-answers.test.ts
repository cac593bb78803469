import { describe, expect, it, vi } from 'vitest';

import { keptAnswers } from './kept-answers.ts';
import { prepareJson } from './prepared-answer.ts';

const maker = () => vi.fn(async () => prepareJson({ ok: true }));

describe('answers kept per key and stamp', () => {
  it('makes an answer once per stamp, again when the stamp moves on, and apart per database', async () => {
    const kept = keptAnswers(10);
    const db = {};
    const make = maker();
    const first = await kept(db, 'me:1', 'v1', make);
    expect(await kept(db, 'me:1', 'v1', make)).toBe(first);
    expect(await kept(db, 'me:1', 'v2', make)).not.toBe(first);
    expect(await kept({}, 'me:1', 'v2', make)).toBeDefined();
    expect(make).toHaveBeenCalledTimes(3);
  });

  it('keeps at most its number of keys, dropping the least recently asked', async () => {
    const kept = keptAnswers(3);
    const db = {};
    const make = maker();
    for (const key of ['a', 'b', 'c']) await kept(db, key, 's', make);
    await kept(db, 'a', 's', make); // a is now the most recent
    await kept(db, 'd', 's', make); // b goes
    expect(make).toHaveBeenCalledTimes(4);
    await kept(db, 'a', 's', make);
    await kept(db, 'b', 's', make);
    expect(make).toHaveBeenCalledTimes(5);
  });

  it('does not keep a failure', async () => {
    const kept = keptAnswers(3);
    const db = {};
    await expect(kept(db, 'k', 's', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    const make = maker();
    await kept(db, 'k', 's', make);
    expect(make).toHaveBeenCalledTimes(1);
  });
});
