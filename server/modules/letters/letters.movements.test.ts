import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  activityLogs,
  letterHistory,
  letterMovements,
  letters,
  notifications,
  users,
  type UserRow,
} from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createGroup, createUser, letterFields, letterPdf, postLetter } from '#server/test/factories.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';
import { todayInIndia } from '#shared/format.ts';

// Issue 17: dak that moves. Every route of item 7, each step, each refusal, and the classification rules (nobody
// learns of a Secret letter through the inbox, counts, search or notifications unless allowed).

const app = await buildTestApp();

const word = () => `w${Math.random().toString(36).slice(2, 10)}`;
const addDays = (n: number) => {
  const d = new Date(`${todayInIndia()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

type Who = UserRow | null;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', user: Who, url: string, payload?: unknown) =>
  app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: user ? authHeaders(app, user) : {},
  });

/** Uploads a letter as `user` (subject with a unique word) and returns its JSON. */
async function upload(user: UserRow, over: Record<string, string> = {}) {
  const res = await postLetter(app, user, letterFields({ letterSub: `Fire audit ${word()}`, ...over }), letterPdf());
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { _id: string; letterId: string; letterSub: string; frozen: boolean; canMark: boolean };
}

const mark = (user: Who, id: string, payload: unknown) => call('POST', user, `/api/dac/${id}/movements`, payload);
const movementsOf = (id: string) => app.db.select().from(letterMovements).where(eq(letterMovements.letterId, id));
const notesOf = (userId: string) => app.db.select().from(notifications).where(eq(notifications.userId, userId));
const inbox = async (user: UserRow, query = '') => {
  const res = await call('GET', user, `/api/dac/inbox${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    letters: {
      _id: string;
      letterSub: string;
      movement: { status: string; overdue: boolean; readAt: string | null };
    }[];
    next: string | null;
  };
};
const count = async (user: UserRow) => (await call('GET', user, '/api/dac/inbox/count')).json();
const logsFor = (id: string) => app.db.select().from(activityLogs).where(eq(activityLogs.targetId, id));

/** A letter uploaded by an employee and marked to an associate director, who has received it. */
/** The register fields of a letter as GET /api/dac/{id} answered them, for a PUT, with `changes` on top. */
const registerFields = (full: Record<string, unknown>, changes: Record<string, string>) => ({
  letterSub: full.letterSub,
  letterNo: full.letterNo,
  letterDate: full.letterDate,
  docketNo: full.docketNo,
  docketDate: full.docketDate,
  category: full.category,
  establishment: full.establishment,
  letterLanguage: full.letterLanguage,
  letterCommunBy: full.letterCommunBy,
  ...changes,
});

async function markedAndReceived() {
  const group = await createGroup(app);
  const uploader = await createUser(app, 'employee', { groupId: group.id });
  const ad = await createUser(app, 'associate_director', { groupId: group.id });
  const letter = await upload(uploader);
  expect((await mark(uploader, letter._id, { to: [ad.id], remarks: 'Please examine' })).statusCode).toBe(201);
  expect((await call('POST', ad, `/api/dac/${letter._id}/receive`)).statusCode).toBe(200);
  return { group, uploader, ad, letter };
}

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
      `Marked letter ${letter.letterId} to Ravi Rao, Meera Nair (due ${due})`,
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
    expect(await count(ad)).toEqual({ pending: 1, unread: 1, overdue: 0 });
    expect((await call('POST', owner, `/api/dac/${letter._id}/read`)).statusCode).toBe(403);
    expect((await call('POST', ad, `/api/dac/${letter._id}/read`)).statusCode).toBe(200);
    expect((await call('POST', ad, `/api/dac/${letter._id}/read`)).statusCode).toBe(200);
    expect(await count(ad)).toEqual({ pending: 1, unread: 0, overdue: 0 });
    expect((await inbox(ad)).letters[0]!.movement.readAt).toBeTruthy();
    const reads = (await logsFor(letter._id)).filter((l) => l.action.startsWith('Opened letter'));
    expect(reads).toHaveLength(1);
  });
});

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
    expect(await count(ad)).toEqual({ pending: 2, unread: 2, overdue: 0 });
    // Overdue: a due date that has passed (set in the database: the API refuses a past due date).
    await app.db
      .update(letterMovements)
      .set({ dueDate: addDays(-2) })
      .where(and(eq(letterMovements.letterId, made[0]!._id), eq(letterMovements.toUserId, ad.id)));
    const overdue = await inbox(ad, '?overdue=true');
    expect(overdue.letters.map((l) => [l._id, l.movement.overdue])).toEqual([[made[0]!._id, true]]);
    expect(await count(ad)).toEqual({ pending: 2, unread: 2, overdue: 1 });
  });

  it.each([
    ['?status=open', 'Status must be pending, received or closed.', 'status'],
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
      headers: { ...body.headers, ...authHeaders(app, uploader) },
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
    expect(await count(employee)).toEqual({ pending: 0, unread: 0, overdue: 0 });
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

  // An uncleared officer who still holds a letter keeps it from being made Secret (issue 28 item 9,
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
    expect(await count(employee)).toEqual({ pending: 0, unread: 0, overdue: 0 });
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
    expect(report.groups).toEqual([{ group: { _id: group.id, name: group.name }, pending: 1, overdue: 1, closed: 1 }]);
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
