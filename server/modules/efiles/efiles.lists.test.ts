import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { app, call, cast, ok, open, send, type Who } from './efiles.test-helpers.ts';

// My files a page at a time (decision 121): each box by the project's keyset cursor, newest moved first, every file
// once, to the end; a tampered cursor, a page too long and an unknown box refused with their messages.

/** Every page of a box, walked by its cursor: the ids of each page. */
async function walk(user: Who, box: string, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const query: string = `box=${box}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`;
    const body = ok(await call('GET', user, `/api/efiles?${query}`)).json() as {
      files: { _id: string }[];
      nextCursor: string | null;
    };
    pages.push(body.files.map((f) => f._id));
    cursor = body.nextCursor;
    expect(pages.length).toBeLessThan(50);
  } while (cursor);
  return pages;
}

/** The ids of these files in the lists' order: latest moved first, then the id. */
async function inOrder(ids: string[]): Promise<string[]> {
  const rows = await app.db.execute<{ id: string }>(sql`
    select id from efiles where id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) order by moved_at desc, id desc`);
  return rows.rows.map((r) => r.id);
}

describe('My files a page at a time', () => {
  it('walks "with me" by its cursor, newest moved first, every file once, ties broken by the id', async () => {
    const c = await cast();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await open(c.employee))._id);
    // Three moved in the same microsecond: the cursor's id keeps them apart.
    await app.db.execute(sql`update efiles set moved_at = '2026-11-21 10:15:30.123456+05:30'
      where id in (${sql.join(
        made.slice(1, 4).map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`);
    const pages = await walk(c.employee, 'with_me', 2);
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(pages.flat()).toEqual(await inOrder(made));
    // One page holds them all when it may: no cursor then.
    const all = ok(await call('GET', c.employee, '/api/efiles?box=with_me&limit=100')).json();
    expect([all.files.length, all.nextCursor]).toEqual([5, null]);
    // The default page is the project's (20), and nobody else finds them in their boxes.
    expect(ok(await call('GET', c.employee, '/api/efiles')).json().files).toHaveLength(5);
    for (const box of ['with_me', 'created', 'closed']) expect((await walk(c.outsider, box, 5)).flat()).toEqual([]);
  });

  it('pages each box: created, sent and not yet received, parked, closed, copies', async () => {
    const c = await cast();
    const two = async (then: (id: string) => Promise<unknown>) => {
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) {
        const { _id } = await open(c.employee, { ownerGroupId: c.group.id });
        await then(_id);
        ids.push(_id);
      }
      return ids;
    };
    const held = await two(async () => undefined);
    const parked = await two(async (id) => ok(await call('POST', c.employee, `/api/efiles/${id}/park`, {})));
    const closed = await two(async (id) => ok(await call('POST', c.employee, `/api/efiles/${id}/close`, {})));
    const sent = await two(async (id) => ok(await send(c.employee, id, c.gh.id, { copies: [c.colleague.id] })));
    const expectBox = async (user: Who, box: string, ids: string[]) => {
      const pages = await walk(user, box, 1);
      expect(pages.map((p) => p.length)).toEqual([1, 1]);
      expect(pages.flat()).toEqual(await inOrder(ids));
    };
    await expectBox(c.employee, 'with_me', held);
    await expectBox(c.employee, 'parked', parked);
    await expectBox(c.employee, 'closed', closed);
    await expectBox(c.employee, 'sent', sent);
    await expectBox(c.colleague, 'copies', sent);
    await expectBox(c.gh, 'with_me', sent);
    expect((await walk(c.employee, 'created', 3)).flat()).toEqual(
      await inOrder([...held, ...parked, ...closed, ...sent]),
    );
  });

  it.each([
    ['?cursor=abc', 'This list has changed. Please open it again.', 'cursor'],
    [`?cursor=${Buffer.from('["2024-13-45 25:61:00+00","x"]').toString('base64url')}`, undefined, 'cursor'],
    ['?limit=500', undefined, 'limit'],
    ['?limit=0', undefined, 'limit'],
    ['?box=mine', undefined, 'box'],
  ])('refuses %s with a 400', async (query, message, field) => {
    const c = await cast();
    const res = await call('GET', c.employee, `/api/efiles${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().field).toBe(field);
    if (message) expect(res.json().message).toBe(message);
  });

  it('is for those signed in', async () => {
    expect((await call('GET', null, '/api/efiles?box=with_me')).statusCode).toBe(401);
  });
});
