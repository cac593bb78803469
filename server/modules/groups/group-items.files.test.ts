import { describe, expect, it } from 'vitest';

import { SAMPLE_FILES } from '#server/test/multipart.ts';
import { officeZip } from '#server/test/office-files.ts';

import { fileCount, pdf, send } from './group-items.test-helpers.ts';
import { type GroupCast, groupCast, type Person } from './groups.fixtures.ts';

// A group's five file lists (/api/group-files/{groupId}/{field}), and all groups' lists on the lab home.

describe('/api/group-files/{groupId}/{field}', () => {
  const url = (c: GroupCast, field = 'projects') => `/api/group-files/${c.group.id}/${field}`;

  it.each<[Person, number]>([
    ['anonymous', 401],
    ['member', 200],
    ['outsider', 403],
    ['director', 200],
    ['associateDirector', 200],
    ['admin', 200],
  ])('GET answers %s with %i', async (who, status) => {
    const c = await groupCast();
    const res = await c.app.inject({ url: url(c), headers: await c.as(who) });
    expect(res.statusCode).toBe(status);
  });

  it.each<[Person, number]>([
    ['anonymous', 401],
    ['member', 403],
    ['outsider', 403],
    ['director', 403],
    ['associateDirector', 201],
    ['admin', 201],
  ])('POST answers %s with %i', async (who, status) => {
    const c = await groupCast();
    const res = await send(c, who, 'POST', url(c), { name: 'Blast model', description: 'FEM model' }, pdf());
    expect(res.statusCode).toBe(status);
  });

  it.each(['projects', 'patents', 'technologies', 'courses', 'publications'])(
    'keeps %s in its own list, newest first',
    async (field) => {
      const c = await groupCast();
      await send(c, 'admin', 'POST', url(c, field), { name: 'First', description: 'one' }, pdf());
      await send(
        c,
        'admin',
        'POST',
        url(c, field),
        { name: 'Second', description: 'two' },
        { field: 'file', filename: 'deck.pptx', content: officeZip('pptx') },
      );
      const list = (await c.app.inject({ url: url(c, field), headers: await c.as('member') })).json();
      expect(list.map((i: { name: string }) => i.name)).toEqual(['Second', 'First']);
      const page = (
        await c.app.inject({ url: `${url(c, field)}?limit=1&offset=1`, headers: await c.as('member') })
      ).json();
      expect(page.map((i: { name: string }) => i.name)).toEqual(['First']);
      const group = (await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: await c.as('member') })).json();
      expect(group[field]).toHaveLength(2);
      for (const other of ['projects', 'patents', 'technologies', 'courses', 'publications', 'notices'].filter(
        (f) => f !== field,
      )) {
        expect(group[other]).toEqual([]);
      }
    },
  );

  it.each([
    [{ description: 'x' }, 'name'],
    [{ name: 'x' }, 'description'],
  ])('refuses %j with "All fields required"', async (fields, field) => {
    const c = await groupCast();
    const before = await fileCount(c);
    const res = await send(c, 'admin', 'POST', url(c), fields, pdf());
    expect(res.json()).toMatchObject({ message: 'All fields required', field });
    expect(await fileCount(c)).toEqual(before);
  });

  it("takes no 'valid until' date: a file never expires nor reaches the Archive", async () => {
    const c = await groupCast();
    const res = await send(
      c,
      'admin',
      'POST',
      url(c),
      { name: 'Model', description: 'x', validUntil: '2020-01-01' },
      pdf(),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ validUntil: null, expired: false });
    const archive = (await c.app.inject({ url: '/api/notices/archive', headers: await c.as('admin') })).json();
    const ids = (archive.years as { items: { _id: string }[] }[]).flatMap((y) => y.items.map((i) => i._id));
    expect(ids).not.toContain(res.json()._id);
  });

  it('refuses a missing file and a type outside pdf, ppt, pptx, xls, xlsx and video', async () => {
    const c = await groupCast();
    const none = await send(c, 'admin', 'POST', url(c), { name: 'x', description: 'y' });
    expect(none.json()).toMatchObject({ message: 'All fields required', field: 'file' });
    const doc = await send(
      c,
      'admin',
      'POST',
      url(c),
      { name: 'x', description: 'y' },
      { field: 'file', filename: 'notes.txt', content: SAMPLE_FILES.txt },
    );
    expect(doc.statusCode).toBe(400);
    expect(doc.json().message).toBe(
      'This file type is not allowed. Allowed types: pdf, ppt, pptx, xls, xlsx, mp4, webm, mkv, avi, mov.',
    );
  });

  it('answers 404 for an unknown group and for an item of another list', async () => {
    const c = await groupCast();
    const res = await c.app.inject({
      url: '/api/group-files/00000000-0000-4000-8000-000000000000/projects',
      headers: await c.as('admin'),
    });
    expect(res.statusCode).toBe(404);
    const item = (await send(c, 'admin', 'POST', url(c), { name: 'x', description: 'y' }, pdf())).json();
    const wrongList = await c.app.inject({
      method: 'DELETE',
      url: `${url(c, 'patents')}/${item._id}`,
      headers: await c.as('admin'),
    });
    expect(wrongList.statusCode).toBe(404);
    expect(
      (await c.app.inject({ url: `/api/group-files/${c.group.id}/secrets`, headers: await c.as('admin') })).statusCode,
    ).toBe(404);
  });

  it('serves the stored file to members, directors and admins only', async () => {
    const c = await groupCast();
    const item = (await send(c, 'admin', 'POST', url(c), { name: 'x', description: 'y' }, pdf('report.pdf'))).json();
    const expected: [Person, number][] = [
      ['anonymous', 401],
      ['member', 200],
      ['outsider', 403],
      ['director', 200],
      ['associateDirector', 200],
      ['admin', 200],
    ];
    for (const [who, status] of expected) {
      const res = await c.app.inject({ url: item.fileUrl, headers: await c.as(who) });
      expect([who, res.statusCode]).toEqual([who, status]);
      if (status === 200) expect(res.headers['content-disposition']).toContain('report.pdf');
    }
  });
});

