import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { letterMovements } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser, letterFields, letterPdf, postLetter } from '#server/test/factories.ts';

// Decision 029: inputs of the dak calls that answered 500 are a clear 4xx.

const app = await buildTestApp();

/** A cursor as the server hands them out: base64url JSON of [timestamp text, movement or letter id]. */
const cursor = (at: string, id = '0b7e2c1a-3f4d-4e5f-8a9b-0c1d2e3f4a5b') =>
  Buffer.from(JSON.stringify([at, id])).toString('base64url');

describe('GET /api/dac/inbox with a forged cursor', () => {
  it.each([
    ['a time that does not exist', '2026-11-21 99:99:99+05:30'],
    ['an offset of 99 hours', '2026-11-21 10:15:30+99'],
    ['an offset of 99 minutes', '2026-11-21 10:15:30+05:99'],
    ['a time of six parts', '2026-11-21 1:2:3.4.5.6+00'],
    ['a day that does not exist', '2026-02-30 10:15:30+00'],
  ])('refuses %s with a 400 and letters.bad_cursor', async (_what, at) => {
    const user = await createUser(app);
    const res = await app.inject({
      method: 'GET',
      url: `/api/dac/inbox?cursor=${cursor(at)}`,
      headers: await authHeaders(app, user),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({
      error: 'This list has changed. Please open it again.',
      message: 'This list has changed. Please open it again.',
      field: 'cursor',
      code: 'letters.bad_cursor',
    });
  });

  it('still pages with the cursors it hands out', async () => {
    const owner = await createUser(app);
    const officer = await createUser(app);
    for (let i = 0; i < 3; i++) {
      const letter = (await postLetter(app, owner, letterFields(), letterPdf())).json();
      const res = await app.inject({
        method: 'POST',
        url: `/api/dac/${letter._id}/movements`,
        payload: { to: [officer.id] },
        headers: await authHeaders(app, owner),
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const page = async (url: string): Promise<LightMyRequestResponse> =>
      app.inject({ method: 'GET', url, headers: await authHeaders(app, officer) });
    const first = (await page('/api/dac/inbox?limit=2')).json();
    expect(first.letters).toHaveLength(2);
    const second = await page(`/api/dac/inbox?limit=2&cursor=${first.next}`);
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().letters).toHaveLength(1);
  });
});

describe('POST /api/dac/{id}/movements with an upper-case id in "to"', () => {
  it('marks the letter to that officer: the same id as the lower-case one', async () => {
    const owner = await createUser(app);
    const officer = await createUser(app, 'employee', { name: 'Kavita Rao' });
    const letter = (await postLetter(app, owner, letterFields(), letterPdf())).json();
    const res = await app.inject({
      method: 'POST',
      url: `/api/dac/${letter._id}/movements`,
      payload: { to: [officer.id.toUpperCase()], remarks: 'Please see' },
      headers: await authHeaders(app, owner),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject([{ to: { _id: officer.id, name: 'Kavita Rao' }, remarks: 'Please see' }]);
    const moves = await app.db.select().from(letterMovements).where(eq(letterMovements.letterId, letter._id));
    expect(moves.map((m) => m.toUserId)).toEqual([officer.id]);
  });

  it('counts an id sent in both cases as the same officer chosen twice (400)', async () => {
    const owner = await createUser(app);
    const officer = await createUser(app);
    const letter = (await postLetter(app, owner, letterFields(), letterPdf())).json();
    const res = await app.inject({
      method: 'POST',
      url: `/api/dac/${letter._id}/movements`,
      payload: { to: [officer.id, officer.id.toUpperCase()] },
      headers: await authHeaders(app, owner),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ message: 'The same officer is chosen twice.', field: 'to' });
    expect(await app.db.select().from(letterMovements).where(eq(letterMovements.letterId, letter._id))).toEqual([]);
  });
});
