import { existsSync } from 'node:fs';

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { activityLogs, files, groupItems } from '#server/db/schema/index.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';

import { fileCount, fileRows, pdf, send } from './group-items.test-helpers.ts';
import { type GroupCast, groupCast, type Person } from './groups.fixtures.ts';

// A group's notices and circulars (/api/groups/{id}/notices and /circulars), and the expired ones in the Archive.

describe.each([
  ['notices', 'All fields are required'],
  ['circulars', 'All fields are required'],
] as const)('/api/groups/{id}/%s', (field, message) => {
  const url = (c: GroupCast) => `/api/groups/${c.group.id}/${field}`;

  it.each<[Person, number]>([
    ['anonymous', 401],
    ['member', 403],
    ['outsider', 403],
    ['director', 403],
    ['associateDirector', 201],
    ['admin', 201],
  ])('POST answers %s with %i', async (who, status) => {
    const c = await groupCast();
    const before = (await fileRows(c)).length;
    const res = await send(c, who, 'POST', url(c), { name: 'Safety drill', description: 'Drill on Monday' }, pdf());
    expect(res.statusCode).toBe(status);
    expect((await fileRows(c)).length).toBe(before + (status === 201 ? 1 : 0));
  });

  it('adds an item with a relative file link, shows it on the group page and logs it', async () => {
    const c = await groupCast();
    const res = await send(
      c,
      'admin',
      'POST',
      url(c),
      { name: 'Safety drill', description: 'Drill on Monday' },
      pdf('drill.pdf'),
    );
    expect(res.statusCode).toBe(201);
    const item = res.json();
    expect(item).toMatchObject({ name: 'Safety drill', description: 'Drill on Monday', fileName: 'drill.pdf' });
    expect(item.fileUrl).toMatch(/^\/uploads\/group-files\/[0-9a-f-]{36}$/);
    const page = (await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: await c.as('member') })).json();
    expect(page[field]).toEqual([item]);
    const logs = await c.app.db.select().from(activityLogs).where(eq(activityLogs.targetId, item._id));
    expect(logs).toHaveLength(1);
  });

  it.each([
    [{ description: 'x' }, 'name'],
    [{ name: 'x', description: ' ' }, 'description'],
  ])(`refuses %j with "${message}" and keeps no file`, async (fields, errField) => {
    const c = await groupCast();
    const before = await fileCount(c);
    const res = await send(c, 'admin', 'POST', url(c), fields, pdf());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, field: errField });
    expect(await fileCount(c)).toEqual(before);
  });

  it(`refuses a missing file with "${message}"`, async () => {
    const c = await groupCast();
    const res = await send(c, 'admin', 'POST', url(c), { name: 'a', description: 'b' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, field: 'file' });
  });

  it('refuses a file type the notices do not take, and a renamed executable', async () => {
    const c = await groupCast();
    const before = await fileCount(c);
    const zip = await send(
      c,
      'admin',
      'POST',
      url(c),
      { name: 'a', description: 'b' },
      { field: 'file', filename: 'a.zip', content: SAMPLE_FILES.zip },
    );
    expect(zip.statusCode).toBe(400);
    expect(zip.json().message).toBe('This file type is not allowed. Allowed types: pdf, doc, docx, png, jpg, jpeg.');
    const exe = await send(
      c,
      'admin',
      'POST',
      url(c),
      { name: 'a', description: 'b' },
      { field: 'file', filename: 'a.pdf', content: SAMPLE_FILES.exe },
    );
    expect(exe.statusCode).toBe(400);
    expect(await fileCount(c)).toEqual(before);
  });

  it('edits without a file (keeping it), replaces the file (deleting the old one), and deletes', async () => {
    const c = await groupCast();
    const created = (
      await send(c, 'associateDirector', 'POST', url(c), { name: 'A', description: 'B' }, pdf('old.pdf'))
    ).json();
    const oldId = created.fileUrl.split('/').pop();
    const renamed = await send(c, 'associateDirector', 'PUT', `${url(c)}/${created._id}`, {
      name: 'A2',
      description: 'B2',
    });
    expect(renamed.json()).toMatchObject({
      name: 'A2',
      description: 'B2',
      fileUrl: created.fileUrl,
      fileName: 'old.pdf',
    });
    const replaced = await send(
      c,
      'admin',
      'PUT',
      `${url(c)}/${created._id}`,
      { name: 'A3', description: 'B3' },
      pdf('new.pdf'),
    );
    expect(replaced.json()).toMatchObject({ name: 'A3', fileName: 'new.pdf' });
    expect(replaced.json().fileUrl).not.toBe(created.fileUrl);
    expect(existsSync(c.app.storage.storedPath('group-files', oldId))).toBe(false);
    const newId = replaced.json().fileUrl.split('/').pop();
    expect(existsSync(c.app.storage.storedPath('group-files', newId))).toBe(true);
    const deleted = await c.app.inject({
      method: 'DELETE',
      url: `${url(c)}/${created._id}`,
      headers: await c.as('admin'),
    });
    expect(deleted.statusCode).toBe(200);
    expect(existsSync(c.app.storage.storedPath('group-files', newId))).toBe(false);
    expect(await c.app.db.select().from(groupItems).where(eq(groupItems.id, created._id))).toEqual([]);
    expect(await c.app.db.select().from(files).where(eq(files.id, newId))).toEqual([]);
  });

  it('refuses edits and deletes by members and outsiders, and answers 404 for an unknown item', async () => {
    const c = await groupCast();
    const created = (await send(c, 'admin', 'POST', url(c), { name: 'A', description: 'B' }, pdf())).json();
    for (const who of ['member', 'outsider', 'director'] as const) {
      expect((await send(c, who, 'PUT', `${url(c)}/${created._id}`, { name: 'x', description: 'y' })).statusCode).toBe(
        403,
      );
      expect(
        (await c.app.inject({ method: 'DELETE', url: `${url(c)}/${created._id}`, headers: await c.as(who) }))
          .statusCode,
      ).toBe(403);
    }
    expect((await c.app.inject({ method: 'DELETE', url: `${url(c)}/${created._id}` })).statusCode).toBe(401);
    const missing = await c.app.inject({
      method: 'DELETE',
      url: `${url(c)}/00000000-0000-4000-8000-000000000000`,
      headers: await c.as('admin'),
    });
    expect(missing.statusCode).toBe(404);
    const blank = await send(c, 'admin', 'PUT', `${url(c)}/${created._id}`, { name: '', description: 'y' });
    expect(blank.json()).toMatchObject({ message, field: 'name' });
  });
  it("keeps an optional 'valid until' date, shows it on the group page, and edits or clears it", async () => {
    const c = await groupCast();
    const none = await send(c, 'admin', 'POST', url(c), { name: 'Open', description: 'No end' }, pdf());
    expect(none.json()).toMatchObject({ validUntil: null, expired: false });
    const blank = await send(c, 'admin', 'POST', url(c), { name: 'Blank', description: 'x', validUntil: '' }, pdf());
    expect(blank.json()).toMatchObject({ validUntil: null, expired: false });
    const dated = await send(
      c,
      'associateDirector',
      'POST',
      url(c),
      { name: 'Drill', description: 'Fire drill', validUntil: '2099-12-31' },
      pdf(),
    );
    expect(dated.statusCode).toBe(201);
    expect(dated.json()).toMatchObject({ validUntil: '2099-12-31', expired: false });
    const [row] = await c.app.db.select().from(groupItems).where(eq(groupItems.id, dated.json()._id));
    expect(row!.validUntil).toBe('2099-12-31');
    const page = (await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: await c.as('member') })).json();
    expect(page[field].find((i: { _id: string }) => i._id === dated.json()._id)).toMatchObject({
      validUntil: '2099-12-31',
      expired: false,
    });
    const past = await send(c, 'admin', 'PUT', `${url(c)}/${dated.json()._id}`, {
      name: 'Drill',
      description: 'Fire drill',
      validUntil: '2020-01-31',
    });
    expect(past.statusCode).toBe(200);
    expect(past.json()).toMatchObject({ validUntil: '2020-01-31', expired: true });
    const cleared = await send(c, 'admin', 'PUT', `${url(c)}/${dated.json()._id}`, {
      name: 'Drill',
      description: 'Fire drill',
      validUntil: '',
    });
    expect(cleared.json()).toMatchObject({ validUntil: null, expired: false });
  });

  it("refuses a 'valid until' that is not a date, keeping no file and changing nothing", async () => {
    const c = await groupCast();
    const before = await fileCount(c);
    for (const validUntil of ['31-12-2027', '2027-02-30', 'soon']) {
      const res = await send(c, 'admin', 'POST', url(c), { name: 'a', description: 'b', validUntil }, pdf());
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: 'Please enter a valid date.', field: 'validUntil' });
    }
    expect(await fileCount(c)).toEqual(before);
    const created = (
      await send(c, 'admin', 'POST', url(c), { name: 'a', description: 'b', validUntil: '2099-01-01' }, pdf())
    ).json();
    const bad = await send(c, 'admin', 'PUT', `${url(c)}/${created._id}`, {
      name: 'a',
      description: 'b',
      validUntil: '2099/01/02',
    });
    expect(bad.statusCode).toBe(400);
    const [row] = await c.app.db.select().from(groupItems).where(eq(groupItems.id, created._id));
    expect(row!.validUntil).toBe('2099-01-01');
  });
});

