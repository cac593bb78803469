import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { auditEvents, users } from '#server/db/schema/index.ts';
import { createUser, letterFields, letterPdf, postLetter, tokenFor } from '#server/test/factories.ts';

import { app, call, cast, ok, open, receive, send, view } from './efiles.test-helpers.ts';

// Classified e-files (decision 107) under the letters' clearance, the step-up (decision 095) and the audit trail
// (decision 070); and a letter put in a file, which then shows "in file <number>".

const eventsOf = (objectId: string) =>
  app.db.select().from(auditEvents).where(eq(auditEvents.objectId, objectId)).orderBy(asc(auditEvents.seq));
const detailsOf = (e: { details: string | null }) => (e.details ? JSON.parse(e.details) : null);

describe('a classified e-file', () => {
  it('goes only to the cleared, and is hidden from an uncleared head', async () => {
    const c = await cast();
    const file = await open(c.director, { classification: 'Confidential', ownerGroupId: c.group.id });
    let res = await send(c.director, file._id, c.employee.id);
    expect([res.statusCode, res.json().code]).toEqual([400, 'efiles.officer_not_cleared']);
    expect(res.json().message).toBe('Asha Verma is not cleared for Confidential files. Please choose another officer.');
    expect((await view(c.gh, file._id)).statusCode).toBe(404);
    await app.db.update(users).set({ classifiedClearance: true }).where(eq(users.id, c.gh.id));
    ok(await view(c.gh, file._id));
    res = await send(c.director, file._id, c.gh.id);
    ok(res);
    // Every opening above Unclassified is in the audit trail.
    const events = await eventsOf(file._id);
    expect(events.map((e) => [e.action, e.outcome])).toEqual([
      ['access_refused', 'refused'],
      ['efile_viewed', 'success'],
    ]);
    expect(events[0]!.classification).toBe('Confidential');
    expect(detailsOf(events[0]!)).toMatchObject({ code: 'efiles.not_found', attempted: 'efile_viewed' });
  });

  it('needs a fresh check to open a Secret file, refusal and opening both recorded', async () => {
    const c = await cast();
    const file = await open(c.director, { classification: 'Secret', ownerGroupId: c.group.id });
    const stale = await tokenFor(app, c.director, { verifiedAt: new Date(Date.now() - 30 * 60_000) });
    const res = await app.inject({ url: `/api/efiles/${file._id}`, headers: { authorization: `Bearer ${stale}` } });
    expect([res.statusCode, res.json().code]).toEqual([401, 'auth.step_up_required']);
    const move = await app.inject({
      method: 'POST',
      url: `/api/efiles/${file._id}/park`,
      payload: {},
      headers: { authorization: `Bearer ${stale}` },
    });
    expect(move.statusCode).toBe(401);
    ok(await view(c.director, file._id));
    const events = await eventsOf(file._id);
    expect(events.map((e) => [e.action, detailsOf(e)?.code ?? null])).toEqual([
      ['access_refused', 'auth.step_up_required'],
      ['efile_viewed', null],
    ]);
  });

  it('records nothing for an Unclassified file', async () => {
    const c = await cast();
    const file = await open(c.employee);
    ok(await view(c.employee, file._id));
    expect(await eventsOf(file._id)).toEqual([]);
  });
});

describe('putting a letter in a file', () => {
  it('makes it C/n, shows "in file <number>" to those who may see the file, and only once', async () => {
    const c = await cast();
    const uploaded = await postLetter(
      app,
      c.employee,
      letterFields({ letterSub: 'Fire NOC from the state' }),
      letterPdf(),
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const letter = uploaded.json() as { _id: string; letterId: string };
    const file = await open(c.employee, { letterId: letter._id });
    const seen = ok(await view(c.employee, file._id)).json();
    expect(seen.items[0]).toMatchObject({ ref: 'C/1', kind: 'letter', letter: { letterId: letter.letterId } });
    const inFile = ok(await call('GET', c.employee, `/api/efiles/of-letter/${letter._id}`)).json();
    expect(inFile.efile).toEqual({ _id: file._id, number: file.number });
    expect(ok(await call('GET', c.outsider, `/api/efiles/of-letter/${letter._id}`)).json().efile).toBeNull();
    const second = await open(c.employee);
    const res = await call('POST', c.employee, `/api/efiles/${second._id}/items/letter`, { letterId: letter._id });
    expect([res.statusCode, res.json().message]).toEqual([409, `This letter is already in file ${file.number}.`]);
    // A letter the holder may not see is not found.
    const stranger = await createUser(app, 'employee');
    const other = await postLetter(app, stranger, letterFields(), letterPdf());
    const refused = await call('POST', c.employee, `/api/efiles/${second._id}/items/letter`, {
      letterId: other.json()._id,
    });
    expect([refused.statusCode, refused.json().code]).toEqual([404, 'letters.not_found']);
    // A note may cite the letter by its number.
    ok(
      await call('POST', c.employee, `/api/efiles/${file._id}/notes`, {
        body: { blocks: [{ t: 'p', c: [{ text: 'See ' }, { ref: 'C/1' }] }] },
      }),
      201,
    );
    void receive;
  });
});
