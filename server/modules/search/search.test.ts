import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARK_END, MARK_START, SEARCH_COUNT_CAP, SEARCH_KINDS, type SearchAnswerJson } from '#shared/schemas/search.ts';
import {
  directorEntries,
  fileTexts,
  groups,
  labItems,
  letters,
  users,
  type GroupRow,
  type LabRow,
  type UserRow,
} from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { docxWithText, pdfWithText, uniqueWord } from '#server/test/documents.ts';
import { authHeaders, createGroup, createLab, createUser, letterFields } from '#server/test/factories.ts';
import { multipart, type MultipartFile } from '#server/test/multipart.ts';
import { extractFileText, extractPendingFiles } from './extraction.ts';
import { RANK_WINDOW } from './search.service.ts';
import { TextExtractor } from './extractor.ts';

let app: FastifyInstance;
let lab: LabRow;
let group: GroupRow;
let otherGroup: GroupRow;
let admin: UserRow;
let director: UserRow;
/** Members of `group`. */
let member: UserRow;
let secondMember: UserRow;
/** An employee of `otherGroup`. */
let outsider: UserRow;
/** Leads `group` while listed in `otherGroup`. */
let associateDirector: UserRow;
const extractor = new TextExtractor();

beforeAll(async () => {
  app = await buildTestApp();
  lab = await createLab(app);
  group = await createGroup(app, { name: `Fire Modelling ${uniqueWord('')}` });
  otherGroup = await createGroup(app);
  admin = await createUser(app, 'admin', { name: 'Admin Officer' });
  director = await createUser(app, 'director', { name: 'Dinesh Director' });
  member = await createUser(app, 'employee', { name: 'Meera Member', groupId: group.id });
  secondMember = await createUser(app, 'employee', { name: 'Sunil Member', groupId: group.id });
  outsider = await createUser(app, 'employee', { name: 'Owen Outsider', groupId: otherGroup.id });
  associateDirector = await createUser(app, 'associate_director', { name: 'Anita Lead', groupId: group.id });
  await app.db.insert(directorEntries).values({
    groupId: group.id,
    userId: associateDirector.id,
    designation: 'Assistant Director',
    from: '2024-01-01',
  });
});
afterAll(() => extractor.close());

type Who = UserRow | null;