describe('the Archive and expired group notices (GET /api/notices/archive)', () => {
  it("lists a group's expired notices and circulars only to those who may see the group", async () => {
    const c = await groupCast();
    const post = async (field: 'notices' | 'circulars', name: string, validUntil: string, groupId = c.group.id) => {
      const body = multipart({ name, description: 'd', validUntil }, pdf());
      return c.app.inject({
        method: 'POST',
        url: `/api/groups/${groupId}/${field}`,
        payload: body.payload,
        headers: { ...body.headers, ...(await c.as('admin')) },
      });
    };
    expect((await post('notices', 'Expired group notice', '2024-05-01')).statusCode).toBe(201);
    expect((await post('circulars', 'Expired group circular', '2023-02-01')).statusCode).toBe(201);
    expect((await post('notices', 'Current group notice', '2099-01-01')).statusCode).toBe(201);
    expect((await post('notices', 'Other group notice', '2024-06-01', c.otherGroup.id)).statusCode).toBe(201);
    // The test file's database holds other tests' groups too: look at this cast's two groups only.
    const ours = [c.group.id, c.otherGroup.id];
    const names = async (who: Person) => {
      const res = await c.app.inject({ url: '/api/notices/archive', headers: await c.as(who) });
      expect(res.statusCode).toBe(200);
      const items = (
        res.json().years as { year: number; items: { name: string; source: { type: string; _id: string } }[] }[]
      ).flatMap((y) => y.items);
      if (who === 'anonymous') expect(items.filter((i) => i.source.type === 'group')).toEqual([]);
      return items
        .filter((i) => i.source.type === 'group' && ours.includes(i.source._id))
        .map((i) => i.name)
        .sort();
    };
    const mine = ['Expired group circular', 'Expired group notice'];
    const other = ['Other group notice'];
    expect(await names('anonymous')).toEqual([]);
    expect(await names('member')).toEqual(mine);
    // An employee of the other group sees that group's, never this one's.
    expect(await names('outsider')).toEqual(other);
    // The associate director leads this group, and is one of its members (decision 030).
    expect(await names('associateDirector')).toEqual(mine);
    expect(await names('director')).toEqual([...mine, ...other].sort());
    expect(await names('admin')).toEqual([...mine, ...other].sort());
    const res = await c.app.inject({ url: '/api/notices/archive', headers: await c.as('member') });
    const years = res.json().years as { year: number; items: { name: string }[] }[];
    expect(years.find((y) => y.year === 2024)?.items.map((i) => i.name)).toContain('Expired group notice');
    expect(years.find((y) => y.year === 2023)?.items.map((i) => i.name)).toContain('Expired group circular');
  });
});
