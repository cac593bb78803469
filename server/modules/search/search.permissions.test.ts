import { describe, expect, it } from 'vitest';

import { MARK_END, MARK_START } from '#shared/schemas/search.ts';

import { uniqueWord } from '#server/test/documents.ts';
import { authHeaders, createUser, letterFields } from '#server/test/factories.ts';

import {
  admin,
  app,
  associateDirector,
  closeGroupWith2Members,
  director,
  docx,
  extract,
  findersOf,
  finds,
  group,
  lab,
  member,
  otherGroup,
  outsider,
  pdf,
  search,
  send,
} from './search.test-helpers.ts';

// Who finds what: the query and the permissions of each kind.

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
    // Found by the text inside its file, never shown a word of it: the title only (decision 095).
    expect(await findersOf(inPdf, 'letter', people, true)).toEqual(allowed);
    expect(await findersOf(inDocx, 'letter', people, true)).toEqual(allowed);
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
      headers: await authHeaders(app, admin),
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
