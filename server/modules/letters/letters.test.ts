import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activityLogs, letterHistory, letters, users, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser, letterFields, letterPdf, postLetter } from '#server/test/factories.ts';
import { multipart, SAMPLE_FILES, type MultipartFile } from '#server/test/multipart.ts';
import { toActor } from '#server/plugins/auth.ts';
import { nextLetterId } from './letters.service.ts';
import { searchLetterIds } from './letters.search.ts';

const app = await buildTestApp();

/** A unique word, so tests sharing the file's database find only their own letters. */
const word = () => `w${Math.random().toString(36).slice(2, 10)}`;

const pdf = letterPdf('Reply to HQ.pdf');
const lettersOnDisk = () => {
  const dir = path.join(app.config.dataDir, 'uploads', 'letters');
  return existsSync(dir) ? readdirSync(dir).length : 0;
};

/** Uploads a letter as `user` and returns its JSON. */
async function upload(user: UserRow, over: Record<string, string | undefined> = {}) {
  const res = await postLetter(app, user, letterFields(over), pdf);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const get = (user: UserRow | null, url: string) =>
  app.inject({ method: 'GET', url, headers: user ? authHeaders(app, user) : {} });
const search = async (user: UserRow, q: string, extra = '') => {
  const res = await get(user, `/api/dac?q=${encodeURIComponent(q)}&limit=100${extra}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { _id: string; letterId: string; letterSub: string }[];
};
const put = (user: UserRow | null, id: string, payload: unknown) =>
  app.inject({
    method: 'PUT',
    url: `/api/dac/${id}`,
    payload: payload as object,
    headers: user ? authHeaders(app, user) : {},
  });
const del = (user: UserRow | null, url: string) =>
  app.inject({ method: 'DELETE', url, headers: user ? authHeaders(app, user) : {} });
const seq = (letterId: string) => Number(letterId.split('-')[2]);

describe('POST /api/dac', () => {
  it('refuses a visitor who is not signed in, and keeps no file', async () => {
    const before = lettersOnDisk();
    const res = await postLetter(app, null, letterFields(), pdf);
    expect(res.statusCode).toBe(401);
    expect(lettersOnDisk()).toBe(before);
  });

  it('registers a letter with a server-assigned Letter ID, its file, history and activity', async () => {
    const owner = await createUser(app, 'employee', { name: 'Asha Verma' });
    const res = await postLetter(app, owner, letterFields(), pdf);
    expect(res.statusCode).toBe(201);
    const letter = res.json();
    expect(letter).toMatchObject({
      ...letterFields(),
      classification: 'Normal',
      uploadedBy: { _id: owner.id, name: 'Asha Verma' },
      originalName: 'Reply to HQ.pdf',
      canEdit: true,
      deletedAt: null,
    });
    expect(letter.letterId).toMatch(new RegExp(`^L-${new Date().getFullYear()}-\\d{6}$`));
    expect(letter.fileUrl).toBe(`/uploads/letters/${letter.fileName}`);
    expect(existsSync(app.storage.storedPath('letters', letter.fileName))).toBe(true);
    // The answer is made from what was written, and is the card the register then shows.
    const card = await app.inject({ method: 'GET', url: `/api/dac/${letter._id}`, headers: authHeaders(app, owner) });
    expect(card.json()).toEqual(letter);
    const history = await app.db.select().from(letterHistory).where(eq(letterHistory.letterId, letter._id));
    expect(history).toMatchObject([{ action: 'uploaded', actorId: owner.id }]);
    const [log] = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, letter._id));
    expect(log).toMatchObject({ userId: owner.id, action: `Uploaded letter ${letter.letterId}`, targetType: 'letter' });
  });

  it('keeps the classification chosen, and accepts doc, docx, jpg and png files', async () => {
    const owner = await createUser(app, 'employee');
    const res = await postLetter(
      app,
      owner,
      { ...letterFields(), classification: 'Secret' },
      { ...pdf, filename: 'scan.png', content: SAMPLE_FILES.png },
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ classification: 'Secret', originalName: 'scan.png' });
    const jpg = await postLetter(app, owner, letterFields(), {
      ...pdf,
      filename: 'scan.jpg',
      content: SAMPLE_FILES.jpg,
    });
    expect(jpg.statusCode).toBe(201);
  });

  it.each([
    ['letterLanguage', 'Language is required.'],
    ['letterCommunBy', 'Communicated By is required.'],
    ['docketDate', 'Docket Date is required.'],
    ['letterDate', 'Letter Date is required.'],
    ['letterNo', 'Letter No is required.'],
    ['category', 'Category is required.'],
    ['establishment', 'Establishment is required.'],
    ['letterSub', 'Subject is required.'],
    ['docketNo', 'Docket No is required.'],
  ])('refuses a letter without %s: "%s", whether missing or blank, and keeps no file', async (field, message) => {
    const owner = await createUser(app, 'employee');
    const before = lettersOnDisk();
    for (const value of [undefined, '   ']) {
      const res = await postLetter(app, owner, letterFields({ [field]: value }), pdf);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: message, message, field });
    }
    expect(lettersOnDisk()).toBe(before);
  });

  it.each([
    [{ letterDate: '01/03/2026' }, 'Letter Date must be a valid date.', 'letterDate'],
    [{ docketDate: '2026-02-30' }, 'Docket Date must be a valid date.', 'docketDate'],
    [{ letterSub: 'x'.repeat(1001) }, 'Subject must be at most 1000 characters.', 'letterSub'],
    [
      { classification: 'Top Secret' },
      'Please choose a classification: Normal, Confidential or Secret.',
      'classification',
    ],
  ])('refuses %j with "%s"', async (change, message, field) => {
    const owner = await createUser(app, 'employee');
    const res = await postLetter(app, owner, { ...letterFields(), ...change }, pdf);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, field });
  });

  it('refuses a letter without a file: "⚠️ Please select a file"', async () => {
    const owner = await createUser(app, 'employee');
    const res = await postLetter(app, owner, letterFields());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: '⚠️ Please select a file', field: 'file' });
  });

  it('refuses other file types and a renamed executable, keeping nothing on disk or in the database', async () => {
    const owner = await createUser(app, 'employee');
    const before = lettersOnDisk();
    const exe = await postLetter(app, owner, letterFields(), {
      ...pdf,
      filename: 'setup.exe',
      content: SAMPLE_FILES.exe,
    });
    expect(exe.statusCode).toBe(400);
    expect(exe.json()).toMatchObject({
      message: 'This file type is not allowed. Allowed types: pdf, doc, docx, jpg, png.',
      field: 'file',
    });
    const renamed = await postLetter(app, owner, letterFields(), {
      ...pdf,
      filename: 'minutes.pdf',
      content: SAMPLE_FILES.exe,
    });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json()).toMatchObject({
      message: "The file's content does not match its .pdf extension.",
      field: 'file',
    });
    const zip = await postLetter(app, owner, letterFields(), {
      ...pdf,
      filename: 'bundle.zip',
      content: SAMPLE_FILES.zip,
    });
    expect(zip.statusCode).toBe(400);
    expect(lettersOnDisk()).toBe(before);
    expect(await app.db.select().from(letters).where(eq(letters.uploadedBy, owner.id))).toHaveLength(0);
  });

  it('refuses a file over the upload limit with 413', async () => {
    const owner = await createUser(app, 'employee');
    const big = Buffer.concat([SAMPLE_FILES.pdf, Buffer.alloc(app.config.uploadMaxBytes + 10, 0x20)]);
    const res = await postLetter(app, owner, letterFields(), { ...pdf, content: big });
    expect(res.statusCode).toBe(413);
  });
});

describe('Letter ID', () => {
  it('counts up by one per letter, also for uploads made at the same moment', async () => {
    const owner = await createUser(app, 'employee');
    const made = await Promise.all([1, 2, 3, 4, 5].map(() => upload(owner)));
    const numbers = made.map((l) => seq(l.letterId)).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(5);
    expect(numbers[4]! - numbers[0]!).toBe(4);
  });

  it('starts again at 000001 each year (India time) and is never handed out twice', async () => {
    const ids = await app.db.transaction(async (tx) => [
      await nextLetterId(tx, new Date('2031-06-01T10:00:00Z')),
      await nextLetterId(tx, new Date('2031-12-31T19:00:00Z')), // 1 Jan 2032, 00:30 IST
      await nextLetterId(tx, new Date('2031-12-31T10:00:00Z')),
    ]);
    expect(ids).toEqual(['L-2031-000001', 'L-2032-000001', 'L-2031-000002']);
  });

  it('is not reused after its letter is purged', async () => {
    const owner = await createUser(app, 'employee');
    const admin = await createUser(app, 'admin');
    const first = await upload(owner);
    expect((await del(owner, `/api/dac/${first._id}`)).statusCode).toBe(200);
    expect((await del(admin, `/api/dac/${first._id}/purge`)).statusCode).toBe(200);
    const second = await upload(owner);
    expect(seq(second.letterId)).toBeGreaterThan(seq(first.letterId));
  });
});

describe('GET /api/dac: who sees what', () => {
  it('refuses a visitor who is not signed in', async () => {
    expect((await get(null, '/api/dac')).statusCode).toBe(401);
    expect((await get(null, '/api/dac/page')).statusCode).toBe(401);
  });

  it('shows an employee only their own letters, and directors and admins every letter', async () => {
    const tag = word();
    const owner = await createUser(app, 'employee');
    const other = await createUser(app, 'employee');
    const associate = await createUser(app, 'associate_director');
    const director = await createUser(app, 'director');
    const admin = await createUser(app, 'admin');
    const normal = await upload(owner, { letterSub: `${tag} normal` });
    const secret = await upload(owner, { letterSub: `${tag} secret`, classification: 'Secret' });
    const confidential = await upload(other, { letterSub: `${tag} confidential`, classification: 'Confidential' });
    const ids = async (u: UserRow) => (await search(u, tag)).map((l) => l._id).sort();
    expect(await ids(owner)).toEqual([normal._id, secret._id].sort());
    expect(await ids(other)).toEqual([confidential._id]);
    expect(await ids(associate)).toEqual([]);
    expect(await ids(director)).toEqual([normal._id, secret._id, confidential._id].sort());
    expect(await ids(admin)).toEqual([normal._id, secret._id, confidential._id].sort());
    // One letter: the same rule; a letter one may not see is "not found", not "forbidden".
    expect((await get(other, `/api/dac/${secret._id}`)).statusCode).toBe(404);
    expect((await get(associate, `/api/dac/${normal._id}`)).statusCode).toBe(404);
    expect((await get(director, `/api/dac/${secret._id}`)).json()).toMatchObject({
      classification: 'Secret',
      canEdit: false,
    });
    expect((await get(admin, `/api/dac/${confidential._id}`)).json()).toMatchObject({ canEdit: true });
    expect((await get(owner, `/api/dac/${secret._id}`)).json()).toMatchObject({ canEdit: true });
  });

  it('answers an array, newest upload first, with limit and offset', async () => {
    const owner = await createUser(app, 'employee');
    const made = [];
    for (let i = 0; i < 4; i++) made.push(await upload(owner));
    const all = (await get(owner, '/api/dac')).json();
    expect(Array.isArray(all)).toBe(true);
    expect(all.map((l: { _id: string }) => l._id)).toEqual(made.map((l) => l._id).reverse());
    const page = (await get(owner, '/api/dac?limit=2&offset=1')).json();
    expect(page.map((l: { _id: string }) => l._id)).toEqual([made[2]._id, made[1]._id]);
    expect((await get(owner, '/api/dac?limit=0')).statusCode).toBe(400);
    expect((await get(owner, '/api/dac?limit=1000')).statusCode).toBe(400);
  });

  it('pages with a cursor until the end, and refuses a tampered cursor', async () => {
    const tag = word();
    const owner = await createUser(app, 'employee');
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await upload(owner, { letterSub: `${tag} ${i}` }));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(owner, `/api/dac/page?q=${tag}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      const body: { letters: { _id: string }[]; nextCursor: string | null } = res.json();
      seen.push(...body.letters.map((l) => l._id));
      cursor = body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(made.map((l) => l._id).reverse());
    const bad = await get(owner, '/api/dac/page?cursor=bm90LWEtY3Vyc29y');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'cursor' });
  });

  it('pages the same way when the rare-text path is taken', async () => {
    const { searchLetters } = await import('./letters.service.ts');
    const tag = word();
    const owner = await createUser(app, 'employee');
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await upload(owner, { letterSub: `${tag} ${i}` }));
    const director = toActor(await createUser(app, 'director'));
    const seen: string[] = [];
    let after;
    do {
      // A one-row window never fills a page, so every page goes to the trigram index (step 2).
      const { views, next } = await searchLetters(app.db, director, {
        q: tag.toUpperCase(),
        limit: 2,
        after,
        probeWindow: 1,
      });
      seen.push(...views.map((v) => v.letter.id));
      after = next ?? undefined;
    } while (after);
    expect(seen).toEqual(made.map((l) => l._id).reverse());
  });
});

