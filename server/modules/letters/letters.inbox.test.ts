import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { activityLogs, letterHistory, letterMovements, users } from '#server/db/schema/index.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';

import {
  addDays,
  app,
  call,
  count,
  inbox,
  mark,
  markedAndReceived,
  movementsOf,
  notesOf,
  registerFields,
  upload,
  word,
} from './letters.movements.test-helpers.ts';

// Decision 020: dak that moves. Every route of item 7, each step, each refusal, and the classification rules (nobody
// learns of a Secret letter through the inbox, counts, search or notifications unless allowed).
// This file: the movement list, the inbox, frozen fields, and the classification rules.

describe('GET /api/dac/{id}/movements and the CSV export', () => {
  it('lists who had the letter, from when to when, with remarks; 404 for an outsider', async () => {
    const { uploader, ad, letter } = await markedAndReceived();
    const officer = await createUser(app, 'employee', { name: 'Kavita Das' });
    await mark(ad, letter._id, { to: [officer.id], remarks: 'For reply' });
    const res = await call('GET', uploader, `/api/dac/${letter._id}/movements`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject([
      { from: { _id: uploader.id }, to: { _id: ad.id }, remarks: 'Please examine', outcome: 'forwarded' },
      { from: { _id: ad.id }, to: { _id: officer.id, name: 'Kavita Das' }, remarks: 'For reply', status: 'pending' },
    ]);
    expect((await call('GET', await createUser(app), `/api/dac/${letter._id}/movements`)).statusCode).toBe(404);
    expect((await call('GET', null, `/api/dac/${letter._id}/movements`)).statusCode).toBe(401);
    const csv = await call('GET', uploader, `/api/dac/export?q=${encodeURIComponent(letter.letterSub)}`);
    expect(csv.statusCode).toBe(200);
    const [header, row] = csv.body.replace('\uFEFF', '').split('\r\n');
    expect(header!.endsWith(',Movements')).toBe(true);
    expect(row).toContain(`${uploader.name} → ${ad.name}`);
    expect(row).toContain('remarks: Please examine');
    expect(row).toContain(`${ad.name} → Kavita Das`);
  });
});

describe('GET /api/dac/inbox and /api/dac/inbox/count', () => {
  it('files letters by status, newest marking first, with search, priority, overdue and a cursor', async () => {
    const ad = await createUser(app, 'associate_director');
    const owner = await createUser(app);
    const made = [];
    for (let i = 0; i < 3; i++) {
      const l = await upload(owner);
      await mark(owner, l._id, { to: [ad.id], priority: i === 0 ? 'Urgent' : 'Normal', dueDate: addDays(3) });
      made.push(l);
    }
    expect((await call('GET', null, '/api/dac/inbox')).statusCode).toBe(401);
    const first = await inbox(ad, '?status=pending&limit=2');
    expect(first.letters.map((l) => l._id)).toEqual([made[2]!._id, made[1]!._id]);
    expect(first.next).toBeTruthy();
    const second = await inbox(ad, `?status=pending&limit=2&cursor=${first.next}`);
    expect(second.letters.map((l) => l._id)).toEqual([made[0]!._id]);
    expect(second.next).toBeNull();
    expect((await inbox(ad, '?priority=Urgent')).letters.map((l) => l._id)).toEqual([made[0]!._id]);
    const q = made[1]!.letterSub.split(' ').pop()!.toUpperCase();
    expect((await inbox(ad, `?q=${q}`)).letters.map((l) => l._id)).toEqual([made[1]!._id]);
    await call('POST', ad, `/api/dac/${made[1]!._id}/receive`);
    expect((await inbox(ad, '?status=received')).letters.map((l) => l._id)).toEqual([made[1]!._id]);
    await call('POST', ad, `/api/dac/${made[1]!._id}/close`, { disposal: 'Noted' });
    expect((await inbox(ad, '?status=closed')).letters.map((l) => l._id)).toEqual([made[1]!._id]);
    expect(await count(ad)).toEqual({ pending: 2, unread: 2, overdue: 0, overdueByBox: { pending: 0, received: 0 } });
    // Overdue: a due date that has passed (set in the database: the API refuses a past due date).
    await app.db
      .update(letterMovements)
      .set({ dueDate: addDays(-2) })
      .where(and(eq(letterMovements.letterId, made[0]!._id), eq(letterMovements.toUserId, ad.id)));
    const overdue = await inbox(ad, '?overdue=true');
    expect(overdue.letters.map((l) => [l._id, l.movement.overdue])).toEqual([[made[0]!._id, true]]);
    expect(await count(ad)).toEqual({ pending: 2, unread: 2, overdue: 1, overdueByBox: { pending: 1, received: 0 } });
  });

  it.each([
    ['?status=open', 'Status must be pending, received, closed, info or sent.', 'status'],
    ['?cursor=abc', 'This list has changed. Please open it again.', 'cursor'],
    ['?priority=Low', 'Please choose a priority: Normal, Urgent or Most Immediate.', 'priority'],
    ['?limit=500', undefined, 'limit'],
  ])('refuses %s with a 400', async (query, message, field) => {
    const user = await createUser(app);
    const res = await call('GET', user, `/api/dac/inbox${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
    if (message) expect(res.json().message).toBe(message);
  });
});

describe('frozen register fields after the first movement', () => {
  it('the uploader may no longer edit, replace the file or delete; an admin may edit, with the change in the history', async () => {
    const { uploader, ad, letter } = await markedAndReceived();
    const admin = await createUser(app, 'admin');
    const full = (await call('GET', uploader, `/api/dac/${letter._id}`)).json();
    const fields = registerFields(full, { letterNo: 'HQ/FS/2' });
    const byUploader = await call('PUT', uploader, `/api/dac/${letter._id}`, fields);
    expect(byUploader.statusCode).toBe(409);
    expect(byUploader.json().message).toBe(
      'This letter has been marked to an officer, so its register entry is frozen. Ask an administrator to correct it.',
    );
    const body = multipart({}, { field: 'file', filename: 'b.pdf', content: SAMPLE_FILES.pdf });
    const file = await app.inject({
      method: 'PUT',
      url: `/api/dac/${letter._id}/file`,
      payload: body.payload,
      headers: { ...body.headers, ...(await authHeaders(app, uploader)) },
    });
    expect(file.statusCode).toBe(409);
    expect((await call('PUT', ad, `/api/dac/${letter._id}`, fields)).statusCode).toBe(403);
    const byAdmin = await call('PUT', admin, `/api/dac/${letter._id}`, fields);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(byAdmin.json()).toMatchObject({ letterNo: 'HQ/FS/2', frozen: true, canEdit: true });
    const history = await app.db.select().from(letterHistory).where(eq(letterHistory.letterId, letter._id));
    expect(history.find((h) => h.action === 'updated')).toMatchObject({
      actorId: admin.id,
      changes: { letterNo: { from: 'HQ/FS/123', to: 'HQ/FS/2' } },
    });
    // Held by someone: not even an admin may bin it.
    const del = await call('DELETE', admin, `/api/dac/${letter._id}`);
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toBe(
      `This letter is still with ${ad.name}. It can be deleted once it is closed or sent back.`,
    );
  });
});

describe('the inbox search follows the letter', () => {
  it("finds a letter by an admin's corrected subject and by its uploader's new name, and no longer by the old words", async () => {
    const { uploader, ad, letter } = await markedAndReceived();
    const admin = await createUser(app, 'admin');
    const found = async (q: string) =>
      (await inbox(ad, `?status=received&q=${encodeURIComponent(q)}`)).letters.map((l) => l._id);
    const oldWord = letter.letterSub.split(' ').pop()!;
    expect(await found(oldWord)).toEqual([letter._id]);
    const full = (await call('GET', admin, `/api/dac/${letter._id}`)).json();
    const newWord = word();
    const fields = registerFields(full, { letterSub: `Corrected subject ${newWord}` });
    expect((await call('PUT', admin, `/api/dac/${letter._id}`, fields)).statusCode).toBe(200);
    expect(await found(newWord)).toEqual([letter._id]);
    expect(await found(oldWord)).toEqual([]);
    // The uploader's name is part of the letter's search text, and so of the inbox's.
    const newName = `Renamed ${word()}`;
    await app.db.update(users).set({ name: newName }).where(eq(users.id, uploader.id));
    expect(await found(newName)).toEqual([letter._id]);
  });
});

describe('classification: Confidential and Secret letters', () => {
  it('an uncleared employee can never be marked a Secret letter; nothing is written and they learn nothing', async () => {
    const owner = await createUser(app);
    const employee = await createUser(app, 'employee', { name: 'Rahul Bose' });
    const tag = word();
    const letter = await upload(owner, { classification: 'Secret', letterSub: `Secret matter ${tag}` });
    const res = await mark(owner, letter._id, { to: [employee.id] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message:
        'Rahul Bose is not cleared for Secret letters. Only directors, administrators and officers an administrator has cleared may receive them.',
      field: 'to',
    });
    expect(await movementsOf(letter._id)).toHaveLength(0);
    expect(await notesOf(employee.id)).toHaveLength(0);
    expect((await inbox(employee)).letters).toHaveLength(0);
    expect(await count(employee)).toEqual({
      pending: 0,
      unread: 0,
      overdue: 0,
      overdueByBox: { pending: 0, received: 0 },
    });
    expect((await call('GET', employee, `/api/dac?q=${tag}`)).json()).toEqual([]);
    expect((await call('GET', employee, `/api/dac/${letter._id}`)).statusCode).toBe(404);
    expect((await call('GET', employee, `/api/dac/${letter._id}/movements`)).statusCode).toBe(404);
  });

  it('may go to a director, an admin, or someone an admin has cleared (with audit); a cleared holder keeps the clearance', async () => {
    const owner = await createUser(app);
    const director = await createUser(app, 'director');
    const admin = await createUser(app, 'admin');
    const employee = await createUser(app, 'employee');
    const letter = await upload(owner, { classification: 'Confidential' });
    expect((await mark(owner, letter._id, { to: [director.id, admin.id] })).statusCode).toBe(201);
    // Clearing: admins only.
    expect((await call('PUT', director, `/admin/users/${employee.id}/clearance`, { cleared: true })).statusCode).toBe(
      403,
    );
    const bad = await call('PUT', admin, `/admin/users/${employee.id}/clearance`, { cleared: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Please say whether the user is cleared (true or false).');
    const cleared = await call('PUT', admin, `/admin/users/${employee.id}/clearance`, { cleared: true });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({
      message: 'User cleared for Confidential and Secret letters.',
      user: { _id: employee.id, classifiedClearance: true },
    });
    const [log] = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, employee.id));
    expect(log!.action).toBe(`Cleared ${employee.email} for Confidential and Secret letters`);
    // Officers list tells the form who may receive it.
    const officers = (await call('GET', owner, '/api/dac/officers')).json() as { _id: string; cleared: boolean }[];
    expect(officers.find((o) => o._id === employee.id)?.cleared).toBe(true);
    expect(officers.find((o) => o._id === owner.id)).toBeUndefined();
    await call('POST', director, `/api/dac/${letter._id}/receive`);
    expect((await mark(director, letter._id, { to: [employee.id] })).statusCode).toBe(201);
    expect((await inbox(employee)).letters.map((l) => l._id)).toEqual([letter._id]);
    // While they hold it the clearance cannot be withdrawn.
    const withdraw = await call('PUT', admin, `/admin/users/${employee.id}/clearance`, { cleared: false });
    expect(withdraw.statusCode).toBe(409);
    expect(withdraw.json().message).toContain('still holds 1 Confidential or Secret letter');
  });

  // An uncleared officer who still holds a letter keeps it from being made Secret (decision 045,
  // letters.reclassify.test.ts); one who has closed it learns nothing of it once it is.
  it('a Normal letter made Secret by an admin disappears from an uncleared former holder: inbox, count, search, notifications, file', async () => {
    const owner = await createUser(app);
    const admin = await createUser(app, 'admin');
    const employee = await createUser(app);
    const tag = word();
    const letter = await upload(owner, { letterSub: `Budget ${tag}` });
    await mark(owner, letter._id, { to: [employee.id] });
    expect((await call('POST', employee, `/api/dac/${letter._id}/receive`)).statusCode).toBe(200);
    expect((await call('POST', employee, `/api/dac/${letter._id}/close`, { disposal: 'Noted' })).statusCode).toBe(200);
    expect((await inbox(employee, '?status=closed')).letters).toHaveLength(1);
    expect((await call('GET', employee, '/api/notifications')).json().notifications).toHaveLength(1);
    const full = (await call('GET', admin, `/api/dac/${letter._id}`)).json();
    const { letterSub, letterNo, letterDate, docketNo, docketDate, category, establishment } = full;
    const { letterLanguage, letterCommunBy, fileUrl } = full;
    const res = await call('PUT', admin, `/api/dac/${letter._id}`, {
      ...{ letterSub, letterNo, letterDate, docketNo, docketDate, category, establishment, letterLanguage },
      letterCommunBy,
      classification: 'Secret',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await movementsOf(letter._id))[0]!.classified).toBe(true);
    expect((await inbox(employee, '?status=closed')).letters).toHaveLength(0);
    expect(await count(employee)).toEqual({
      pending: 0,
      unread: 0,
      overdue: 0,
      overdueByBox: { pending: 0, received: 0 },
    });
    expect((await call('GET', employee, `/api/dac?q=${tag}`)).json()).toEqual([]);
    expect((await call('GET', employee, `/api/dac/${letter._id}`)).statusCode).toBe(404);
    expect((await call('GET', employee, '/api/notifications')).json()).toEqual({ notifications: [], unread: 0 });
    expect((await call('GET', employee, '/api/notifications/count')).json()).toEqual({ unread: 0 });
    expect((await call('GET', employee, fileUrl)).statusCode).toBe(403);
    expect((await call('POST', employee, `/api/dac/${letter._id}/receive`)).statusCode).toBe(404);
    // Back to Normal: it is theirs again.
    const back = await call('PUT', admin, `/api/dac/${letter._id}`, {
      ...{ letterSub, letterNo, letterDate, docketNo, docketDate, category, establishment, letterLanguage },
      letterCommunBy,
      classification: 'Normal',
    });
    expect(back.statusCode, back.body).toBe(200);
    expect((await inbox(employee, '?status=closed')).letters).toHaveLength(1);
    expect((await call('GET', employee, fileUrl)).statusCode).toBe(200);
  });
});
