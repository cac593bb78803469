import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { letterMovements, users } from '#server/db/schema/index.ts';
import { createUser } from '#server/test/factories.ts';

import { addDays, app, call, count, inbox, mark, upload } from './letters.movements.test-helpers.ts';

// Decision 099: "Sent" in Marked to Me (GET /api/dac/inbox?status=sent), the letter's whereabouts on its card, and the
// inbox's overdue count told per box.

type Holder = { _id: string; name: string; designation: string; status: string; receivedAt: string | null };
type Dak = { holders: Holder[]; closed: { by: { _id: string; name: string }; at: string } | null } | null;
type SentLetter = {
  _id: string;
  dak: Dak;
  movement: { _id: string; to: { _id: string }; status: string; outcome: string | null; forInformation: boolean };
};

const sent = async (user: Parameters<typeof inbox>[0], query = '') => {
  const res = await call('GET', user, `/api/dac/inbox?status=sent${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return { res, body: res.json() as { letters: SentLetter[]; next: string | null } };
};

describe('GET /api/dac/inbox?status=sent', () => {
  it('lists my markings and copies, newest first, a page at a time with X-Total-Count and Link', async () => {
    const me = await createUser(app, 'employee', { name: 'Asha Verma' });
    const ravi = await createUser(app, 'associate_director', { name: 'Ravi Kumar', designation: 'Scientist D' });
    const meena = await createUser(app, 'employee', { name: 'Meena Iyer' });
    const made = [];
    for (let i = 0; i < 3; i++) {
      const l = await upload(me);
      expect((await mark(me, l._id, { to: [ravi.id], info: i === 2 ? [meena.id] : [] })).statusCode).toBe(201);
      made.push(l);
    }
    const first = await sent(me, '&limit=2');
    expect(first.res.headers['x-total-count']).toBe('4'); // three markings and one copy
    expect(first.body.letters.map((l) => l._id)).toEqual([made[2]!._id, made[2]!._id]);
    expect(first.body.letters.map((l) => l.movement.forInformation).sort()).toEqual([false, true]);
    const link = String(first.res.headers.link);
    expect(link).toMatch(/^<\/api\/dac\/inbox\?status=sent&limit=2&cursor=[^>]+>; rel="next"$/);
    const second = await sent(me, `&limit=2&cursor=${first.body.next}`);
    expect(link).toContain(`cursor=${encodeURIComponent(first.body.next!)}`);
    expect(second.body.letters.map((l) => l._id)).toEqual([made[1]!._id, made[0]!._id]);
    expect(second.body.next).toBeNull();
    expect(second.res.headers.link).toBeUndefined();
    expect(second.res.headers['x-total-count']).toBe('4');
    // Not yet received: the card says who holds it and that it waits.
    expect(second.body.letters[0]!.dak).toEqual({
      holders: [
        expect.objectContaining({ _id: ravi.id, name: 'Ravi Kumar', designation: 'Scientist D', status: 'pending' }),
      ],
      closed: null,
    });
    // Search and priority work as in the other boxes.
    const q = made[1]!.letterSub.split(' ').pop()!;
    expect((await sent(me, `&q=${q}`)).body.letters.map((l) => l._id)).toEqual([made[1]!._id]);
    expect((await sent(me, '&priority=Urgent')).body.letters).toEqual([]);
    // The badge counts what is marked to me, never what I sent.
    expect(await count(me)).toEqual({ pending: 0, unread: 0, overdue: 0, overdueByBox: { pending: 0, received: 0 } });
  });

  it('follows what became of each marking: received, marked on, returned, closed, pulled back', async () => {
    const me = await createUser(app, 'employee');
    const ravi = await createUser(app, 'associate_director', { name: 'Ravi Kumar' });
    const meena = await createUser(app, 'employee', { name: 'Meena Iyer' });
    const a = await upload(me);
    const b = await upload(me);
    await mark(me, a._id, { to: [ravi.id] });
    await mark(me, b._id, { to: [ravi.id] });
    const before = await sent(me);
    const pendingB = before.body.letters.find((l) => l._id === b._id)!;
    // Pulled back from the Sent card (decision 079's route): the next read of Sent shows it (cached answers, 089).
    const pulled = await call('POST', me, `/api/dac/${b._id}/movements/${pendingB.movement._id}/pull-back`);
    expect(pulled.statusCode, pulled.body).toBe(200);
    // Received by Ravi, marked on to Meena: my marking is "forwarded", the letter is with Meena, not yet received.
    await call('POST', ravi, `/api/dac/${a._id}/receive`);
    expect((await sent(me)).body.letters.find((l) => l._id === a._id)!.dak!.holders).toEqual([
      expect.objectContaining({ _id: ravi.id, status: 'received', receivedAt: expect.any(String) }),
    ]);
    await mark(ravi, a._id, { to: [meena.id] });
    const after = await sent(me);
    const cardA = after.body.letters.find((l) => l._id === a._id)!;
    const cardB = after.body.letters.find((l) => l._id === b._id)!;
    expect(cardA.movement).toMatchObject({ status: 'closed', outcome: 'forwarded' });
    expect(cardA.dak!.holders).toEqual([expect.objectContaining({ _id: meena.id, status: 'pending' })]);
    expect(cardB.movement).toMatchObject({ status: 'closed', outcome: 'pulled_back' });
    // Meena closes it: nobody holds it, and the card says who closed it.
    await call('POST', meena, `/api/dac/${a._id}/receive`);
    await call('POST', meena, `/api/dac/${a._id}/close`, { disposal: 'Filed' });
    const closed = (await sent(me)).body.letters.find((l) => l._id === a._id)!;
    expect(closed.dak).toEqual({
      holders: [],
      closed: { by: { _id: meena.id, name: 'Meena Iyer' }, at: expect.any(String) },
    });
    // The same whereabouts on the register's card, to the uploader, and on the letter opened.
    const card = (await call('GET', me, `/api/dac/${a._id}`)).json();
    expect(card.dak.closed.by._id).toBe(meena.id);
    // A letter never marked has none.
    expect((await call('GET', me, `/api/dac/${(await upload(me))._id}`)).json().dak).toBeNull();
  });

  it('shows each person their own markings only: the outsider, the holder and an admin', async () => {
    const me = await createUser(app);
    const holder = await createUser(app, 'associate_director');
    const outsider = await createUser(app);
    const admin = await createUser(app, 'admin');
    const letter = await upload(me);
    await mark(me, letter._id, { to: [holder.id] });
    expect((await call('GET', null, '/api/dac/inbox?status=sent')).statusCode).toBe(401);
    expect((await sent(outsider)).body.letters).toEqual([]);
    expect((await sent(outsider)).res.headers['x-total-count']).toBe('0');
    expect((await call('GET', outsider, `/api/dac/${letter._id}`)).statusCode).toBe(404);
    expect((await sent(holder)).body.letters).toEqual([]);
    expect((await sent(admin)).body.letters).toEqual([]);
    // The holder sees on their inbox card that they hold it; the admin on the register's card.
    const held = (await inbox(holder)).letters.find((l) => l._id === letter._id) as unknown as { dak: Dak };
    expect(held.dak!.holders.map((h) => h._id)).toEqual([holder.id]);
    expect((await call('GET', admin, `/api/dac/${letter._id}`)).json().dak.holders[0]._id).toBe(holder.id);
    // The holder marks it on: it is in their Sent now, not in the admin's.
    await call('POST', holder, `/api/dac/${letter._id}/receive`);
    await mark(holder, letter._id, { to: [admin.id] });
    expect((await sent(holder)).body.letters.map((l) => l._id)).toEqual([letter._id]);
    expect((await sent(admin)).body.letters).toEqual([]);
    // A marker whose clearance is withdrawn no longer finds a Confidential letter in Sent (the inbox's classified rule).
    const director = await createUser(app, 'director');
    const cleared = await createUser(app, 'employee', { classifiedClearance: true });
    const secret = await upload(admin, { classification: 'Confidential' });
    expect((await mark(admin, secret._id, { to: [cleared.id] })).statusCode).toBe(201);
    await call('POST', cleared, `/api/dac/${secret._id}/receive`);
    expect((await mark(cleared, secret._id, { to: [director.id] })).statusCode).toBe(201);
    expect((await sent(cleared)).body.letters.map((l) => l._id)).toEqual([secret._id]);
    await app.db.update(users).set({ classifiedClearance: false }).where(eq(users.id, cleared.id));
    expect((await sent(cleared)).body.letters).toEqual([]);
    expect((await call('GET', cleared, `/api/dac/${secret._id}`)).statusCode).toBe(404);
  });

  it('counts what a delegate marked for the officer as the officer’s; the delegate sees it while the delegation runs', async () => {
    const uploader = await createUser(app);
    const officer = await createUser(app, 'associate_director', { name: 'Ravi Rao' });
    const deputy = await createUser(app, 'employee', { name: 'Meera Nair' });
    const next = await createUser(app, 'employee', { name: 'Kavita Das' });
    const letter = await upload(uploader);
    await mark(uploader, letter._id, { to: [officer.id] });
    const d = await call('POST', officer, '/api/dac/delegations', {
      delegateId: deputy.id,
      fromDate: addDays(0),
      toDate: addDays(1),
    });
    expect(d.statusCode, d.body).toBe(201);
    expect((await call('POST', deputy, `/api/dac/${letter._id}/receive`)).statusCode).toBe(200);
    expect((await mark(deputy, letter._id, { to: [next.id] })).statusCode).toBe(201);
    const officers = (await sent(officer)).body.letters;
    expect(officers.map((l) => [l._id, l.movement.to._id])).toEqual([[letter._id, next.id]]);
    const deputys = (await sent(deputy)).body.letters;
    expect(deputys.map((l) => l.movement._id)).toEqual([officers[0]!.movement._id]);
    // The delegate pulls it back from Sent for the officer.
    const pulled = await call(
      'POST',
      deputy,
      `/api/dac/${letter._id}/movements/${officers[0]!.movement._id}/pull-back`,
    );
    expect(pulled.statusCode, pulled.body).toBe(200);
    expect((await sent(officer)).body.letters[0]!.movement.outcome).toBe('pulled_back');
    // Once the delegation ends, the officer's markings leave the delegate's Sent.
    await call('POST', officer, `/api/dac/delegations/${(d.json() as { _id: string })._id}/end`);
    expect((await sent(deputy)).body.letters).toEqual([]);
    expect((await sent(officer)).body.letters).toHaveLength(1);
  });

  it.each([
    ['&cursor=abc', 'cursor'],
    ['&limit=0', 'limit'],
    ['&priority=Low', 'priority'],
  ])('refuses %s with a 400', async (query, field) => {
    const res = await call('GET', await createUser(app), `/api/dac/inbox?status=sent${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
  });
});

