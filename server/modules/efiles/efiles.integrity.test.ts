import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { asDatabaseOwner } from '#server/test/app.ts';

import { app, call, cast, note, ok, open, receive, send, view } from './efiles.test-helpers.ts';

// What the database itself guarantees (decision 107): a permanent note is never changed nor removed, by anyone; and of
// two racing moves exactly one wins.

/** The database's own words of a refused statement (Drizzle wraps the driver's error as its cause). */
const refusal = async (query: Promise<unknown>): Promise<string> => {
  const err = (await query.then(
    () => null,
    (e: unknown) => e,
  )) as { message?: string; cause?: { message?: string } } | null;
  return err ? (err.cause?.message ?? err.message ?? '') : 'not refused';
};

describe('a permanent note', () => {
  it('is refused an UPDATE or DELETE through SQL, even by the database owner; a draft is not', async () => {
    const c = await cast();
    const file = await open(c.employee);
    ok(await call('POST', c.employee, `/api/efiles/${file._id}/notes`, note('The draft.')), 201);
    const draft = sql`efile_id = ${file._id} and seq = 1`;
    // A draft changes freely (the service versions it).
    await app.db.execute(sql`update efile_notes set text = 'draft edited' where ${draft}`);
    ok(await send(c.employee, file._id, c.colleague.id)); // to a peer: the note becomes permanent
    for (const db of [app.db, asDatabaseOwner(app)]) {
      expect(await refusal(db.execute(sql`update efile_notes set text = 'forged' where ${draft}`))).toMatch(
        /permanent and cannot be changed or removed/,
      );
      expect(await refusal(db.execute(sql`delete from efile_notes where ${draft}`))).toMatch(/permanent/);
    }
    const [row] = (await app.db.execute<{ text: string }>(sql`select text from efile_notes where ${draft}`)).rows;
    expect(row!.text).toBe('draft edited');
    // And through the API.
    ok(await receive(c.colleague, file._id));
    const seen = ok(await view(c.colleague, file._id)).json();
    const res = await call('DELETE', c.colleague, `/api/efiles/${file._id}/notes/${seen.notes[0]._id}`);
    expect([res.statusCode, res.json().code]).toEqual([409, 'efiles.note_permanent']);
  });
});

describe('racing moves', () => {
  it('let one of a receive and a pull back win', async () => {
    const c = await cast();
    const file = await open(c.employee);
    ok(await send(c.employee, file._id, c.gh.id));
    const results = await Promise.all([
      receive(c.gh, file._id),
      call('POST', c.employee, `/api/efiles/${file._id}/pull-back`),
    ]);
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, 409]);
    const moves = ok(await call('GET', c.employee, `/api/efiles/${file._id}/movements`)).json();
    const sent = moves.find((m: { kind: string }) => m.kind === 'sent');
    const pulled = moves.some((m: { kind: string }) => m.kind === 'pulled_back');
    // Either it was received (and not pulled back) or pulled back (and never received).
    expect(Boolean(sent.receivedAt)).toBe(!pulled);
  });

  it('let one of two receives, and one of two pull backs, win', async () => {
    const c = await cast();
    const file = await open(c.employee);
    ok(await send(c.employee, file._id, c.gh.id));
    const receives = await Promise.all([receive(c.gh, file._id), receive(c.gh, file._id)]);
    expect(receives.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const second = await open(c.employee);
    ok(await send(c.employee, second._id, c.gh.id));
    const pulls = await Promise.all([
      call('POST', c.employee, `/api/efiles/${second._id}/pull-back`),
      call('POST', c.employee, `/api/efiles/${second._id}/pull-back`),
    ]);
    expect(pulls.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });
});
