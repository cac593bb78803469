import { describe, expect, it } from 'vitest';

import { formatDate, todayInIndia } from '#shared/format.ts';

import { createGroup, createUser } from '#server/test/factories.ts';

import {
  addDays,
  app,
  call,
  count,
  inbox,
  logsFor,
  mark,
  markedAndReceived,
  movementsOf,
  notesOf,
  upload,
} from './letters.movements.test-helpers.ts';

// Decision 020: dak that moves. Every route of item 7, each step, each refusal, and the classification rules (nobody
// learns of a Secret letter through the inbox, counts, search or notifications unless allowed).
// This file: marking, then receive, close, return and read.

describe('POST /api/dac/{id}/movements (marking)', () => {
  it('refuses a visitor who is not signed in', async () => {
    const owner = await createUser(app);
    const letter = await upload(owner);
    const res = await mark(null, letter._id, { to: [owner.id] });
    expect(res.statusCode).toBe(401);
  });

  it('marks a letter to officers with remarks, due date and priority: movements, notifications, activity, frozen', async () => {
    const group = await createGroup(app);
    const uploader = await createUser(app, 'employee', { name: 'Asha Verma', groupId: group.id });
    const ad = await createUser(app, 'associate_director', { name: 'Ravi Rao', groupId: group.id });
    const colleague = await createUser(app, 'employee', { name: 'Meera Nair' });
    const letter = await upload(uploader);
    expect(letter).toMatchObject({ frozen: false, canMark: true });
    const due = addDays(7);
    const res = await mark(uploader, letter._id, {
      to: [ad.id, colleague.id],
      remarks: '  Please examine and put up  ',
      dueDate: due,
      priority: 'Urgent',
    });
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json();
    expect(created).toHaveLength(2);
    expect(created[0]).toMatchObject({
      letter: letter._id,
      from: { _id: uploader.id, name: 'Asha Verma' },
      remarks: 'Please examine and put up',
      dueDate: due,
      priority: 'Urgent',
      status: 'pending',
      receivedAt: null,
      readAt: null,
      overdue: false,
    });
    expect(created.map((m: { to: { name: string } }) => m.to.name).sort()).toEqual(['Meera Nair', 'Ravi Rao']);
    expect(await notesOf(ad.id)).toMatchObject([
      { kind: 'letter_marked', subjectId: letter._id, actorId: uploader.id },
    ]);
    expect((await logsFor(letter._id)).map((l) => l.action)).toContain(
      `Marked letter ${letter.letterId} to Ravi Rao, Meera Nair (due ${formatDate(due)})`,
    );
    const after = (await call('GET', uploader, `/api/dac/${letter._id}`)).json();
    expect(after).toMatchObject({ frozen: true, canEdit: false, canMark: true });
    // The recipient now sees it (it was marked to them), and may mark it once received.
    const seen = await call('GET', colleague, `/api/dac/${letter._id}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({ canMark: true, canEdit: false });
  });

  it.each([
    [{ to: [] }, 'Please choose at least one officer.', 'to'],
    [{}, 'Please choose at least one officer.', 'to'],
    [{ to: ['nope'] }, 'Please choose officers from the list.', 'to.0'],
    [{ to: ['SAME', 'SAME'] }, 'The same officer is chosen twice.', 'to'],
    [{ to: ['OTHER'], dueDate: '21/11/2026' }, 'Due date must be a valid date.', 'dueDate'],
    [
      { to: ['OTHER'], priority: 'Immediate' },
      'Please choose a priority: Normal, Urgent or Most Immediate.',
      'priority',
    ],
    [{ to: ['OTHER'], remarks: 'x'.repeat(2001) }, 'Remarks must be at most 2000 characters.', 'remarks'],
  ])('refuses %j with "%s" and writes nothing', async (body, message, field) => {
    const owner = await createUser(app);
    const other = await createUser(app);
    const letter = await upload(owner);
    const payload = JSON.parse(
      JSON.stringify(body).replaceAll('SAME', other.id).replaceAll('OTHER', other.id),
    ) as Record<string, unknown>;
    const res = await mark(owner, letter._id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, field });
    expect(await movementsOf(letter._id)).toHaveLength(0);
  });

  it('refuses oneself, a deactivated, a pending or an unknown user, and a due date in the past — nothing written', async () => {
    const owner = await createUser(app);
    const ok = await createUser(app, 'employee');
    const gone = await createUser(app, 'employee', { name: 'Gone Person', status: 'deactivated' });
    const waiting = await createUser(app, 'employee', { name: 'New Person', status: 'pending' });
    const letter = await upload(owner);
    const cases: [unknown, number, string, string][] = [
      [{ to: [owner.id] }, 400, 'You cannot mark a letter to yourself.', 'to'],
      [{ to: [ok.id, gone.id] }, 400, "Gone Person's account is deactivated. Please choose another officer.", 'to'],
      [
        { to: [waiting.id] },
        400,
        "New Person's account has not been approved yet. Please choose another officer.",
        'to',
      ],
      [{ to: ['00000000-0000-4000-8000-000000000000'] }, 400, 'One of the chosen officers was not found.', 'to'],
      [{ to: [ok.id], dueDate: addDays(-1) }, 400, 'Due date cannot be in the past.', 'dueDate'],
    ];
    for (const [body, status, message, field] of cases) {
      const res = await mark(owner, letter._id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json()).toMatchObject({ message, field });
    }
    expect(await movementsOf(letter._id)).toHaveLength(0);
    expect(await notesOf(ok.id)).toHaveLength(0);
    // Today is not in the past.
    expect((await mark(owner, letter._id, { to: [ok.id], dueDate: todayInIndia() })).statusCode).toBe(201);
  });

  it('refuses marking to someone who already holds it (409), an outsider (404), and a bystander (403)', async () => {
    const { uploader, ad, letter } = await markedAndReceived();
    const again = await mark(uploader, letter._id, { to: [ad.id] });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`${ad.name} already holds this letter.`);
    const outsider = await createUser(app);
    expect((await mark(outsider, letter._id, { to: [ad.id] })).statusCode).toBe(404);
    // A colleague who received it, then closed it, still sees it but holds it no longer.
    const e2 = await createUser(app);
    await mark(ad, letter._id, { to: [e2.id] });
    await call('POST', e2, `/api/dac/${letter._id}/receive`);
    await call('POST', e2, `/api/dac/${letter._id}/close`, { disposal: 'Filed' });
    const bystander = await mark(e2, letter._id, { to: [outsider.id] });
    expect(bystander.statusCode).toBe(403);
    expect(bystander.json().message).toBe(
      'Only the person who uploaded this letter, an officer who holds it, a director or an administrator may mark it.',
    );
  });

  it('a holder must receive before marking on; marking on ends their holding as forwarded', async () => {
    const owner = await createUser(app);
    const ad = await createUser(app, 'associate_director');
    const officer = await createUser(app);
    const letter = await upload(owner);
    await mark(owner, letter._id, { to: [ad.id] });
    const early = await mark(ad, letter._id, { to: [officer.id] });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('Please receive this letter before marking it on.');
    await call('POST', ad, `/api/dac/${letter._id}/receive`);
    expect((await mark(ad, letter._id, { to: [officer.id], remarks: 'For action' })).statusCode).toBe(201);
    const rows = await movementsOf(letter._id);
    expect(rows.find((m) => m.toUserId === ad.id)).toMatchObject({ box: 'closed', outcome: 'forwarded' });
    expect(rows.find((m) => m.toUserId === officer.id)).toMatchObject({ box: 'pending', fromUserId: ad.id });
  });

  it('refuses acting on a letter in the recycle bin: 409 for an admin, 404 for everyone else', async () => {
    const owner = await createUser(app);
    const admin = await createUser(app, 'admin');
    const other = await createUser(app);
    const letter = await upload(owner);
    await call('DELETE', owner, `/api/dac/${letter._id}`);
    const byAdmin = await mark(admin, letter._id, { to: [other.id] });
    expect(byAdmin.statusCode).toBe(409);
    expect(byAdmin.json().message).toBe('This letter is in the recycle bin. Restore it before acting on it.');
    expect((await mark(owner, letter._id, { to: [other.id] })).statusCode).toBe(404);
    expect(await movementsOf(letter._id)).toHaveLength(0);
  });
});

describe('receive, close, return, read', () => {
  it('receives once: 403 for someone it is not marked to, 409 the second time, 404 for an outsider', async () => {
    const owner = await createUser(app);
    const ad = await createUser(app, 'associate_director');
    const director = await createUser(app, 'director');
    const letter = await upload(owner);
    await mark(owner, letter._id, { to: [ad.id] });
    expect((await call('POST', null, `/api/dac/${letter._id}/receive`)).statusCode).toBe(401);
    const notMine = await call('POST', director, `/api/dac/${letter._id}/receive`);
    expect(notMine.statusCode).toBe(403);
    expect(notMine.json().message).toBe('This letter is not marked to you.');
    expect((await call('POST', await createUser(app), `/api/dac/${letter._id}/receive`)).statusCode).toBe(404);
    const first = await call('POST', ad, `/api/dac/${letter._id}/receive`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ status: 'received' });
    expect(first.json().receivedAt).toBeTruthy();
    const twice = await call('POST', ad, `/api/dac/${letter._id}/receive`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('You have already received this letter.');
    expect((await logsFor(letter._id)).map((l) => l.action)).toContain(`Received letter ${letter.letterId}`);
  });

  it('closes with a disposal, file no and reply reference; refuses before receipt, without disposal, and when not held', async () => {
    const owner = await createUser(app);
    const ad = await createUser(app, 'associate_director');
    const letter = await upload(owner);
    await mark(owner, letter._id, { to: [ad.id] });
    const early = await call('POST', ad, `/api/dac/${letter._id}/close`, { disposal: 'Done' });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('Please receive this letter before you close it.');
    await call('POST', ad, `/api/dac/${letter._id}/receive`);
    for (const body of [{}, { disposal: '   ' }]) {
      const res = await call('POST', ad, `/api/dac/${letter._id}/close`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: 'Please write the disposal (action taken).', field: 'disposal' });
    }
    const notHeld = await call('POST', owner, `/api/dac/${letter._id}/close`, { disposal: 'Done' });
    expect(notHeld.statusCode).toBe(403);
    expect(notHeld.json().message).toBe('You do not hold this letter, so you cannot close it.');
    const res = await call('POST', ad, `/api/dac/${letter._id}/close`, {
      disposal: 'Reply sent to HQ',
      fileNo: 'CFEES/FS/12',
      replyRef: 'CFEES/FS/12/88',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'closed',
      outcome: 'closed',
      disposal: 'Reply sent to HQ',
      fileNo: 'CFEES/FS/12',
      replyRef: 'CFEES/FS/12/88',
    });
    const again = await call('POST', ad, `/api/dac/${letter._id}/close`, { disposal: 'Again' });
    expect(again.statusCode).toBe(403);
    expect((await logsFor(letter._id)).map((l) => l.action)).toContain(
      `Closed letter ${letter.letterId}: Reply sent to HQ`,
    );
    // Closed: the uploader may now delete it again? No — it stays frozen; only an admin changes the register entry.
    expect((await call('DELETE', owner, `/api/dac/${letter._id}`)).statusCode).toBe(409);
  });

  it('sends a letter back with remarks to whoever marked it, who is notified', async () => {
    const owner = await createUser(app, 'employee', { name: 'Sunita Iyer' });
    const ad = await createUser(app, 'associate_director');
    const letter = await upload(owner);
    await mark(owner, letter._id, { to: [ad.id], priority: 'Most Immediate' });
    const blank = await call('POST', ad, `/api/dac/${letter._id}/return`, { remarks: ' ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ message: 'Please say why you are sending it back.', field: 'remarks' });
    const outsider = await call('POST', await createUser(app), `/api/dac/${letter._id}/return`, { remarks: 'x' });
    expect(outsider.statusCode).toBe(404);
    const notHeld = await call('POST', owner, `/api/dac/${letter._id}/return`, { remarks: 'x' });
    expect(notHeld.statusCode).toBe(403);
    const res = await call('POST', ad, `/api/dac/${letter._id}/return`, { remarks: 'Not our group' });
    expect(res.statusCode, res.body).toBe(200);
    const [ended, back] = res.json();
    expect(ended).toMatchObject({ outcome: 'returned', status: 'closed' });
    expect(back).toMatchObject({
      to: { _id: owner.id, name: 'Sunita Iyer' },
      from: { _id: ad.id },
      remarks: 'Not our group',
      priority: 'Most Immediate',
      status: 'pending',
    });
    expect(await notesOf(owner.id)).toMatchObject([{ kind: 'letter_returned', actorId: ad.id }]);
    expect((await inbox(owner)).letters.map((l) => l._id)).toEqual([letter._id]);
  });

  it('marks an inbox letter read (once), only for its holder', async () => {
    const owner = await createUser(app);
    const ad = await createUser(app, 'associate_director');
    const letter = await upload(owner);
    await mark(owner, letter._id, { to: [ad.id] });
    expect(await count(ad)).toEqual({ pending: 1, unread: 1, overdue: 0, overdueByBox: { pending: 0, received: 0 } });
    expect((await call('POST', owner, `/api/dac/${letter._id}/read`)).statusCode).toBe(403);
    expect((await call('POST', ad, `/api/dac/${letter._id}/read`)).statusCode).toBe(200);
    expect((await call('POST', ad, `/api/dac/${letter._id}/read`)).statusCode).toBe(200);
    expect(await count(ad)).toEqual({ pending: 1, unread: 0, overdue: 0, overdueByBox: { pending: 0, received: 0 } });
    expect((await inbox(ad)).letters[0]!.movement.readAt).toBeTruthy();
    const reads = (await logsFor(letter._id)).filter((l) => l.action.startsWith('Opened letter'));
    expect(reads).toHaveLength(1);
  });
});