describe('GET /api/dac?q=: search', () => {
  it('finds a letter by part of any listed field, in any case, with spaces around', async () => {
    const tag = word();
    const owner = await createUser(app, 'employee', { name: `Kavita ${tag}name Rao` });
    const director = await createUser(app, 'director');
    const letter = await upload(owner, {
      letterSub: `Annual ${tag}sub fire audit`,
      docketNo: `DK/${tag}dkt/7`,
      letterNo: `LN-${tag}lno`,
      category: `${tag}cat Circular`,
      establishment: `${tag}est Pune`,
      letterLanguage: `${tag}lang Hindi`,
      letterCommunBy: `${tag}com Courier`,
    });
    const parts = [
      `${tag}SUB FIRE`,
      `dk/${tag}DKT`,
      `ln-${tag}lno`,
      `${tag}cat`,
      `${tag}EST pune`,
      `${tag}lang`,
      `${tag}com courier`,
      `${tag}name rao`,
    ];
    for (const part of parts) {
      const found = await search(director, `  ${part.toUpperCase()}  `);
      expect(
        found.map((l) => l._id),
        part,
      ).toEqual([letter._id]);
    }
    const byId = await search(director, ` ${letter.letterId.toLowerCase()} `);
    expect(byId.map((l) => l._id)).toEqual([letter._id]);
    expect(await search(director, `${tag} nothing like this`)).toEqual([]);
  });

  it('gives the same newest-first pages whichever way it searches (window, trigram index, mine)', async () => {
    const tag = word();
    const owner = await createUser(app, 'employee');
    const made = [];
    for (let i = 0; i < 7; i++) made.push(await upload(owner, { letterSub: i % 2 ? `plain ${i}` : `${tag} ${i}` }));
    const expected = [made[6]._id, made[4]._id, made[2]._id, made[0]._id];
    const actor = toActor(owner);
    // 1, 3, 5: the window fills before the page, so step 2 (the trigram index) finds the rest; 10: the window holds the
    // owner's whole register (7), so step 1 alone is the answer.
    for (const probeWindow of [undefined, 1, 3, 5, 10]) {
      const first = await searchLetterIds(app.db, actor, { q: tag, limit: 3, probeWindow, mine: true });
      expect(first.ids, `window ${probeWindow}`).toEqual(expected.slice(0, 3));
      const rest = await searchLetterIds(app.db, actor, { q: tag, limit: 3, probeWindow, after: first.next! });
      expect(rest).toEqual({ ids: expected.slice(3), next: null });
      const offset = await searchLetterIds(app.db, actor, { q: tag, limit: 2, offset: 1, probeWindow });
      expect(offset.ids).toEqual(expected.slice(1, 3));
    }
  });

  it('finds a letter by part of its Letter ID, and by the whole ID', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner);
    const digits = letter.letterId.slice(-6);
    expect((await search(owner, digits)).map((l) => l._id)).toContain(letter._id);
    expect((await search(owner, letter.letterId.slice(0, 9))).map((l) => l._id)).toContain(letter._id);
    expect((await search(owner, ` ${letter.letterId.toLowerCase()} `)).map((l) => l._id)).toEqual([letter._id]);
    const other = await createUser(app, 'employee');
    expect(await search(other, letter.letterId)).toEqual([]); // the rule of who sees what holds here too
  });

  it('finds letters by the uploader’s new name after a name change', async () => {
    const owner = await createUser(app, 'employee', { name: 'Old Name' });
    const letter = await upload(owner);
    const fresh = word();
    await app.db
      .update(users)
      .set({ name: `Renamed ${fresh}` })
      .where(eq(users.id, owner.id));
    expect((await search(owner, fresh)).map((l) => l._id)).toEqual([letter._id]);
  });

  it('takes % and _ literally', async () => {
    const tag = word();
    const owner = await createUser(app, 'employee');
    const literal = await upload(owner, { letterSub: `${tag} 100% done_now` });
    await upload(owner, { letterSub: `${tag} 100 done now` });
    expect((await search(owner, '100% done_')).map((l) => l._id)).toEqual([literal._id]);
    expect(await search(owner, `${tag}%`)).toEqual([]);
  });

  it('keeps only my letters with mine=true, and refuses an over-long search', async () => {
    const tag = word();
    const director = await createUser(app, 'director');
    const owner = await createUser(app, 'employee');
    const mine = await upload(director, { letterSub: tag });
    await upload(owner, { letterSub: tag });
    expect(await search(director, tag)).toHaveLength(2);
    expect((await search(director, tag, '&mine=true')).map((l) => l._id)).toEqual([mine._id]);
    const res = await get(director, `/api/dac?q=${'x'.repeat(201)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Search text must be at most 200 characters.', field: 'q' });
  });
});

describe('PUT /api/dac/{id}', () => {
  it('lets the uploader edit the nine fields, keeping history and activity', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner);
    const res = await put(owner, letter._id, {
      ...letterFields({ letterSub: 'Revised subject', letterDate: '2026-03-02T00:00:00.000Z' }),
      classification: 'Confidential',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      letterSub: 'Revised subject',
      letterDate: '2026-03-02',
      classification: 'Confidential',
      letterId: letter.letterId,
    });
    const history = (await get(owner, `/api/dac/${letter._id}/history`)).json();
    expect(history).toHaveLength(2);
    expect(history[1]).toMatchObject({
      action: 'updated',
      actor: { _id: owner.id },
      changes: {
        letterSub: { from: 'Fire drill schedule for the winter', to: 'Revised subject' },
        letterDate: { from: '2026-03-01', to: '2026-03-02' },
        classification: { from: 'Normal', to: 'Confidential' },
      },
    });
    const logs = await app.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, letter._id), eq(activityLogs.userId, owner.id)));
    expect(logs.map((l) => l.action)).toContain(
      `Updated letter ${letter.letterId} (letterDate, letterSub, classification)`,
    );
  });

  it('keeps the classification when it is not sent, and writes nothing when nothing changed', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner, { classification: 'Secret' });
    const res = await put(owner, letter._id, letterFields());
    expect(res.json()).toMatchObject({ classification: 'Secret' });
    expect((await get(owner, `/api/dac/${letter._id}/history`)).json()).toHaveLength(1);
  });

  it('lets only the uploader or an admin edit', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner);
    expect((await put(null, letter._id, letterFields())).statusCode).toBe(401);
    expect((await put(await createUser(app, 'employee'), letter._id, letterFields())).statusCode).toBe(404);
    const byDirector = await put(await createUser(app, 'director'), letter._id, letterFields({ letterSub: 'x' }));
    expect(byDirector.statusCode).toBe(403);
    expect(byDirector.json().message).toBe(
      'Only the person who uploaded this letter or an administrator may change it.',
    );
    const byAdmin = await put(
      await createUser(app, 'admin'),
      letter._id,
      letterFields({ letterSub: 'Fixed by admin' }),
    );
    expect(byAdmin.statusCode).toBe(200);
    expect((await put(owner, '00000000-0000-4000-8000-000000000000', letterFields())).statusCode).toBe(404);
  });

  it('says why a field is refused', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner);
    const res = await put(owner, letter._id, letterFields({ establishment: ' ' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Establishment is required.', field: 'establishment' });
    const noBody = await put(owner, letter._id, undefined);
    expect(noBody.statusCode).toBe(400);
  });
});

describe('PUT /api/dac/{id}/file', () => {
  const replace = (user: UserRow | null, id: string, ...files: MultipartFile[]) => {
    const body = multipart({}, ...files);
    return app.inject({
      method: 'PUT',
      url: `/api/dac/${id}/file`,
      payload: body.payload,
      headers: { ...body.headers, ...(user ? authHeaders(app, user) : {}) },
    });
  };

  it('replaces the file, removes the old one and notes it in the history', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner);
    const res = await replace(owner, letter._id, {
      field: 'file',
      filename: 'signed copy.png',
      content: SAMPLE_FILES.png,
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json();
    expect(updated).toMatchObject({ originalName: 'signed copy.png' });
    expect(updated.fileName).not.toBe(letter.fileName);
    expect(existsSync(app.storage.storedPath('letters', letter.fileName))).toBe(false);
    expect((await get(owner, letter.fileUrl)).statusCode).toBe(404);
    expect((await get(owner, updated.fileUrl)).statusCode).toBe(200);
    const history = (await get(owner, `/api/dac/${letter._id}/history`)).json();
    expect(history.at(-1)).toMatchObject({
      action: 'file_replaced',
      changes: { file: { from: 'Reply to HQ.pdf', to: 'signed copy.png' } },
    });
  });

  it('refuses strangers before reading the upload, a missing file and a wrong type', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner);
    const before = lettersOnDisk();
    expect((await replace(null, letter._id, pdf)).statusCode).toBe(401);
    expect((await replace(await createUser(app, 'employee'), letter._id, pdf)).statusCode).toBe(404);
    expect((await replace(await createUser(app, 'director'), letter._id, pdf)).statusCode).toBe(403);
    const none = await replace(owner, letter._id);
    expect(none.json()).toMatchObject({ message: '⚠️ Please select a file', field: 'file' });
    const exe = await replace(owner, letter._id, { ...pdf, content: SAMPLE_FILES.exe });
    expect(exe.statusCode).toBe(400);
    expect(lettersOnDisk()).toBe(before);
  });
});

describe('DELETE /api/dac/{id}, the recycle bin, restore and purge', () => {
  it('lets only the uploader or an admin move a letter to the recycle bin', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner);
    expect((await del(null, `/api/dac/${letter._id}`)).statusCode).toBe(401);
    expect((await del(await createUser(app, 'employee'), `/api/dac/${letter._id}`)).statusCode).toBe(404);
    expect((await del(await createUser(app, 'director'), `/api/dac/${letter._id}`)).statusCode).toBe(403);
    const res = await del(owner, `/api/dac/${letter._id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Letter moved to the recycle bin.' });
    expect((await get(owner, `/api/dac/${letter._id}`)).statusCode).toBe(404);
    expect((await del(owner, `/api/dac/${letter._id}`)).statusCode).toBe(404);
    expect((await get(owner, '/api/dac?limit=100')).json()).toEqual([]);
    const admin = await createUser(app, 'admin');
    await upload(admin); // an admin may delete anyone's letter
    const adminsOwn = await upload(owner);
    expect((await del(admin, `/api/dac/${adminsOwn._id}`)).statusCode).toBe(200);
  });

  it('shows the bin to admins only, and restores from it', async () => {
    const owner = await createUser(app, 'employee');
    const admin = await createUser(app, 'admin');
    const letter = await upload(owner);
    await del(owner, `/api/dac/${letter._id}`);
    expect((await get(owner, '/api/dac/recycle-bin')).statusCode).toBe(403);
    expect((await get(await createUser(app, 'director'), '/api/dac/recycle-bin')).statusCode).toBe(403);
    const bin = (await get(admin, '/api/dac/recycle-bin?limit=100')).json();
    expect(bin.find((l: { _id: string }) => l._id === letter._id)).toMatchObject({
      deletedBy: { _id: owner.id },
      canEdit: false,
    });
    expect(
      (await app.inject({ method: 'POST', url: `/api/dac/${letter._id}/restore`, headers: authHeaders(app, owner) }))
        .statusCode,
    ).toBe(403);
    const restored = await app.inject({
      method: 'POST',
      url: `/api/dac/${letter._id}/restore`,
      headers: authHeaders(app, admin),
    });
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ _id: letter._id, deletedAt: null });
    expect((await get(owner, `/api/dac/${letter._id}`)).statusCode).toBe(200);
    const again = await app.inject({
      method: 'POST',
      url: `/api/dac/${letter._id}/restore`,
      headers: authHeaders(app, admin),
    });
    expect(again.statusCode).toBe(409);
    const history = (await get(owner, `/api/dac/${letter._id}/history`)).json();
    expect(history.map((h: { action: string }) => h.action)).toEqual(['uploaded', 'deleted', 'restored']);
  });

  it('purges a binned letter with its file, for admins only', async () => {
    const owner = await createUser(app, 'employee');
    const admin = await createUser(app, 'admin');
    const letter = await upload(owner);
    expect((await del(admin, `/api/dac/${letter._id}/purge`)).statusCode).toBe(409); // not in the bin yet
    await del(owner, `/api/dac/${letter._id}`);
    expect((await del(owner, `/api/dac/${letter._id}/purge`)).statusCode).toBe(403);
    const res = await del(admin, `/api/dac/${letter._id}/purge`);
    expect(res.statusCode).toBe(200);
    expect(existsSync(app.storage.storedPath('letters', letter.fileName))).toBe(false);
    expect((await get(admin, `/api/dac/${letter._id}`)).statusCode).toBe(404);
    expect((await get(admin, letter.fileUrl)).statusCode).toBe(404);
    const [log] = await app.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, letter._id), eq(activityLogs.userId, admin.id)));
    expect(log!.action).toBe(`Purged letter ${letter.letterId} (${letter.letterSub})`);
  });
});

