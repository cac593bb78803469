import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { groups } from '#server/db/schema/index.ts';
import { createGroup, createUser } from '#server/test/factories.ts';

import { groupCast, type Person } from './groups.fixtures.ts';

// The group lists and menu, a group read for editing, and one's own group (split from groups.test.ts; the group page is
// in groups.page.test.ts, creating, editing and members in groups.manage.test.ts).

describe('GET /api/groups and /api/groups/name', () => {
  it('refuses a visitor who is not signed in', async () => {
    const c = await groupCast();
    expect((await c.app.inject({ url: '/api/groups' })).statusCode).toBe(401);
    expect((await c.app.inject({ url: '/api/groups/name' })).statusCode).toBe(401);
  });

  it('lists every group by name for any signed-in user', async () => {
    const c = await groupCast();
    const res = await c.app.inject({ url: '/api/groups/name', headers: await c.as('outsider') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toContainEqual({ _id: c.group.id, name: c.group.name });
    const full = await c.app.inject({ url: '/api/groups', headers: await c.as('member') });
    expect(full.json()).toContainEqual({ _id: c.group.id, name: c.group.name, description: 'A research group' });
  });
});

describe('kept answers of the group lists (issue 34)', () => {
  it('a group added, renamed or removed (here or on another node) is in the very next list and menu', async () => {
    const c = await groupCast();
    const headers = await c.as('member');
    const names = async (url: string) =>
      (await c.app.inject({ url, headers })).json().map((g: { name: string }) => g.name) as string[];
    for (const url of ['/api/groups/name', '/api/groups/menu']) expect(await names(url)).toContain(c.group.name);
    const added = await createGroup(c.app, { name: `Added ${Math.random().toString(36).slice(2, 8)}` });
    for (const url of ['/api/groups/name', '/api/groups/menu']) expect(await names(url)).toContain(added.name);
    await c.app.db
      .update(groups)
      .set({ name: `${added.name} renamed` })
      .where(eq(groups.id, added.id));
    for (const url of ['/api/groups/name', '/api/groups/menu'])
      expect(await names(url)).toContain(`${added.name} renamed`);
    await c.app.db.delete(groups).where(eq(groups.id, added.id));
    for (const url of ['/api/groups/name', '/api/groups/menu'])
      expect((await names(url)).some((n) => n.startsWith(added.name))).toBe(false);
  });
});

describe('GET /api/groups/menu (issue 16 item 7)', () => {
  type MenuItem = { _id: string; name: string; mine: boolean; canOpen: boolean };
  const entry = async (c: Awaited<ReturnType<typeof groupCast>>, who: Person, groupId: string) => {
    const res = await c.app.inject({ url: '/api/groups/menu', headers: await c.as(who) });
    expect(res.statusCode).toBe(200);
    return (res.json() as MenuItem[]).find((g) => g._id === groupId);
  };

  it('refuses a visitor', async () => {
    const c = await groupCast();
    expect((await c.app.inject({ url: '/api/groups/menu' })).statusCode).toBe(401);
  });

  it("marks the person's own group and the groups they lead, and which they may open", async () => {
    const c = await groupCast();
    expect(await entry(c, 'member', c.group.id)).toEqual({
      _id: c.group.id,
      name: c.group.name,
      mine: true,
      canOpen: true,
    });
    expect(await entry(c, 'outsider', c.group.id)).toMatchObject({ mine: false, canOpen: false });
    expect(await entry(c, 'outsider', c.otherGroup.id)).toMatchObject({ mine: true, canOpen: true });
    // The associate director belongs to the group they lead (decision 030).
    expect(await entry(c, 'associateDirector', c.group.id)).toMatchObject({ mine: true, canOpen: true });
    expect(await entry(c, 'associateDirector', c.otherGroup.id)).toMatchObject({ mine: false, canOpen: false });
    expect(await entry(c, 'director', c.group.id)).toMatchObject({ mine: false, canOpen: true });
    expect(await entry(c, 'admin', c.group.id)).toMatchObject({ mine: false, canOpen: true });
  });
});

describe('GET /api/groups/{id} (for editing)', () => {
  it.each<[Person, number]>([
    ['anonymous', 401],
    ['member', 403],
    ['outsider', 403],
    ['director', 403],
    ['associateDirector', 200],
    ['admin', 200],
  ])('answers %s with %i', async (who, status) => {
    const c = await groupCast();
    const res = await c.app.inject({ url: `/api/groups/${c.group.id}`, headers: await c.as(who) });
    expect(res.statusCode).toBe(status);
    if (status === 200) expect(res.json()).toMatchObject({ _id: c.group.id, canManage: true });
  });

  it('answers 404 for an unknown group', async () => {
    const c = await groupCast();
    const res = await c.app.inject({
      url: '/api/groups/00000000-0000-4000-8000-000000000000',
      headers: await c.as('admin'),
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('GET /api/groups/my-group', () => {
  it('refuses a visitor who is not signed in', async () => {
    const c = await groupCast();
    expect((await c.app.inject({ url: '/api/groups/my-group' })).statusCode).toBe(401);
  });

  it("gives a member their group's name, description and members", async () => {
    const c = await groupCast();
    const res = await c.app.inject({ url: '/api/groups/my-group', headers: await c.as('member') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      _id: c.group.id,
      name: c.group.name,
      description: 'A research group',
      employees: [
        { _id: c.associateDirector.id, name: 'Anita Lead' },
        { _id: c.member.id, name: 'Meera Member', email: c.member.email },
      ],
    });
  });

  it('shows a newcomer and a renamed group at the next read, however the change was made (issue 12)', async () => {
    const c = await groupCast();
    const read = async (): Promise<LightMyRequestResponse> =>
      c.app.inject({ url: '/api/groups/my-group', headers: await c.as('member') });
    const first = await read();
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(
      (
        await c.app.inject({
          url: '/api/groups/my-group',
          headers: { ...(await c.as('member')), 'if-none-match': String(first.headers.etag) },
        })
      ).statusCode,
    ).toBe(304);
    await createUser(c.app, 'employee', { name: 'Nikhil Newcomer', groupId: c.group.id });
    await c.app.db.update(groups).set({ name: 'Fire Dynamics' }).where(eq(groups.id, c.group.id));
    const after = (await read()).json();
    expect(after.name).toBe('Fire Dynamics');
    expect(after.employees.map((e: { name: string }) => e.name)).toEqual([
      'Anita Lead',
      'Meera Member',
      'Nikhil Newcomer',
    ]);
  });

  it('answers 404 for someone in no group', async () => {
    const c = await groupCast();
    const loner = await createUser(c.app, 'employee');
    const res = await c.app.inject({ url: '/api/groups/my-group', headers: await c.as(loner) });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('You are not assigned to any group.');
  });
});

describe('group helpers', () => {
  it('a group created with the factory starts empty', async () => {
    const c = await groupCast();
    const g = await createGroup(c.app);
    const body = (await c.app.inject({ url: `/api/groups/id/${g.id}`, headers: await c.as('admin') })).json();
    expect(body).toMatchObject({ employees: [], currentAD: null, assistantDirectorHistory: [] });
  });
});
