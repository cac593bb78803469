import { existsSync } from 'node:fs';

import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { activityLogs, directorEntries, files, users } from '#server/db/schema/index.ts';
import { multipart, type MultipartFile, SAMPLE_FILES } from '#server/test/multipart.ts';

import { type GroupCast, groupCast, type Person } from './groups.fixtures.ts';

const photo = (filename = 'lead.png'): MultipartFile => ({ field: 'image', filename, content: SAMPLE_FILES.png });

async function sendEntry(
  c: GroupCast,
  who: Person,
  method: 'POST' | 'PUT',
  path: string,
  fields: Record<string, string>,
  file?: MultipartFile,
) {
  const body = file ? multipart(fields, file) : multipart(fields);
  return c.app.inject({
    method,
    url: `/api/groups/${c.group.id}/assistant-director-history${path}`,
    payload: body.payload,
    headers: { ...body.headers, ...(await c.as(who)) },
  });
}

const idOf = (url: string) => url.split('/').pop()!;
const directorFileRows = (c: GroupCast) =>
  c.app.db.select({ id: files.id }).from(files).where(eq(files.area, 'directors'));

describe('/api/groups/{id}/assistant-director-history', () => {
  it.each<[Person, number]>([
    ['anonymous', 401],
    ['member', 403],
    ['outsider', 403],
    ['director', 403],
    ['associateDirector', 403],
    ['admin', 201],
  ])('POST answers %s with %i', async (who, status) => {
    const c = await groupCast();
    const res = await sendEntry(c, who, 'POST', '', { name: 'Ravi Kumar', from: '2025-04-01' });
    expect(res.statusCode).toBe(status);
  });

  it('adds an entry for a staff member with the default designation and a photo; the newest open entry is current', async () => {
    const c = await groupCast();
    const res = await sendEntry(
      c,
      'admin',
      'POST',
      '',
      { user: c.member.id, from: '2025-04-01', about: 'Leads fire modelling.' },
      photo(),
    );
    expect(res.statusCode).toBe(201);
    const entry = res.json();
    expect(entry).toMatchObject({
      user: { _id: c.member.id, name: 'Meera Member' },
      name: 'Meera Member',
      designation: 'Assistant Director',
      from: '2025-04-01',
      to: null,
      about: 'Leads fire modelling.',
    });
    expect(entry.image).toMatch(/^\/uploads\/directors\/[0-9a-f-]{36}$/);
    // Directors' photos are a public area: the image opens without sign-in.
    expect((await c.app.inject({ url: entry.image })).statusCode).toBe(200);
    const group = (await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: await c.as('member') })).json();
    expect(group.currentAD._id).toBe(entry._id);
    expect(group.assistantDirectorHistory).toHaveLength(2);
    // An employee named in the history does not manage the group until an admin makes them its associate director.
    expect(group.canManage).toBe(false);
    await c.app.db.update(users).set({ role: 'associate_director' }).where(eq(users.id, c.member.id));
    const led = (await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: await c.as('member') })).json();
    expect(led.canManage).toBe(true); // the member now leads the group
    const logs = await c.app.db.select().from(activityLogs).where(eq(activityLogs.targetId, entry._id));
    expect(logs).toHaveLength(1);
  });

  it('keeps a designation that is given', async () => {
    const c = await groupCast();
    const res = await sendEntry(c, 'admin', 'POST', '', {
      name: 'Ravi Kumar',
      designation: 'Group Director',
      from: '2020-01-01',
      to: '2022-12-31',
    });
    expect(res.json()).toMatchObject({
      user: null,
      name: 'Ravi Kumar',
      designation: 'Group Director',
      to: '2022-12-31',
    });
  });

  it.each([
    [{ from: '2025-01-01' }, 'Please select a user or enter a name', 'name'],
    [{ name: 'A' }, 'From date is required.', 'from'],
    [{ name: 'A', from: '01/02/2025' }, 'Please enter a valid date.', 'from'],
    [{ name: 'A', from: '2025-01-01', to: '2024-01-01' }, 'The end date cannot be before the start date.', 'to'],
    [{ user: 'someone', from: '2025-01-01' }, 'Please select a user or enter a name', 'user'],
    [{ user: '00000000-0000-4000-8000-000000000000', from: '2025-01-01' }, 'The chosen user does not exist.', 'user'],
  ])('refuses %j with "%s" and keeps no photo', async (fields, message, field) => {
    const c = await groupCast();
    const before = (await directorFileRows(c)).length;
    const res = await sendEntry(c, 'admin', 'POST', '', fields, photo());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, field });
    expect((await directorFileRows(c)).length).toBe(before);
  });

  it('refuses an image that is not one', async () => {
    const c = await groupCast();
    const res = await sendEntry(
      c,
      'admin',
      'POST',
      '',
      { name: 'A', from: '2025-01-01' },
      { field: 'image', filename: 'cv.pdf', content: SAMPLE_FILES.pdf },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This file type is not allowed. Allowed types: png, jpg, jpeg, gif, webp.');
  });

  it('edits an entry, replaces and removes its photo, and deletes it with its photo', async () => {
    const c = await groupCast();
    const created = (await sendEntry(c, 'admin', 'POST', '', { name: 'Ravi', from: '2025-01-01' }, photo())).json();
    const edited = await sendEntry(c, 'admin', 'PUT', `/${created._id}`, {
      name: 'Ravi Kumar',
      from: '2025-01-01',
      to: '2025-12-31',
    });
    expect(edited.json()).toMatchObject({ name: 'Ravi Kumar', to: '2025-12-31', image: created.image });
    const replaced = (
      await sendEntry(
        c,
        'admin',
        'PUT',
        `/${created._id}`,
        { name: 'Ravi Kumar', from: '2025-01-01' },
        photo('new.png'),
      )
    ).json();
    expect(replaced.image).not.toBe(created.image);
    expect(existsSync(c.app.storage.storedPath('directors', idOf(created.image)))).toBe(false);
    const removed = (
      await sendEntry(c, 'admin', 'PUT', `/${created._id}`, {
        name: 'Ravi Kumar',
        from: '2025-01-01',
        removeImage: 'true',
      })
    ).json();
    expect(removed.image).toBeNull();
    expect(existsSync(c.app.storage.storedPath('directors', idOf(replaced.image)))).toBe(false);
    const withPhoto = (
      await sendEntry(c, 'admin', 'PUT', `/${created._id}`, { name: 'Ravi Kumar', from: '2025-01-01' }, photo())
    ).json();
    const del = await c.app.inject({
      method: 'DELETE',
      url: `/api/groups/${c.group.id}/assistant-director-history/${created._id}`,
      headers: await c.as('admin'),
    });
    expect(del.json()).toEqual({ message: 'Entry deleted successfully.' });
    expect(existsSync(c.app.storage.storedPath('directors', idOf(withPhoto.image)))).toBe(false);
    expect(await c.app.db.select().from(directorEntries).where(eq(directorEntries.id, created._id))).toEqual([]);
  });

  it('refuses edits and deletes by anyone but an admin, and answers 404 for an unknown entry', async () => {
    const c = await groupCast();
    const [entry] = await c.app.db.select().from(directorEntries).where(eq(directorEntries.groupId, c.group.id));
    for (const [who, status] of [
      ['anonymous', 401],
      ['member', 403],
      ['director', 403],
      ['associateDirector', 403],
    ] as const) {
      const put = await sendEntry(c, who, 'PUT', `/${entry!.id}`, { name: 'X', from: '2020-01-01', to: '2020-02-01' });
      const del = await c.app.inject({
        method: 'DELETE',
        url: `/api/groups/${c.group.id}/assistant-director-history/${entry!.id}`,
        headers: await c.as(who),
      });
      expect([who, put.statusCode, del.statusCode]).toEqual([who, status, status]);
    }
    const missing = await c.app.inject({
      method: 'DELETE',
      url: `/api/groups/${c.group.id}/assistant-director-history/00000000-0000-4000-8000-000000000000`,
      headers: await c.as('admin'),
    });
    expect(missing.statusCode).toBe(404);
    // An entry of another group is not found through this group.
    const other = await c.app.inject({
      method: 'DELETE',
      url: `/api/groups/${c.otherGroup.id}/assistant-director-history/${entry!.id}`,
      headers: await c.as('admin'),
    });
    expect(other.statusCode).toBe(404);
  });

  it('takes management away once the associate director’s term is ended', async () => {
    const c = await groupCast();
    const [entry] = await c.app.db.select().from(directorEntries).where(eq(directorEntries.groupId, c.group.id));
    await sendEntry(c, 'admin', 'PUT', `/${entry!.id}`, {
      user: c.associateDirector.id,
      from: '2024-01-01',
      to: '2024-12-31',
    });
    const res = await c.app.inject({
      method: 'PUT',
      url: `/api/groups/${c.group.id}`,
      headers: await c.as('associateDirector'),
      payload: { name: c.group.name },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('/api/groups/{id}/office', () => {
  const member = {
    name: 'Sunil Rao',
    designation: 'Technical Officer',
    contactNumber: '011-2390',
    email: 'sunil@lab.test',
  };

  it.each<[Person, number]>([
    ['anonymous', 401],
    ['member', 403],
    ['outsider', 403],
    ['director', 403],
    ['associateDirector', 201],
    ['admin', 201],
  ])('POST answers %s with %i', async (who, status) => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'POST',
      url: `/api/groups/${c.group.id}/office`,
      headers: await c.as(who),
      payload: member,
    });
    expect(res.statusCode).toBe(status);
  });

  it('adds rows in order, edits and deletes them; the group page shows them', async () => {
    const c = await groupCast();
    const add = async (payload: object): Promise<LightMyRequestResponse> =>
      c.app.inject({
        method: 'POST',
        url: `/api/groups/${c.group.id}/office`,
        headers: await c.as('associateDirector'),
        payload,
      });
    const first = (await add(member)).json();
    const second = (await add({ name: 'Lata', designation: 'Steno' })).json();
    expect(second).toMatchObject({ name: 'Lata', designation: 'Steno', contactNumber: '', email: '' });
    const edited = await c.app.inject({
      method: 'PUT',
      url: `/api/groups/${c.group.id}/office/${first._id}`,
      headers: await c.as('admin'),
      payload: { ...member, designation: 'Senior Technical Officer' },
    });
    expect(edited.json().designation).toBe('Senior Technical Officer');
    const page = (await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: await c.as('member') })).json();
    expect(page.officeOfGroup.map((o: { name: string }) => o.name)).toEqual(['Sunil Rao', 'Lata']);
    const del = await c.app.inject({
      method: 'DELETE',
      url: `/api/groups/${c.group.id}/office/${first._id}`,
      headers: await c.as('associateDirector'),
    });
    expect(del.json()).toEqual({ message: 'Office member removed successfully.' });
    const logs = await c.app.db.select().from(activityLogs).where(eq(activityLogs.targetId, first._id));
    expect(logs.map((l) => l.action)).toEqual(
      expect.arrayContaining([
        `Added Sunil Rao to the office of group ${c.group.name}`,
        `Removed Sunil Rao from the office of group ${c.group.name}`,
      ]),
    );
  });

  it.each([
    [{ name: ' ' }, 'Name is required.', 'name'],
    [{ designation: '' }, 'Designation is required.', 'designation'],
    [{ email: 'not-mail' }, 'Invalid email address.', 'email'],
  ])('refuses %j with "%s"', async (change, message, field) => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'POST',
      url: `/api/groups/${c.group.id}/office`,
      headers: await c.as('admin'),
      payload: { ...member, ...change },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, field });
  });

  it('refuses edits by members and outsiders and answers 404 for a row of another group', async () => {
    const c = await groupCast();
    const row = (
      await c.app.inject({
        method: 'POST',
        url: `/api/groups/${c.group.id}/office`,
        headers: await c.as('admin'),
        payload: member,
      })
    ).json();
    for (const who of ['member', 'outsider', 'director'] as const) {
      const res = await c.app.inject({
        method: 'PUT',
        url: `/api/groups/${c.group.id}/office/${row._id}`,
        headers: await c.as(who),
        payload: member,
      });
      expect(res.statusCode).toBe(403);
    }
    const elsewhere = await c.app.inject({
      method: 'PUT',
      url: `/api/groups/${c.otherGroup.id}/office/${row._id}`,
      headers: await c.as('admin'),
      payload: member,
    });
    expect(elsewhere.statusCode).toBe(404);
    const gone = await c.app.inject({
      method: 'DELETE',
      url: `/api/groups/${c.otherGroup.id}/office/${row._id}`,
      headers: await c.as('admin'),
    });
    expect(gone.statusCode).toBe(404);
  });
});