describe('GET /api/group-files (lab home, Product & Achievements)', () => {
  it('lists every group with its five lists to anyone, without file links for visitors', async () => {
    const c = await groupCast();
    await send(
      c,
      'admin',
      'POST',
      `/api/group-files/${c.group.id}/patents`,
      { name: 'Fire-retardant paint', description: 'Patent 123' },
      pdf(),
    );
    await send(
      c,
      'admin',
      'POST',
      `/api/groups/${c.group.id}/notices`,
      { name: 'Internal notice', description: 'Members only' },
      pdf(),
    );
    const res = await c.app.inject({ url: '/api/group-files?limit=100' });
    expect(res.statusCode).toBe(200);
    const mine = res.json().find((g: { _id: string }) => g._id === c.group.id);
    expect(mine).toMatchObject({
      name: c.group.name,
      projects: [],
      patents: [{ name: 'Fire-retardant paint', description: 'Patent 123', fileUrl: null, hasFile: true }],
      technologies: [],
      courses: [],
      publications: [],
    });
    expect(JSON.stringify(res.json())).not.toContain('Internal notice');
  });

  it('gives file links to those who may open them: members, directors and admins, not outsiders', async () => {
    const c = await groupCast();
    await send(
      c,
      'admin',
      'POST',
      `/api/group-files/${c.group.id}/projects`,
      { name: 'Smoke study', description: 'x' },
      pdf(),
    );
    const linkFor = async (who: Person) => {
      const body = (await c.app.inject({ url: '/api/group-files?limit=100', headers: await c.as(who) })).json();
      return body.find((g: { _id: string }) => g._id === c.group.id).projects[0].fileUrl;
    };
    expect(await linkFor('member')).toMatch(/^\/uploads\/group-files\//);
    expect(await linkFor('director')).toMatch(/^\/uploads\/group-files\//);
    expect(await linkFor('admin')).toMatch(/^\/uploads\/group-files\//);
    expect(await linkFor('outsider')).toBeNull();
  });

  it('treats a stale token as a visitor rather than failing', async () => {
    const c = await groupCast();
    const res = await c.app.inject({ url: '/api/group-files', headers: { authorization: 'Bearer nonsense' } });
    expect(res.statusCode).toBe(200);
  });
});
