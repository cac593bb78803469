import { and, asc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { auditEvents, letterHistory, letterMovements, letters, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser, letterFields, letterPdf, postLetter } from '#server/test/factories.ts';

// Decision 045: a letter is not made Confidential or Secret while an officer who is not cleared for it holds it
// (marked to them and not yet closed, forwarded or sent back): they could neither receive nor send it back, while
// pendency showed them holding it. Refused with 409 naming the holders, as withdrawing a holder's clearance is.

const app = await buildTestApp();

const call = async (
  method: 'GET' | 'POST' | 'PUT',
  user: UserRow,
  url: string,
  payload?: object,
): Promise<LightMyRequestResponse> =>
  app.inject({ method, url, ...(payload ? { payload } : {}), headers: await authHeaders(app, user) });

async function upload(owner: UserRow) {
  const res = await postLetter(app, owner, letterFields(), letterPdf());
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { _id: string };
}

const mark = async (user: UserRow, id: string, to: UserRow[]) => {
  const res = await call('POST', user, `/api/dac/${id}/movements`, { to: to.map((u) => u.id) });
  expect(res.statusCode, res.body).toBe(201);
};

/** An admin's PUT /api/dac/{id} that changes the classification only. */
const reclassify = (admin: UserRow, id: string, classification: string) =>
  call('PUT', admin, `/api/dac/${id}`, { ...letterFields(), classification });

const classificationOf = async (id: string) =>
  (await app.db.select({ c: letters.classification }).from(letters).where(eq(letters.id, id)))[0]!.c;

describe('reclassifying a letter someone holds (PUT /api/dac/{id})', () => {
  it('refuses Confidential or Secret while uncleared officers hold it (409, naming them), and writes nothing', async () => {
    const owner = await createUser(app);
    const admin = await createUser(app, 'admin');
    const ravi = await createUser(app, 'employee', { name: 'Ravi Kumar' });
    const asha = await createUser(app, 'employee', { name: 'Asha Verma' });
    const letter = await upload(owner);
    await mark(owner, letter._id, [ravi, asha]);
    expect((await call('POST', ravi, `/api/dac/${letter._id}/receive`)).statusCode).toBe(200);

    const secret = await reclassify(admin, letter._id, 'Secret');
    expect(secret.statusCode).toBe(409);
    expect(secret.json()).toEqual({
      error:
        'This letter is held by Asha Verma and Ravi Kumar, who are not cleared for Secret letters. It must be closed or marked to someone else first.',
      message:
        'This letter is held by Asha Verma and Ravi Kumar, who are not cleared for Secret letters. It must be closed or marked to someone else first.',
      field: 'classification',
      code: 'letters.holder_not_cleared',
      params: { count: 2, names: 'Asha Verma', last: 'Ravi Kumar', classification: 'Secret' },
    });
    expect(await classificationOf(letter._id)).toBe('Normal');
    const moves = await app.db.select().from(letterMovements).where(eq(letterMovements.letterId, letter._id));
    expect(moves.map((m) => m.classified)).toEqual([false, false]);
    const history = await app.db.select().from(letterHistory).where(eq(letterHistory.letterId, letter._id));
    expect(history.map((h) => h.action)).toEqual(['uploaded']);

    // One of them closes it: the other still holds it, pending.
    expect((await call('POST', ravi, `/api/dac/${letter._id}/close`, { disposal: 'Noted' })).statusCode).toBe(200);
    const confidential = await reclassify(admin, letter._id, 'Confidential');
    expect(confidential.statusCode).toBe(409);
    expect(confidential.json().message).toBe(
      'This letter is held by Asha Verma, who is not cleared for Confidential letters. It must be closed or marked to someone else first.',
    );
    // The letter is not stuck: its holder still receives it and may send it back.
    expect((await call('POST', asha, `/api/dac/${letter._id}/receive`)).statusCode).toBe(200);
    const back = await call('POST', asha, `/api/dac/${letter._id}/return`, { remarks: 'Not mine' });
    expect(back.statusCode, back.body).toBe(200);
  });

  it('raises a letter nobody holds, and one held only by cleared officers, directors or admins', async () => {
    const owner = await createUser(app, 'director');
    const admin = await createUser(app, 'admin');
    const director = await createUser(app, 'director');
    const cleared = await createUser(app, 'employee', { name: 'Meena Iyer' });
    expect((await call('PUT', admin, `/admin/users/${cleared.id}/clearance`, { cleared: true })).statusCode).toBe(200);

    const unmarked = await upload(owner);
    const raised = await reclassify(admin, unmarked._id, 'Secret');
    expect(raised.statusCode, raised.body).toBe(200);
    expect(raised.json().classification).toBe('Secret');

    const held = await upload(owner);
    await mark(owner, held._id, [cleared, director, admin]);
    const res = await reclassify(admin, held._id, 'Confidential');
    expect(res.statusCode, res.body).toBe(200);
    expect(await classificationOf(held._id)).toBe('Confidential');
    const moves = await app.db.select().from(letterMovements).where(eq(letterMovements.letterId, held._id));
    expect(moves.map((m) => m.classified)).toEqual([true, true, true]);
    // And then to Secret, with the same holders; the cleared officer still receives it.
    expect((await reclassify(admin, held._id, 'Secret')).statusCode).toBe(200);
    expect((await call('POST', cleared, `/api/dac/${held._id}/receive`)).statusCode).toBe(200);
    // Each change of class is in the audit trail, by whom, from what to what (decision 069); an edit that keeps the
    // class records nothing there.
    expect(
      (
        await call('PUT', admin, `/api/dac/${held._id}`, {
          ...letterFields(),
          letterNo: 'X/2',
          classification: 'Secret',
        })
      ).statusCode,
    ).toBe(200);
    const events = await app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.objectId, held._id), eq(auditEvents.action, 'classification_changed')))
      .orderBy(asc(auditEvents.seq));
    expect(events.map((e) => [e.actorId, e.actorRole, e.classification, JSON.parse(e.details!)])).toEqual([
      [admin.id, 'admin', 'Confidential', { from: 'Normal', to: 'Confidential' }],
      [admin.id, 'admin', 'Secret', { from: 'Confidential', to: 'Secret' }],
    ]);
    expect(events[0]).toMatchObject({ objectType: 'letter', outcome: 'success' });
  });

  it('a clearance withdrawn at the same moment: one of the two is refused, never both done', async () => {
    const admin = await createUser(app, 'admin');
    const owner = await createUser(app, 'director');
    for (let round = 0; round < 4; round++) {
      const officer = await createUser(app, 'employee', { classifiedClearance: true });
      const letter = await upload(owner);
      await mark(owner, letter._id, [officer]);
      const [raise, withdraw] = await Promise.all([
        reclassify(admin, letter._id, 'Secret'),
        call('PUT', admin, `/admin/users/${officer.id}/clearance`, { cleared: false }),
      ]);
      expect([raise.statusCode, withdraw.statusCode].sort(), `${raise.body} ${withdraw.body}`).toEqual([200, 409]);
    }
  });
});
