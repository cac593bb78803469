import { existsSync } from 'node:fs';

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { activityLogs, letterHistory, letters } from '#server/db/schema/index.ts';
import { authHeaders, createUser, letterFields, postLetter } from '#server/test/factories.ts';
import { SAMPLE_FILES } from '#server/test/multipart.ts';

import { nextLetterId } from './letters.register.service.ts';
import { app, del, lettersOnDisk, pdf, seq, upload } from './letters.test-helpers.ts';

// POST /api/dac and the Letter ID it hands out.

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
    const card = await app.inject({
      method: 'GET',
      url: `/api/dac/${letter._id}`,
      headers: await authHeaders(app, owner),
    });
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