describe('the overdue count and the boxes agree (decision 099)', () => {
  it('says how many overdue letters each box holds, as each box lists with overdue=true', async () => {
    const owner = await createUser(app);
    const ad = await createUser(app, 'associate_director');
    const letters = [await upload(owner), await upload(owner), await upload(owner)];
    for (const l of letters) await mark(owner, l._id, { to: [ad.id], dueDate: addDays(2) });
    await call('POST', ad, `/api/dac/${letters[0]!._id}/receive`);
    // Past due (set in the database: the API refuses a past due date): one received, one not yet received.
    for (const l of letters.slice(0, 2)) {
      await app.db
        .update(letterMovements)
        .set({ dueDate: addDays(-1) })
        .where(and(eq(letterMovements.letterId, l._id), eq(letterMovements.toUserId, ad.id)));
    }
    const c = await count(ad);
    expect(c).toEqual({ pending: 2, unread: 2, overdue: 2, overdueByBox: { pending: 1, received: 1 } });
    for (const box of ['pending', 'received'] as const) {
      const listed = (await inbox(ad, `?status=${box}&overdue=true`)).letters;
      expect(listed.length).toBe(c.overdueByBox[box]);
      expect(listed.every((l) => l.movement.overdue)).toBe(true);
    }
    // Due today (India date) is not overdue, in the count as in the list.
    await app.db
      .update(letterMovements)
      .set({ dueDate: addDays(0) })
      .where(and(eq(letterMovements.letterId, letters[0]!._id), eq(letterMovements.toUserId, ad.id)));
    expect((await count(ad)).overdueByBox).toEqual({ pending: 1, received: 0 });
    expect((await inbox(ad, '?status=received&overdue=true')).letters).toEqual([]);
  });
});
