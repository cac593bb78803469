import { randomUUID } from 'node:crypto';

import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { letterMovements, notifications, users } from '#server/db/schema/index.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';

import { addDays, app, mark, upload } from './letters.movements.test-helpers.ts';

// Issue 34: a person's own reads (letters, dak inbox and badge, bell, acknowledgements) are kept per person and
// address under the versions every signed-in request reads with its session check (server/lib/personal-answers.ts,
// migration 0034). A write, through this app or straight into the database (another node), is seen at the next read.

const personalVersion = async () =>
  Number(
    (await app.pgPool.query<{ v: string }>('select coalesce((select personal from read_versions), 0)::text as v'))
      .rows[0]!.v,
  );

describe("kept answers of a person's own reads", () => {
  it('answers the same bytes with an ETag (304 when the browser has them) until the dak changes', async () => {
    const officer = await createUser(app, 'associate_director');
    const owner = await createUser(app);
    const headers = await authHeaders(app, officer);
    const ask = (extra: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url: '/api/dac/inbox/count', headers: { ...headers, ...extra } });
    const first = await ask();
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await ask();
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect((await ask({ 'if-none-match': String(first.headers.etag) })).statusCode).toBe(304);

    // Marked through the portal: the next read counts it.
    const letter = await upload(owner);
    expect((await mark(owner, letter._id, { to: [officer.id], dueDate: addDays(3) })).statusCode).toBe(201);
    const marked = await ask({ 'if-none-match': String(first.headers.etag) });
    expect(marked.statusCode).toBe(200);
    expect(marked.json()).not.toEqual(first.json());
    const inboxBefore = await app.inject({ method: 'GET', url: '/api/dac/inbox', headers });
    expect(inboxBefore.json().letters.map((l: { _id: string }) => l._id)).toEqual([letter._id]);

    // Closed by another node (a write straight into the database): the next read no longer lists it.
    await app.db.update(letterMovements).set({ box: 'closed' }).where(eq(letterMovements.letterId, letter._id));
    const inboxAfter = await app.inject({ method: 'GET', url: '/api/dac/inbox', headers });
    expect(inboxAfter.json().letters).toEqual([]);
    expect((await ask()).json()).toEqual(first.json());
  });

  it("never gives one person's answer to another who asks the same address", async () => {
    const owner = await createUser(app);
    const other = await createUser(app);
    const letter = await upload(owner);
    const mine = await app.inject({ method: 'GET', url: '/api/dac?mine=true', headers: await authHeaders(app, owner) });
    const theirs = await app.inject({
      method: 'GET',
      url: '/api/dac?mine=true',
      headers: await authHeaders(app, other),
    });
    expect(mine.json().map((l: { _id: string }) => l._id)).toEqual([letter._id]);
    expect(theirs.json()).toEqual([]);
    expect(theirs.headers['x-total-count']).toBe('0');
    expect(mine.headers['x-total-count']).toBe('1');
  });

  it('follows the person: a director made an employee no longer sees every letter at the next read', async () => {
    const owner = await createUser(app);
    const director = await createUser(app, 'director');
    const letter = await upload(owner);
    const headers = await authHeaders(app, director);
    const ids = async () =>
      (await app.inject({ method: 'GET', url: '/api/dac/page?limit=100', headers }))
        .json()
        .letters.map((l: { _id: string }) => l._id);
    expect(await ids()).toContain(letter._id);
    await app.db.update(users).set({ role: 'employee' }).where(eq(users.id, director.id));
    expect(await ids()).not.toContain(letter._id);
  });

  it('keeps the paging headers with the page, and a tampered cursor is still a 400', async () => {
    const owner = await createUser(app);
    const headers = await authHeaders(app, owner);
    for (let i = 0; i < 3; i++) await upload(owner);
    const page = async () => app.inject({ method: 'GET', url: '/api/dac?mine=true&limit=2', headers });
    const first = await page();
    const kept = await page();
    for (const res of [first, kept]) {
      expect(res.headers['x-total-count']).toBe('3');
      expect(res.headers.link).toBe('</api/dac?mine=true&limit=2&offset=2>; rel="next"');
    }
    const bad = await app.inject({ method: 'GET', url: '/api/dac/page?cursor=nonsense', headers });
    expect(bad.statusCode).toBe(400);
  });

  it('moves the version once per transaction, at its commit, and not for a rollback', async () => {
    const person = await createUser(app);
    const before = await personalVersion();
    await app.db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++)
        await tx.insert(notifications).values({
          userId: person.id,
          kind: 'letter_marked',
          subjectType: 'letter',
          subjectId: person.id,
          sourceId: randomUUID(),
        });
      // not yet: the row is moved at the commit, after every other row the transaction writes
      expect(await personalVersion()).toBe(before);
    });
    expect(await personalVersion()).toBe(before + 1);
    await app.db
      .transaction(async (tx) => {
        await tx.execute(sql`delete from notifications where user_id = ${person.id}`);
        tx.rollback();
      })
      .catch(() => undefined);
    expect(await personalVersion()).toBe(before + 1);
  });
});