async function search(who: Who, q: string, extra = ''): Promise<SearchAnswerJson> {
  const res = await app.inject({
    url: `/api/search?q=${encodeURIComponent(q)}${extra}`,
    headers: who ? authHeaders(app, who) : {},
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** Does this person find exactly one result for the word, of this kind, with the word marked in its snippet? */
async function finds(who: Who, word: string, kind: string): Promise<boolean> {
  const answer = await search(who, word);
  if (!answer.results.length) {
    expect(answer.counts).toEqual({});
    return false;
  }
  expect(answer.results).toHaveLength(1);
  const [hit] = answer.results;
  expect(hit!.kind).toBe(kind);
  expect(hit!.snippet.toLowerCase()).toContain(`${MARK_START}${word}${MARK_END}`);
  expect(answer.counts).toEqual({ [kind]: 1 });
  return true;
}

async function send(
  who: UserRow,
  method: 'POST' | 'PUT',
  url: string,
  fields: Record<string, string>,
  file?: MultipartFile,
) {
  const body = file ? multipart(fields, file) : multipart(fields);
  const res = await app.inject({
    method,
    url,
    payload: body.payload,
    headers: { ...body.headers, ...authHeaders(app, who) },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

const pdf = (word: string, field = 'file'): MultipartFile => ({
  field,
  filename: 'report.pdf',
  content: pdfWithText(`Quarterly findings ${word} on fire safety`),
});
const docx = (word: string, field = 'file'): MultipartFile => ({
  field,
  filename: 'minutes.docx',
  content: docxWithText(`Minutes of the meeting about ${word} and the trial`),
});

const extract = () => extractPendingFiles(app.db, app.storage, extractor);

/** Who finds the word, as a map: the permission table of a kind. */
async function findersOf(word: string, kind: string, people: Record<string, Who>) {
  const found: Record<string, boolean> = {};
  for (const [name, who] of Object.entries(people)) found[name] = await finds(who, word, kind);
  return found;
}

describe('GET /api/search: the query', () => {
  it.each([
    ['', 'Type at least 2 characters to search.'],
    ['   ', 'Type at least 2 characters to search.'],
    ['a', 'Type at least 2 characters to search.'],
    ['x'.repeat(201), 'Search text must be at most 200 characters.'],
  ])('refuses %j with 400 and a message', async (q, message) => {
    const res = await app.inject({ url: `/api/search?q=${encodeURIComponent(q)}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, field: 'q' });
  });

  it('refuses a missing q, an unknown kind, a bad limit and a tampered cursor with 400', async () => {
    expect((await app.inject({ url: '/api/search' })).statusCode).toBe(400);
    const kind = await app.inject({ url: '/api/search?q=fire&kinds=letter,secret-stuff' });
    expect(kind.statusCode).toBe(400);
    expect(kind.json().message).toMatch(/^Unknown kind "secret-stuff"/);
    for (const limit of ['0', '51', 'abc', '1.5']) {
      const res = await app.inject({ url: `/api/search?q=fire&limit=${limit}` });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Limit must be a whole number from 1 to 50.');
    }
    for (const cursor of ['abc', Buffer.from('[1,"letter","x"]').toString('base64url')]) {
      const res = await app.inject({ url: `/api/search?q=fire&cursor=${cursor}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: 'This list has changed. Please search again.', field: 'cursor' });
    }
  });

  it('treats an invalid token as a visitor (public results only), never as an error', async () => {
    const res = await app.inject({ url: '/api/search?q=fire', headers: { authorization: 'Bearer nonsense' } });
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /api/search: per kind, text inside PDF and DOCX files, found only by those allowed', () => {
  it('lab notices (public): everyone, visitors too, find the words inside the PDF and the DOCX', async () => {
    const [inPdf, inDocx] = [uniqueWord(), uniqueWord()];
    await send(
      admin,
      'POST',
      `/api/labs/${lab.id}/notices`,
      { name: 'Fire drill', description: 'Annual drill' },
      pdf(inPdf),
    );
    const circular = await send(
      admin,
      'POST',
      `/api/labs/${lab.id}/circulars`,
      { name: 'Leave rules', description: 'Revised' },
      docx(inDocx),
    );
    // Nothing is found before the job has read the files: the upload did not wait for it.
    expect((await search(null, inPdf)).results).toEqual([]);
    await extract();
    for (const who of [null, outsider, member, admin]) {
      expect(await finds(who, inPdf, 'notice')).toBe(true);
      expect(await finds(who, inDocx, 'circular')).toBe(true);
    }
    const [hit] = (await search(null, inDocx)).results;
    expect(hit).toMatchObject({ _id: circular._id, title: 'Leave rules', url: circular.fileUrl });
    expect(hit!.snippet).toContain(`Minutes of the meeting about ${MARK_START}${inDocx}${MARK_END}`);
  });

  it('group notices (members only): members, the group leader, directors and admins; not visitors or other groups', async () => {
    const [inPdf, inDocx] = [uniqueWord(), uniqueWord()];
    await send(
      admin,
      'POST',
      `/api/groups/${group.id}/notices`,
      { name: 'Lab closure', description: 'Holiday' },
      pdf(inPdf),
    );
    await send(
      admin,
      'POST',
      `/api/groups/${group.id}/circulars`,
      { name: 'Shift roster', description: 'May' },
      docx(inDocx),
    );
    await extract();
    const people = { visitor: null, outsider, member, associateDirector, director, admin };
    const allowed = {
      visitor: false,
      outsider: false,
      member: true,
      associateDirector: true,
      director: true,
      admin: true,
    };
    expect(await findersOf(inPdf, 'group-notice', people)).toEqual(allowed);
    expect(await findersOf(inDocx, 'group-circular', people)).toEqual(allowed);
    // Not even its title or a count leaks to a visitor searching the title.
    expect(await search(null, 'Shift roster')).toMatchObject({ results: [], counts: {} });
  });

  it('group projects: listed publicly by name (lab home), but the text of the file only for those who may open it', async () => {
    const [inPdf, inTitle] = [uniqueWord(), uniqueWord()];
    const project = await send(
      admin,
      'POST',
      `/api/group-files/${group.id}/projects`,
      { name: `Project ${inTitle}`, description: 'Smoke flow' },
      pdf(inPdf),
    );
    await extract();
    expect(await findersOf(inPdf, 'project', { visitor: null, outsider, member, director })).toEqual({
      visitor: false,
      outsider: false,
      member: true,
      director: true,
    });
    const [forVisitor] = (await search(null, inTitle)).results;
    expect(forVisitor).toMatchObject({ kind: 'project', _id: project._id, url: '/' });
    const [forMember] = (await search(member, inTitle)).results;
    expect(forMember!.url).toBe(project.fileUrl);
  });

  it('letters: a Secret letter only for its uploader, directors and admins; not another employee or a visitor', async () => {
    const uploader = await createUser(app, 'employee', { name: 'Uma Uploader', groupId: group.id });
    const [inPdf, inDocx] = [uniqueWord(), uniqueWord()];
    const fields = (sub: string) => letterFields({ letterSub: sub, classification: 'Secret' });
    const letter = await send(uploader, 'POST', '/api/dac', fields('Blast test'), pdf(inPdf));
    await send(uploader, 'POST', '/api/dac', fields('Trial plan'), docx(inDocx));
    await extract();
    const people = { visitor: null, member, outsider, uploader, director, admin };
    const allowed = { visitor: false, member: false, outsider: false, uploader: true, director: true, admin: true };
    expect(await findersOf(inPdf, 'letter', people)).toEqual(allowed);
    expect(await findersOf(inDocx, 'letter', people)).toEqual(allowed);
    // The /allLetter search fields find it too (its Letter ID), for the same people only.
    const byId = await search(director, letter.letterId);
    expect(byId.results.map((r) => r._id)).toContain(letter._id);
    expect((await search(member, letter.letterId)).results).toEqual([]);
  });

  it('close-group documents: its members and admins; not a non-member, a director or a visitor', async () => {
    const [inPdf, inDocx] = [uniqueWord(), uniqueWord()];
    const { closeGroup, alice, bob } = await closeGroupWith2Members();
    await send(alice, 'POST', `/api/close-groups/${closeGroup}/upload`, {}, pdf(inPdf, 'document'));
    await send(bob, 'POST', `/api/close-groups/${closeGroup}/upload`, {}, docx(inDocx, 'document'));
    await extract();
    const people = { visitor: null, alice, bob, nonMember: member, director, admin };
    const allowed = { visitor: false, alice: true, bob: true, nonMember: false, director: false, admin: true };
    expect(await findersOf(inPdf, 'close-group-document', people)).toEqual(allowed);
    expect(await findersOf(inDocx, 'close-group-document', people)).toEqual(allowed);
  });

  it('software repositories: the group, its own uploader, directors and admins; not another group', async () => {
    const [inPdf, inDocx] = [uniqueWord(), uniqueWord()];
    await send(admin, 'POST', '/api/softwareRepo', { group: group.id, type: 'Document' }, pdf(inPdf));
    await send(admin, 'POST', '/api/softwareRepo', { group: group.id, type: 'Document' }, docx(inDocx));
    await extract();
    const people = { visitor: null, outsider, member, director, admin };
    const allowed = { visitor: false, outsider: false, member: true, director: true, admin: true };
    expect(await findersOf(inPdf, 'software-repository', people)).toEqual(allowed);
    expect(await findersOf(inDocx, 'software-repository', people)).toEqual(allowed);
  });

  it('people (signed in only), groups (members), gallery photos (everyone): by their fields', async () => {
    const [skill, about, caption] = [uniqueWord(), uniqueWord(), uniqueWord()];
    await createUser(app, 'employee', {
      name: 'Priya Sharma',
      designation: 'Scientist D',
      skills: [skill],
      groupId: otherGroup.id,
    });
    const edit = await app.inject({
      method: 'PUT',
      url: `/api/groups/${group.id}`,
      headers: authHeaders(app, admin),
      payload: { name: group.name, about: `We model ${about} in tunnels` },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    await send(
      admin,
      'POST',
      `/api/labs/${lab.id}/upload-photo`,
      { name: 'Open day', description: `Visitors at ${caption}` },
      {
        field: 'photo',
        filename: 'day.png',
        content: (await import('#server/test/multipart.ts')).SAMPLE_FILES.png,
      },
    );
    expect(await findersOf(skill, 'person', { visitor: null, outsider, member })).toEqual({
      visitor: false,
      outsider: true,
      member: true,
    });
    expect(await findersOf(about, 'group', { visitor: null, outsider, member, director })).toEqual({
      visitor: false,
      outsider: false,
      member: true,
      director: true,
    });
    expect(await findersOf(caption, 'photo', { visitor: null, member })).toEqual({ visitor: true, member: true });
    // A partial name (trigram) and a prefix as one types find the person.
    expect((await search(member, 'Sharm')).results.some((r) => r.title === 'Priya Sharma')).toBe(true);
    expect((await search(member, skill.slice(0, 7))).results.map((r) => r.kind)).toContain('person');
  });

  it('finds Hindi (Devanagari) words with the simple configuration', async () => {
    const word = 'अग्निशमन';
    await send(
      admin,
      'POST',
      `/api/labs/${lab.id}/notices`,
      { name: 'सूचना', description: `${word} अभ्यास सोमवार को` },
      pdf(uniqueWord()),
    );
    const answer = await search(null, word);
    expect(answer.results.map((r) => r.title)).toContain('सूचना');
    expect(answer.results[0]!.snippet).toContain(`${MARK_START}${word}${MARK_END}`);
  });
});

async function closeGroupWith2Members() {
  const alice = await createUser(app, 'employee', { name: 'Alice Rao', groupId: otherGroup.id });
  const bob = await createUser(app, 'employee', { name: 'Bob Singh', groupId: otherGroup.id });
  const today = new Date().toISOString().slice(0, 10);
  const res = await app.inject({
    method: 'POST',
    url: '/admin/close-group',
    headers: authHeaders(app, admin),
    payload: {
      groupName: 'Blast wall review',
      groupPurpose: 'Review the blast wall design.',
      groupDuration: { from: '2020-01-01', to: `${Number(today.slice(0, 4)) + 1}-12-31` },
      requestedBy: [alice.id, bob.id],
      adminRemarks: '',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { closeGroup: res.json()._id as string, alice, bob };
}

describe('GET /api/search: results follow memberships and deletions at once', () => {
  it('removal from a group removes its results immediately', async () => {
    const word = uniqueWord();
    await send(admin, 'POST', `/api/groups/${group.id}/notices`, { name: 'Drill', description: 'Drill' }, pdf(word));
    await extract();
    expect(await finds(secondMember, word, 'group-notice')).toBe(true);
    const res = await app.inject({
      method: 'DELETE',
      url: `/api/groups/${group.id}/members/${secondMember.id}`,
      headers: authHeaders(app, admin),
    });
    expect(res.statusCode).toBe(200);
    expect(await finds(secondMember, word, 'group-notice')).toBe(false);
  });

  it('removal from a close group removes its documents immediately', async () => {
    const word = uniqueWord();
    const { closeGroup, alice, bob } = await closeGroupWith2Members();
    await send(alice, 'POST', `/api/close-groups/${closeGroup}/upload`, {}, pdf(word, 'document'));
    await extract();
    expect(await finds(bob, word, 'close-group-document')).toBe(true);
    const res = await app.inject({
      method: 'PUT',
      url: `/admin/close-group/${closeGroup}`,
      headers: authHeaders(app, admin),
      payload: {
        groupName: 'Blast wall review',
        groupPurpose: 'Review the blast wall design.',
        groupDuration: { from: '2020-01-01', to: '2099-12-31' },
        requestedBy: [alice.id],
        adminRemarks: '',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await finds(bob, word, 'close-group-document')).toBe(false);
    expect(await finds(alice, word, 'close-group-document')).toBe(true);
  });

  it('a deleted item disappears: close-group document, group notice, letter (recycle bin)', async () => {
    const [a, b, c] = [uniqueWord(), uniqueWord(), uniqueWord()];
    const { closeGroup, alice } = await closeGroupWith2Members();
    const upload = await send(alice, 'POST', `/api/close-groups/${closeGroup}/upload`, {}, pdf(a, 'document'));
    const notice = await send(
      admin,
      'POST',
      `/api/groups/${group.id}/notices`,
      { name: 'Old', description: 'Old' },
      pdf(b),
    );
    const letter = await send(admin, 'POST', '/api/dac', letterFields({ letterSub: 'Old letter' }), pdf(c));
    await extract();
    expect(await finds(admin, a, 'close-group-document')).toBe(true);
    expect(await finds(admin, b, 'group-notice')).toBe(true);
    expect(await finds(admin, c, 'letter')).toBe(true);
    const del = (url: string) => app.inject({ method: 'DELETE', url, headers: authHeaders(app, admin) });
    expect((await del(`/api/close-groups/${closeGroup}/documents/${upload.document._id}`)).statusCode).toBe(200);
    expect((await del(`/api/groups/${group.id}/notices/${notice._id}`)).statusCode).toBe(200);
    expect((await del(`/api/dac/${letter._id}`)).statusCode).toBe(200);
    for (const word of [a, b, c]) expect(await search(admin, word)).toMatchObject({ results: [], counts: {} });
  });
});

describe('the index: an entry is written again only when what it holds changed (issue 12)', () => {
  /** The row version of an entry: a re-index deletes and inserts it, so a new one means it was written. */
  const entry = async (kind: string, id: string) =>
    (
      await app.db.execute<{ version: string }>(
        sql`select xmin::text as version from search_documents where kind = ${kind} and item_id = ${id}`,
      )
    ).rows[0]?.version;
  const kindsFound = async (who: Who, word: string) => (await search(who, word)).results.map((r) => r.kind);

  it('a person: not for their "about", password or sign-outs; a new designation is found at once', async () => {
    const person = await createUser(app, 'employee', { name: 'Ravi Indexed', groupId: group.id });
    const before = await entry('person', person.id);
    expect(before).toBeDefined();
    await app.db
      .update(users)
      .set({ about: 'Studies smoke.', passwordHash: 'not-a-hash', sessionsValidAfter: new Date() })
      .where(eq(users.id, person.id));
    expect(await entry('person', person.id)).toBe(before);
    const word = uniqueWord();
    await app.db
      .update(users)
      .set({ designation: `Scientist ${word}` })
      .where(eq(users.id, person.id));
    expect(await entry('person', person.id)).not.toBe(before);
    expect(await kindsFound(member, word)).toEqual(['person']);
  });

  it('a group: not for a new version of its page; a new vision is found at once', async () => {
    const before = await entry('group', group.id);
    expect(before).toBeDefined();
    await app.db
      .update(groups)
      .set({ contentVersion: sql`${groups.contentVersion} + 1` })
      .where(eq(groups.id, group.id));
    expect(await entry('group', group.id)).toBe(before);
    const word = uniqueWord();
    await app.db
      .update(groups)
      .set({ vision: `Safer ${word}` })
      .where(eq(groups.id, group.id));
    expect(await kindsFound(member, word)).toEqual(['group']);
  });

  it("a letter: not for a touch that changes none of its fields; its uploader's new name is found at once", async () => {
    const uploader = await createUser(app, 'admin', { name: 'Usha Uploader' });
    const letter = await send(
      uploader,
      'POST',
      '/api/dac',
      {
        letterSub: 'Indexed letter',
        letterNo: '7',
        letterDate: '2026-03-01',
        docketNo: '8',
        docketDate: '2026-03-03',
        category: 'C',
        establishment: 'E',
        letterLanguage: 'English',
        letterCommunBy: 'Post',
      },
      pdf(uniqueWord()),
    );
    await extract();
    const before = await entry('letter', letter._id);
    expect(before).toBeDefined();
    await app.db.update(letters).set({ updatedAt: new Date() }).where(eq(letters.id, letter._id));
    expect(await entry('letter', letter._id)).toBe(before);
    const word = uniqueWord();
    await app.db
      .update(users)
      .set({ name: `Usha ${word}` })
      .where(eq(users.id, uploader.id));
    expect(await kindsFound(uploader, word)).toEqual(expect.arrayContaining(['letter', 'person']));
  });
});

describe('GET /api/search: paging, kinds and counts', () => {
  it('pages by cursor without repeats, filters by kind, and counts every kind', async () => {
    const word = uniqueWord();
    for (const name of ['One', 'Two', 'Three']) {
      await send(admin, 'POST', `/api/labs/${lab.id}/products`, { name: `${name} ${word}`, description: 'Kit' });
    }
    await send(admin, 'POST', `/api/labs/${lab.id}/advertisements`, { name: `Ad ${word}`, description: 'Sale' });
    const first = await search(null, word, '&limit=2');
    expect(first.results).toHaveLength(2);
    expect(first.counts).toEqual({ product: 3, advertisement: 1 });
    const second = await search(null, word, `&limit=2&cursor=${first.next}`);
    expect(second.results).toHaveLength(2);
    expect(second.next).toBeNull();
    const ids = [...first.results, ...second.results].map((r) => r._id);
    expect(new Set(ids).size).toBe(4);
    const onlyAds = await search(null, word, '&kinds=advertisement');
    expect(onlyAds.results.map((r) => r.kind)).toEqual(['advertisement']);
    expect(onlyAds.counts).toEqual({ product: 3, advertisement: 1 });
    expect(first.countsCapped).toBe(false);
    expect(SEARCH_KINDS).toHaveLength(18);
  });

  it('a word in more documents than the cap: counts of the newest matches, marked capped; paging crosses ranking windows', async () => {
    const word = uniqueWord();
    const many = SEARCH_COUNT_CAP + 30; // more than the count cap and the ranking window (RANK_WINDOW)
    expect(many).toBeGreaterThan(RANK_WINDOW);
    await app.db.insert(labItems).values(
      Array.from({ length: many }, (_, i) => ({
        labId: lab.id,
        kind: i % 3 ? ('notice' as const) : ('product' as const),
        name: `Item ${i} ${word}`,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      })),
    );
    const first = await search(null, word, '&limit=50');
    expect(first.countsCapped).toBe(true);
    expect(Object.values(first.counts).reduce((sum, n) => sum + (n ?? 0), 0)).toBe(SEARCH_COUNT_CAP);
    expect(first.counts.notice).toBeGreaterThan(0);
    expect(first.counts.product).toBeGreaterThan(0);
    // Every match is reached by paging, once.
    const seen = new Set<string>();
    let page: SearchAnswerJson = first;
    for (;;) {
      for (const r of page.results) seen.add(r._id);
      if (!page.next) break;
      page = await search(null, word, `&limit=50&cursor=${page.next}`);
    }
    expect(seen.size).toBe(many);
    // A few matches are counted exactly.
    const few = await search(null, `Item 7 ${word}`);
    expect(few.countsCapped).toBe(false);
  });
});

describe('text extraction: limits', () => {
  it('a corrupt PDF fails alone and a 25 MB text file is cut, while other requests are answered at once', async () => {
    const big = await buildTestApp({ UPLOAD_MAX_BYTES: String(30 * 1024 * 1024) });
    const user = await createUser(big, 'admin', { name: 'Big Admin' });
    const headers = authHeaders(big, user);
    const bigLab = await createLab(big);
    const word = uniqueWord();
    const post = async (filename: string, content: Buffer, kind = 'notices') => {
      const body = multipart({ name: filename, description: 'x' }, { field: 'file', filename, content });
      const res = await big.inject({
        method: 'POST',
        url: `/api/labs/${bigLab.id}/${kind}`,
        payload: body.payload,
        headers: { ...body.headers, ...headers },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().fileUrl.split('/').pop() as string;
    };
    const corrupt = await post('broken.pdf', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4096, 0x41)]));
    const text = Buffer.alloc(25 * 1024 * 1024, 'lorem ipsum dolor ');
    text.write(`${word} `, 0);
    const bodyTxt = multipart({}, { field: 'document', filename: 'huge.txt', content: text });
    const cg = await big.inject({
      method: 'POST',
      url: '/admin/close-group',
      headers,
      payload: {
        groupName: 'Huge files',
        groupPurpose: 'Limits',
        groupDuration: { from: '2020-01-01', to: '2099-12-31' },
        requestedBy: [user.id],
        adminRemarks: '',
      },
    });
    const up = await big.inject({
      method: 'POST',
      url: `/api/close-groups/${cg.json()._id}/upload`,
      payload: bodyTxt.payload,
      headers: { ...bodyTxt.headers, ...headers },
    });
    expect(up.statusCode, up.body).toBe(201);
    const hugeId = up.json().document.url.split('/').pop() as string;

    const started = Date.now();
    const work = Promise.all([
      extractFileText(big.db, big.storage, corrupt, extractor),
      extractFileText(big.db, big.storage, hugeId, extractor),
    ]);
    // While both files are read, the server answers other requests at once.
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = Date.now();
      const res = await big.inject({ url: '/api/search?q=lorem', headers });
      expect(res.statusCode).toBe(200);
      latencies.push(Date.now() - t);
    }
    expect(Math.max(...latencies)).toBeLessThan(1000);
    expect(await work).toEqual(['failed', 'done']);
    expect(Date.now() - started).toBeLessThan(30_000);
    const [broken] = await big.db.select().from(fileTexts).where(eq(fileTexts.fileId, corrupt));
    expect(broken).toMatchObject({ status: 'failed', text: '' });
    expect(broken!.error).toBeTruthy();
    const [huge] = await big.db.select().from(fileTexts).where(eq(fileTexts.fileId, hugeId));
    expect(huge!.text.length).toBeLessThanOrEqual(100_000);
    expect((await big.inject({ url: `/api/search?q=${word}`, headers })).json().results).toHaveLength(1);
  }, 60_000);

  it('the reading thread ends after a while without files, and the next file starts a new one', async () => {
    const idle = new TextExtractor(undefined, 50);
    const folder = mkdtempSync(path.join(os.tmpdir(), 'lp-extract-'));
    const file = path.join(folder, 'a.txt');
    writeFileSync(file, 'first text');
    expect(idle.threadRunning).toBe(false);
    expect(await idle.extract(file, 'txt')).toBe('first text');
    expect(idle.threadRunning).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(idle.threadRunning).toBe(false);
    writeFileSync(file, 'second text');
    expect(await idle.extract(file, 'txt')).toBe('second text');
    await idle.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it.runIf(process.platform === 'linux')(
    'reads files in a thread of the lowest priority, and only that thread (issue 12)',
    async () => {
      const niceOfThreads = () =>
        new Map(
          readdirSync('/proc/self/task').map((task) => {
            const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
            return [task, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])] as const; // field 19: nice
          }),
        );
      const reader = new TextExtractor();
      const folder = mkdtempSync(path.join(os.tmpdir(), 'lp-extract-'));
      const file = path.join(folder, 'a.txt');
      writeFileSync(file, 'background text');
      const before = niceOfThreads();
      expect(await reader.extract(file, 'txt')).toBe('background text');
      const started = [...niceOfThreads()].filter(([task]) => !before.has(task)).map(([, nice]) => nice);
      expect(started.filter((nice) => nice === 19)).toHaveLength(1); // the reading thread
      expect(started.filter((nice) => nice !== 19 && nice !== 0)).toEqual([]);
      expect(niceOfThreads().get(String(process.pid))).toBe(0); // the server's own thread is untouched
      await reader.close();
      rmSync(folder, { recursive: true, force: true });
    },
  );

  it('a file that takes longer than the time limit is given up, and the next file is read by a fresh thread', async () => {
    const word = uniqueWord();
    const slow = new TextExtractor({ timeoutMs: 1, maxBytes: 1024 * 1024, maxChars: 1000, memoryMb: 128 });
    await send(admin, 'POST', `/api/labs/${lab.id}/notices`, { name: 'Slow', description: 'x' }, pdf(word));
    const [pending] = await app.db.select().from(fileTexts).where(eq(fileTexts.status, 'pending'));
    expect(await extractFileText(app.db, app.storage, pending!.fileId, slow)).toBe('failed');
    const [row] = await app.db.select().from(fileTexts).where(eq(fileTexts.fileId, pending!.fileId));
    expect(row!.error).toMatch(/took longer than/);
    await slow.close();
    // The shared extractor reads the next file normally.
    const next = uniqueWord();
    await send(admin, 'POST', `/api/labs/${lab.id}/notices`, { name: 'Next', description: 'x' }, pdf(next));
    await extract();
    expect(await finds(null, next, 'notice')).toBe(true);
  });
});