describe('GET /api/dac/{id}/history', () => {
  it('is shown to those who may see the letter', async () => {
    const owner = await createUser(app, 'employee', { name: 'Meera Iyer' });
    const letter = await upload(owner);
    expect((await get(null, `/api/dac/${letter._id}/history`)).statusCode).toBe(401);
    expect((await get(await createUser(app, 'employee'), `/api/dac/${letter._id}/history`)).statusCode).toBe(404);
    const res = await get(await createUser(app, 'director'), `/api/dac/${letter._id}/history`);
    expect(res.json()).toMatchObject([{ action: 'uploaded', actor: { name: 'Meera Iyer' }, changes: null }]);
  });
});

describe('GET /uploads/letters/{fileName}', () => {
  it('serves a letter file only to those who may see the letter', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner, { classification: 'Confidential' });
    expect((await get(null, letter.fileUrl)).statusCode).toBe(401);
    const ok = await get(owner, letter.fileUrl);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('application/pdf');
    expect(ok.rawPayload.equals(SAMPLE_FILES.pdf)).toBe(true);
    const outsider = await get(await createUser(app, 'employee'), letter.fileUrl);
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json().message).toBe('You are not allowed to open this file.');
    expect((await get(await createUser(app, 'associate_director'), letter.fileUrl)).statusCode).toBe(403);
    expect((await get(await createUser(app, 'director'), letter.fileUrl)).statusCode).toBe(200);
    expect((await get(await createUser(app, 'admin'), letter.fileUrl)).statusCode).toBe(200);
  });

  it('keeps the file of a binned letter for admins only', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner);
    await del(owner, `/api/dac/${letter._id}`);
    expect((await get(owner, letter.fileUrl)).statusCode).toBe(403);
    expect((await get(await createUser(app, 'director'), letter.fileUrl)).statusCode).toBe(403);
    expect((await get(await createUser(app, 'admin'), letter.fileUrl)).statusCode).toBe(200);
  });
});

describe('GET /api/dac/export', () => {
  it('exports the letters of the search that the person may see, as CSV', async () => {
    const tag = word();
    const owner = await createUser(app, 'employee', { name: 'Ravi Kumar' });
    await upload(owner, { letterSub: `${tag} "quoted", subject`, letterNo: '=HYPERLINK("x")' });
    await upload(await createUser(app, 'employee'), { letterSub: `${tag} not mine` });
    expect((await get(null, `/api/dac/export?q=${tag}`)).statusCode).toBe(401);
    const res = await get(owner, `/api/dac/export?q=${tag}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="letters-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Letter ID,Subject,Docket No,Letter No,Letter Date,Docket Date,Category,Establishment,Language,Communicated By,Classification,Uploaded By,Uploaded On,File,Movements',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"${tag} ""quoted"", subject",D-42,"'=HYPERLINK(""x"")",01 Mar 2026,03 Mar 2026`);
    expect(lines[1]).toContain('Ravi Kumar');
  });
});
