import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

import { eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';

import { letterMovements, notifications, users } from '#server/db/schema/index.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';

import { addDays, app, mark, upload } from './letters.movements.test-helpers.ts';

// Decision 089: a person's own reads (letters, dak inbox and badge, bell, acknowledgements) are kept per person and
// address under the versions every signed-in request reads with its session check (server/lib/personal-cache.ts,
// migration 0034). A write, through this app or straight into the database (another node), is seen at the next read.

const personalVersion = async () =>
  Number(
    (await app.pgPool.query<{ v: string }>('select coalesce((select personal from read_versions), 0)::text as v'))
      .rows[0]!.v,
  );

/**
 * Counts the statements the app sends through its pool whose text holds `marker`, from now until `stop()`: a spy that
 * lets every statement through to the database, which answers them all.
 */
function countStatements(marker: string) {
  const spy = vi.spyOn(app.pgPool, 'query');
  const textOf = (q: unknown) => (typeof q === 'string' ? q : ((q as { text?: string } | undefined)?.text ?? ''));
  return {
    n: () => spy.mock.calls.filter(([q]) => textOf(q).includes(marker)).length,
    stop: () => spy.mockRestore(),
  };
}

/** The badge's own statement (letters.inbox.ts countInbox), and the badge of someone with nothing marked to them. */
const INBOX_COUNT = `count(*) filter (where "letter_movements"."box" = 'pending')`;
const NOTHING = { pending: 0, unread: 0, overdue: 0, overdueByBox: { pending: 0, received: 0 } };

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

  it('makes an answer once for the requests of one person that ask one address at once, and once for each person', async () => {
    const officer = await createUser(app, 'associate_director');
    const other = await createUser(app, 'associate_director');
    const owner = await createUser(app);
    const letter = await upload(owner);
    expect((await mark(owner, letter._id, { to: [officer.id], dueDate: addDays(3) })).statusCode).toBe(201);
    const mine = await authHeaders(app, officer);
    const theirs = await authHeaders(app, other);
    const counted = countStatements(INBOX_COUNT);
    try {
      // six tabs each, opened together, right after the marking moved the version
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          app.inject({ method: 'GET', url: '/api/dac/inbox/count', headers: i % 2 ? theirs : mine }),
        ),
      );
      expect(counted.n()).toBe(2);
      const bodies = answers.map((res) => res.json());
      expect(bodies.filter((_, i) => i % 2 === 0)).toEqual(
        Array(6).fill({ pending: 1, unread: 1, overdue: 0, overdueByBox: { pending: 0, received: 0 } }),
      );
      expect(bodies.filter((_, i) => i % 2 === 1)).toEqual(Array(6).fill(NOTHING));
    } finally {
      counted.stop();
    }
  });

  it("keeps no failure, and does not pass one request's failure on to those who waited for its answer", async () => {
    const officer = await createUser(app, 'associate_director');
    const headers = await authHeaders(app, officer);
    const ask = () => app.inject({ method: 'GET', url: '/api/dac/inbox/count', headers });
    // The badge's statements waiting for the lock below (the badge reads the officer's delegations first).
    const DELEGATIONS = 'from "dak_delegations"';
    const waitingForLock = async () =>
      (
        await app.pgPool.query<{ pid: number }>(
          `select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
             and wait_event_type = 'Lock' and query like $1`,
          [`%${DELEGATIONS}%`],
        )
      ).rows.map((r) => r.pid);
    const untilWaiting = async () => {
      for (let i = 0; i < 1000; i++) {
        const pids = await waitingForLock();
        if (pids.length) return pids;
        await sleep(10);
      }
      throw new Error('no statement waited for the lock');
    };
    const lock = await app.pgPool.connect();
    const counted = countStatements(DELEGATIONS);
    try {
      await lock.query('begin');
      await lock.query('lock table dak_delegations in access exclusive mode');
      const first = ask();
      const [making] = await untilWaiting();
      const waiters = [ask(), ask(), ask()];
      await sleep(300);
      // They wait for the answer being made rather than make it again: one statement waits, not four.
      expect(await waitingForLock()).toEqual([making]);
      // That making fails (its statement cancelled): its own request gets the failure...
      await app.pgPool.query('select pg_cancel_backend($1)', [making]);
      expect((await first).statusCode).toBe(500);
      // ...and those who waited make the answer once more, together, once the lock is gone.
      expect(await untilWaiting()).toHaveLength(1);
      await lock.query('rollback');
      for (const res of await Promise.all(waiters)) {
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual(NOTHING);
      }
      expect(counted.n()).toBe(2);
      // Kept now: the next read makes nothing.
      expect((await ask()).json()).toEqual(NOTHING);
      expect(counted.n()).toBe(2);
    } finally {
      await lock.query('rollback').catch(() => undefined);
      lock.release();
      counted.stop();
    }
  });
});
