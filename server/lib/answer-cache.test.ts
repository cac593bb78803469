import { describe, expect, it, vi } from 'vitest';

import { answerCache, cacheFigures } from './answer-cache.ts';
import { AppError, notFound } from './errors.ts';
import { type PreparedAnswer, prepareJson } from './prepared-answer.ts';

const maker = () => vi.fn(async () => prepareJson({ ok: true }));

describe('answers kept per key and stamp', () => {
  it('makes an answer once per stamp, again when the stamp moves on, and apart per database', async () => {
    const cache = answerCache('test', { entries: 10, bytes: 1_000_000 });
    const db = {};
    const make = maker();
    const first = await cache(db, 'me:1', 'v1', make);
    expect(await cache(db, 'me:1', 'v1', make)).toBe(first);
    expect(await cache(db, 'me:1', 'v2', make)).not.toBe(first);
    expect(await cache({}, 'me:1', 'v2', make)).toBeDefined();
    expect(make).toHaveBeenCalledTimes(3);
  });

  it('keeps at most its number of keys, dropping the least recently asked', async () => {
    const cache = answerCache('test', { entries: 3, bytes: 1_000_000 });
    const db = {};
    const make = maker();
    for (const key of ['a', 'b', 'c']) await cache(db, key, 's', make);
    await cache(db, 'a', 's', make); // a is now the most recent
    await cache(db, 'd', 's', make); // b goes
    expect(make).toHaveBeenCalledTimes(4);
    await cache(db, 'a', 's', make);
    await cache(db, 'b', 's', make);
    expect(make).toHaveBeenCalledTimes(5);
  });

  it('does not keep a failure', async () => {
    const cache = answerCache('test', { entries: 3, bytes: 1_000_000 });
    const db = {};
    await expect(cache(db, 'k', 's', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    const make = maker();
    await cache(db, 'k', 's', make);
    expect(make).toHaveBeenCalledTimes(1);
  });

  it('makes an answer once for the requests that come while it is being made', async () => {
    const cache = answerCache('test', { entries: 10, bytes: 1_000_000 });
    const db = {};
    const { make, finish } = slowMaker();
    const asked = Array.from({ length: 8 }, () => cache(db, 'me /api/dac/inbox/count', 'v1', make));
    finish(prepareJson({ pending: 1 }));
    const answers = await Promise.all(asked);
    expect(make).toHaveBeenCalledTimes(1);
    for (const answer of answers) expect(answer).toBe(answers[0]);
  });

  it('never shares a making between keys (people) or stamps', async () => {
    const cache = answerCache('test', { entries: 10, bytes: 1_000_000 });
    const db = {};
    const mine = slowMaker();
    const theirs = slowMaker();
    const later = slowMaker();
    const asked = [
      cache(db, 'me /api/notifications/count', 'v1', mine.make),
      cache(db, 'them /api/notifications/count', 'v1', theirs.make),
      cache(db, 'me /api/notifications/count', 'v1', mine.make),
      cache(db, 'them /api/notifications/count', 'v1', theirs.make),
    ];
    const moved = cache(db, 'me /api/notifications/count', 'v2', later.make); // the version moved on meanwhile
    mine.finish(prepareJson({ unread: 1 }));
    theirs.finish(prepareJson({ unread: 2 }));
    later.finish(prepareJson({ unread: 3 }));
    const [a, b, c, d] = await Promise.all(asked);
    expect([mine.make, theirs.make, later.make].map((m) => m.mock.calls.length)).toEqual([1, 1, 1]);
    expect(c).toBe(a);
    expect(d).toBe(b);
    expect(JSON.parse(a!.body.toString())).toEqual({ unread: 1 });
    expect(JSON.parse(b!.body.toString())).toEqual({ unread: 2 });
    expect(JSON.parse((await moved).body.toString())).toEqual({ unread: 3 });
  });

  it('gives a refusal to those who waited for it, and does not keep it', async () => {
    const cache = answerCache('test', { entries: 10, bytes: 1_000_000 });
    const db = {};
    const { make, fail } = slowMaker();
    const asked = Array.from({ length: 4 }, () => cache(db, 'me /api/groups/id/x', 'v1', make).catch((e) => e));
    fail(notFound('groups.not_found'));
    const refusals = await Promise.all(asked);
    expect(make).toHaveBeenCalledTimes(1);
    for (const refusal of refusals) expect(refusal).toBeInstanceOf(AppError);
    const again = maker();
    await cache(db, 'me /api/groups/id/x', 'v1', again);
    expect(again).toHaveBeenCalledTimes(1);
  });

  it("does not pass on another request's accident: those who waited make the answer once more, together", async () => {
    const cache = answerCache('test', { entries: 10, bytes: 1_000_000 });
    const db = {};
    const first = slowMaker();
    const second = slowMaker();
    const failed = cache(db, 'me /api/dac/page', 'v1', first.make).catch((e: Error) => e);
    const waiting = Array.from({ length: 3 }, () => cache(db, 'me /api/dac/page', 'v1', second.make));
    first.fail(new Error('connection terminated'));
    expect(await failed).toEqual(new Error('connection terminated'));
    second.finish(prepareJson({ letters: [] }));
    const answers = await Promise.all(waiting);
    expect(first.make).toHaveBeenCalledTimes(1);
    expect(second.make).toHaveBeenCalledTimes(1);
    for (const answer of answers) expect(answer).toBe(answers[0]);
    // kept now: the next request makes nothing
    const none = maker();
    expect(await cache(db, 'me /api/dac/page', 'v1', none)).toBe(answers[0]);
    expect(none).not.toHaveBeenCalled();
  });

  it('takes a making that throws at once for a failure, and keeps nothing', async () => {
    const cache = answerCache('test', { entries: 3, bytes: 1_000_000 });
    const db = {};
    const throws = () => {
      throw new Error('bug');
    };
    await expect(cache(db, 'k', 's', throws)).rejects.toThrow('bug');
    const make = maker();
    await cache(db, 'k', 's', make);
    expect(make).toHaveBeenCalledTimes(1);
  });
});

/** A making that finishes (or fails) when the test says so, counting how often it was started. */
function slowMaker() {
  let settle!: { resolve: (a: PreparedAnswer) => void; reject: (e: unknown) => void };
  const answer = new Promise<PreparedAnswer>((resolve, reject) => (settle = { resolve, reject }));
  return { make: vi.fn(() => answer), finish: (a: PreparedAnswer) => settle.resolve(a), fail: settle.reject };
}

describe('answers kept within a byte limit (decision 129)', () => {
  const answerOf = (chars: number) => async () => prepareJson({ text: 'x'.repeat(chars) });

  it('drops the least recently asked answers once their counted bytes pass the limit, and says what it holds', async () => {
    const cache = answerCache('bytes test', { entries: 100, bytes: 10_000 });
    const db = {};
    const make = vi.fn(answerOf(1_000)); // about 1 KB each, counted twice: 2 KB and its key
    for (const key of ['a', 'b', 'c', 'd']) await cache(db, key, 'v', make);
    let figures = cacheFigures()['bytes test']!;
    expect(figures).toMatchObject({ entries: 4, maxEntries: 100, maxBytes: 10_000 });
    expect(figures.bytes).toBeGreaterThan(8_000);
    await cache(db, 'a', 'v', make); // a is now the most recent
    await cache(db, 'e', 'v', make); // past 10 KB: b goes
    figures = cacheFigures()['bytes test']!;
    expect(figures.entries).toBe(4);
    expect(figures.bytes).toBeLessThanOrEqual(10_000);
    expect(make).toHaveBeenCalledTimes(5);
    await cache(db, 'a', 'v', make);
    expect(make).toHaveBeenCalledTimes(5);
    await cache(db, 'b', 'v', make);
    expect(make).toHaveBeenCalledTimes(6);
  });

  it('keeps the newest answer even when it alone is over the limit, and counts nothing for a failure', async () => {
    const cache = answerCache('bytes test 2', { entries: 100, bytes: 1_000 });
    const db = {};
    await cache(db, 'small', 'v', answerOf(10));
    await cache(db, 'large', 'v', answerOf(5_000));
    expect(cacheFigures()['bytes test 2']!.entries).toBe(1);
    // A new making pushes the over-large one out; its failure then leaves nothing counted.
    await expect(cache(db, 'down', 'v', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(cacheFigures()['bytes test 2']).toMatchObject({ entries: 0, bytes: 0 });
  });
});
