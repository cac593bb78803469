import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { auditEvents, type UserRow } from '#server/db/schema/index.ts';
import { createUser, tokenFor } from '#server/test/factories.ts';

import { app, call, mark, upload } from './letters.movements.test-helpers.ts';

/**
 * Openings of Confidential and Secret letters in the audit trail (decision 070): the card by id, the
 * history, the dak trail and reading in the inbox, each recorded before it is answered; refusals recorded whatever
 * they answer; a search result's opening recorded as such; Normal letters and lists not at all.
 */

const eventsOf = (objectId: string) =>
  app.db.select().from(auditEvents).where(eq(auditEvents.objectId, objectId)).orderBy(asc(auditEvents.seq));
const detailsOf = (e: { details: string | null }) => (e.details ? JSON.parse(e.details) : null);

const opened = (who: UserRow, url: string) => call('GET', who, url);

describe('opening a classified letter is recorded before it is answered', () => {
  it('records its card, history and dak trail, with the person, their role, client and the classification', async () => {
    const owner = await createUser(app, 'employee', { name: 'Kavita Menon' });
    const letter = await upload(owner, { classification: 'Confidential' });
    for (const url of [
      `/api/dac/${letter._id}`,
      `/api/dac/${letter._id}/history`,
      `/api/dac/${letter._id}/movements`,
    ]) {
      expect((await opened(owner, url)).statusCode, url).toBe(200);
    }
    const events = await eventsOf(letter._id);
    expect(events.map((e) => [e.action, e.outcome, detailsOf(e)])).toEqual([
      ['letter_viewed', 'success', { via: 'card' }],
      ['letter_viewed', 'success', { via: 'history' }],
      ['letter_viewed', 'success', { via: 'movements' }],
    ]);
    expect(events[0]).toMatchObject({
      actorId: owner.id,
      actorName: 'Kavita Menon',
      actorRole: 'employee',
      clientAddress: '127.0.0.1',
      objectType: 'letter',
      objectLabel: letter.letterId,
      classification: 'Confidential',
    });
  });

  it('records nothing for a Normal letter, nor for a list that shows a classified one', async () => {
    const owner = await createUser(app, 'employee');
    const normal = await upload(owner);
    const secret = await upload(owner, { classification: 'Secret' });
    expect((await opened(owner, `/api/dac/${normal._id}`)).statusCode).toBe(200);
    expect((await opened(owner, `/api/dac?q=${encodeURIComponent(secret.letterSub)}`)).json()).toHaveLength(1);
    expect(await eventsOf(normal._id)).toEqual([]);
    expect(await eventsOf(secret._id)).toEqual([]);
  });

  it('records a refusal, though the answer is a 404 that does not tell the person the letter exists', async () => {
    const owner = await createUser(app, 'director');
    const stranger = await createUser(app, 'employee');
    const letter = await upload(owner, { classification: 'Secret' });
    const res = await opened(stranger, `/api/dac/${letter._id}/history`);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('letters.not_found');
    const [event] = await eventsOf(letter._id);
    expect(event).toMatchObject({ action: 'access_refused', outcome: 'refused', actorId: stranger.id });
    expect(event!.classification).toBe('Secret');
    expect(detailsOf(event!)).toEqual({ code: 'letters.not_found', status: 404, attempted: 'letter_viewed' });
  });

  it('records the refusal of a Secret letter without a fresh check (401), then its opening after one', async () => {
    const director = await createUser(app, 'director');
    const letter = await upload(director, { classification: 'Secret' });
    const stale = await tokenFor(app, director, { verifiedAt: new Date(Date.now() - 30 * 60_000) });
    const res = await app.inject({ url: `/api/dac/${letter._id}`, headers: { authorization: `Bearer ${stale}` } });
    expect(res.statusCode).toBe(401);
    expect((await opened(director, `/api/dac/${letter._id}`)).statusCode).toBe(200);
    const events = await eventsOf(letter._id);
    expect(events.map((e) => [e.action, detailsOf(e)?.code ?? null])).toEqual([
      ['access_refused', 'auth.step_up_required'],
      ['letter_viewed', null],
    ]);
  });

  it('records an opening from a search result (?from=search) as a search hit opened', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner, { classification: 'Secret' });
    expect((await opened(owner, `/api/dac/${letter._id}?from=search`)).statusCode).toBe(200);
    // Any other value is no marker, and never a refusal.
    expect((await opened(owner, `/api/dac/${letter._id}?from=elsewhere`)).statusCode).toBe(200);
    const events = await eventsOf(letter._id);
    expect(events.map((e) => [e.action, detailsOf(e)])).toEqual([
      ['search_hit_opened', { opened: 'letter_viewed', via: 'card' }],
      ['letter_viewed', { via: 'card' }],
    ]);
  });

  it('records each reading in the inbox (POST /read), and the refusal of someone it was not marked to', async () => {
    const director = await createUser(app, 'director');
    const officer = await createUser(app, 'employee', { classifiedClearance: true });
    const other = await createUser(app, 'employee', { classifiedClearance: true });
    const letter = await upload(director, { classification: 'Confidential' });
    expect((await mark(director, letter._id, { to: [officer.id] })).statusCode).toBe(201);
    expect((await call('POST', officer, `/api/dac/${letter._id}/read`)).statusCode).toBe(200);
    expect((await call('POST', officer, `/api/dac/${letter._id}/read`)).statusCode).toBe(200); // read before
    expect((await call('POST', other, `/api/dac/${letter._id}/read`)).statusCode).toBe(404);
    const events = (await eventsOf(letter._id)).map((e) => [e.actorId, e.action, detailsOf(e)]);
    expect(events).toEqual([
      [officer.id, 'letter_viewed', { via: 'inbox' }],
      [officer.id, 'letter_viewed', { via: 'inbox' }],
      [other.id, 'access_refused', { code: 'letters.not_found', status: 404, attempted: 'letter_viewed' }],
    ]);
  });
});
