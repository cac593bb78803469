import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { todayInIndia } from '#shared/format.ts';

import { letterMovements, letters, type UserRow } from '#server/db/schema/index.ts';
import { createGroup, createUser } from '#server/test/factories.ts';

import { addDays, app, call, mark, movementsOf, upload, word } from './letters.movements.test-helpers.ts';

// Decision 020: dak that moves. Every route of item 7, each step, each refusal, and the classification rules (nobody
// learns of a Secret letter through the inbox, counts, search or notifications unless allowed).
// This file: pendency, notifications, what employees and visitors see, and the portal search.

describe('GET /api/dac/pendency (and its CSV)', () => {
  it('directors and admins see per officer and per group pending, overdue and closed, the oldest first', async () => {
    const group = await createGroup(app, { name: `Fire Group ${word()}` });
    const director = await createUser(app, 'director');
    const owner = await createUser(app, 'employee', { groupId: group.id });
    const ad = await createUser(app, 'associate_director', { name: 'AD Pendency', groupId: group.id });
    const officer = await createUser(app, 'employee', { name: 'Officer Pendency', groupId: group.id });
    const a = await upload(owner);
    const b = await upload(owner);
    await mark(owner, a._id, { to: [ad.id], dueDate: addDays(1) });
    await mark(owner, b._id, { to: [officer.id] });
    await call('POST', officer, `/api/dac/${b._id}/receive`);
    await call('POST', officer, `/api/dac/${b._id}/close`, { disposal: 'Filed' });
    await app.db
      .update(letterMovements)
      .set({ dueDate: addDays(-3) })
      .where(eq(letterMovements.letterId, a._id));
    const res = await call('GET', director, `/api/dac/pendency?groupId=${group.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(report.group).toEqual({ _id: group.id, name: group.name });
    expect(report.to).toBe(todayInIndia());
    expect(report.officers).toMatchObject([
      { officer: { _id: ad.id, name: 'AD Pendency' }, pending: 1, overdue: 1, closed: 0 },
      { officer: { _id: officer.id }, pending: 0, overdue: 0, closed: 1, oldestSince: null },
    ]);
    expect(report.groups).toEqual([
      {
        group: { _id: group.id, name: group.name },
        pending: 1,
        overdue: 1,
        closed: 1,
        ageing: { upTo7: 1, upTo15: 0, upTo30: 0, over30: 0 },
      },
    ]);
    expect(report.oldest).toMatchObject([{ letter: { _id: a._id }, holder: { _id: ad.id }, overdue: true }]);
    // The whole lab, for an admin.
    const all = await call('GET', await createUser(app, 'admin'), '/api/dac/pendency');
    expect(all.statusCode).toBe(200);
    expect(all.json().officers.some((o: { officer: { _id: string } }) => o.officer._id === ad.id)).toBe(true);
    // A period that ended before the closing: not counted as closed.
    const past = (
      await call('GET', director, `/api/dac/pendency?groupId=${group.id}&from=2020-01-01&to=2020-01-31`)
    ).json();
    expect(past.officers.find((o: { officer: { _id: string } }) => o.officer._id === officer.id)).toBeUndefined();
    const csv = await call('GET', director, `/api/dac/pendency/export?groupId=${group.id}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('AD Pendency,');
    expect(csv.body).toContain(`${group.name},1,1,1`);
  });

  it('an associate director sees their own group only, without classified letters unless cleared; others are refused', async () => {
    const group = await createGroup(app);
    const other = await createGroup(app);
    const ad = await createUser(app, 'associate_director', { groupId: group.id });
    const member = await createUser(app, 'employee', { groupId: group.id, classifiedClearance: true });
    const owner = await createUser(app);
    const secret = await upload(owner, { classification: 'Secret' });
    const normal = await upload(owner);
    await mark(owner, secret._id, { to: [member.id] });
    await mark(owner, normal._id, { to: [member.id] });
    const own = await call('GET', ad, '/api/dac/pendency');
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().officers).toMatchObject([{ officer: { _id: member.id }, pending: 1 }]);
    expect(own.json().oldest.map((o: { letter: { _id: string } }) => o.letter._id)).toEqual([normal._id]);
    const foreign = await call('GET', ad, `/api/dac/pendency?groupId=${other.id}`);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().message).toBe('You may see the pendency of your own group only.');
    const employee = await call('GET', member, '/api/dac/pendency');
    expect(employee.statusCode).toBe(403);
    expect(employee.json().message).toBe('Only directors, administrators and associate directors may see pendency.');
    expect((await call('GET', null, '/api/dac/pendency')).statusCode).toBe(401);
    expect((await call('GET', member, '/api/dac/pendency/export')).statusCode).toBe(403);
  });

  it.each([
    ['?from=2026-13-01', 'From must be a valid date.', 'from'],
    ['?to=yesterday', 'To must be a valid date.', 'to'],
    ['?from=2026-05-02&to=2026-05-01', 'From cannot be after To.', 'from'],
    ['?groupId=abc', 'Please choose a group from the list.', 'groupId'],
    ['?groupId=00000000-0000-4000-8000-000000000000', 'Please choose a group from the list.', 'groupId'],
  ])('refuses %s with a 400', async (query, message, field) => {
    const director = await createUser(app, 'director');
    const res = await call('GET', director, `/api/dac/pendency${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, field });
  });
});

describe('notifications', () => {
  it('"a letter was marked to you", "a letter you marked is overdue" (made once, when read), read and read-all', async () => {
    const owner = await createUser(app);
    const ad = await createUser(app, 'associate_director', { name: 'Anil Joshi' });
    const letter = await upload(owner);
    await mark(owner, letter._id, { to: [ad.id], dueDate: addDays(2) });
    expect((await call('GET', null, '/api/notifications')).statusCode).toBe(401);
    const mine = (await call('GET', ad, '/api/notifications')).json();
    expect(mine).toMatchObject({
      unread: 1,
      notifications: [
        {
          kind: 'letter_marked',
          readAt: null,
          subject: { type: 'letter', _id: letter._id, ref: letter.letterId, title: letter.letterSub },
          actor: { _id: owner.id },
        },
      ],
    });
    expect((await call('GET', owner, '/api/notifications/count')).json()).toEqual({ unread: 0 });
    await app.db
      .update(letterMovements)
      .set({ dueDate: addDays(-1) })
      .where(eq(letterMovements.letterId, letter._id));
    expect((await call('GET', owner, '/api/notifications/count')).json()).toEqual({ unread: 1 });
    const overdue = (await call('GET', owner, '/api/notifications')).json();
    expect(overdue.notifications).toMatchObject([
      { kind: 'letter_overdue', subject: { _id: letter._id }, actor: { _id: ad.id, name: 'Anil Joshi' } },
    ]);
    expect((await call('GET', owner, '/api/notifications')).json().notifications).toHaveLength(1); // made once
    const id = overdue.notifications[0]._id;
    expect((await call('POST', ad, `/api/notifications/${id}/read`)).statusCode).toBe(404); // not theirs
    expect((await call('POST', owner, `/api/notifications/${id}/read`)).statusCode).toBe(200);
    expect((await call('GET', owner, '/api/notifications/count')).json()).toEqual({ unread: 0 });
    expect((await call('POST', ad, '/api/notifications/read-all')).statusCode).toBe(200);
    expect((await call('GET', ad, '/api/notifications/count')).json()).toEqual({ unread: 0 });
    expect((await call('POST', ad, '/api/notifications/nope/read')).statusCode).toBe(400);
  });
});

describe('what an employee sees', () => {
  it('a letter marked to them shows in /api/dac search; a letter of someone else does not', async () => {
    const owner = await createUser(app);
    const employee = await createUser(app);
    const tag = word();
    const marked = await upload(owner, { letterSub: `Marked ${tag}` });
    await upload(owner, { letterSub: `Unmarked ${tag}` });
    await mark(owner, marked._id, { to: [employee.id] });
    const found = (await call('GET', employee, `/api/dac?q=${tag}`)).json() as { _id: string }[];
    expect(found.map((l) => l._id)).toEqual([marked._id]);
    const [row] = await app.db.select().from(letters).where(eq(letters.id, marked._id));
    expect(row!.deletedAt).toBeNull();
  });
});

describe('visitors', () => {
  it.each([
    ['POST', 'movements'],
    ['GET', 'movements'],
    ['POST', 'receive'],
    ['POST', 'close'],
    ['POST', 'return'],
    ['POST', 'read'],
  ] as const)('%s /api/dac/{id}/%s refuses a visitor who is not signed in (401)', async (method, action) => {
    const owner = await createUser(app);
    const letter = await upload(owner);
    const res = await call(method, null, `/api/dac/${letter._id}/${action}`, method === 'POST' ? {} : undefined);
    expect(res.statusCode).toBe(401);
    expect(await movementsOf(letter._id)).toHaveLength(0);
  });

  it.each([
    '/api/dac/inbox',
    '/api/dac/inbox/count',
    '/api/dac/officers',
    '/api/dac/pendency/export',
    '/api/notifications/count',
  ])('GET %s refuses a visitor (401)', async (url) => {
    expect((await call('GET', null, url)).statusCode).toBe(401);
  });

  it('PUT /admin/users/{id}/clearance refuses a visitor (401) and an employee (403)', async () => {
    const employee = await createUser(app);
    expect((await call('PUT', null, `/admin/users/${employee.id}/clearance`, { cleared: true })).statusCode).toBe(401);
    expect((await call('PUT', employee, `/admin/users/${employee.id}/clearance`, { cleared: true })).statusCode).toBe(
      403,
    );
  });
});

describe('the portal search follows the movements (issue 14 with issue 17)', () => {
  const search = async (user: UserRow, q: string) =>
    ((await call('GET', user, `/api/search?q=${q}&kinds=letter`)).json() as { results: { _id: string }[] }).results;

  it('finds a letter for the officer it was marked to, and a Secret one only for a cleared officer', async () => {
    const [admin, uploader, officer, cleared, bystander] = await Promise.all([
      createUser(app, 'admin'),
      createUser(app, 'employee'),
      createUser(app, 'employee'),
      createUser(app, 'employee'),
      createUser(app, 'employee'),
    ]);
    await call('PUT', admin, `/admin/users/${cleared.id}/clearance`, { cleared: true });
    const normalWord = word();
    const secretWord = word();
    const normal = await upload(uploader, { letterSub: `Normal dak ${normalWord}` });
    const secret = await upload(uploader, { letterSub: `Secret dak ${secretWord}`, classification: 'Secret' });
    expect(await search(officer, normalWord)).toEqual([]);
    expect((await mark(uploader, normal._id, { to: [officer.id] })).statusCode).toBe(201);
    expect((await search(officer, normalWord)).map((r) => r._id)).toEqual([normal._id]);
    expect(await search(bystander, normalWord)).toEqual([]);

    expect((await mark(uploader, secret._id, { to: [officer.id] })).statusCode).toBe(400);
    expect((await mark(uploader, secret._id, { to: [cleared.id] })).statusCode).toBe(201);
    expect((await search(cleared, secretWord)).map((r) => r._id)).toEqual([secret._id]);
    expect(await search(officer, secretWord)).toEqual([]);
    expect(await search(bystander, secretWord)).toEqual([]);
  });
});
