import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import type { Db } from '#server/db/client.ts';
import { activityLogs, contactInfos, groups, users } from '#server/db/schema/index.ts';
import { createUser } from '#server/test/factories.ts';

import { groupCast, type Person } from './groups.fixtures.ts';

// Creating and editing groups, the staff search and Manage Members (admins, and a group's associate director).

const groupBody = (values: Record<string, unknown> = {}) => ({
  name: `Explosive Safety ${Math.random().toString(36).slice(2, 8)}`,
  description: 'Studies explosive safety.',
  vision: 'Safe storage everywhere.',
  mission: 'Test, model and advise.',
  about: 'Founded in 1990.',
  employees: [],
  ...values,
});

async function userRow(c: { app: { db: Db } }, id: string) {
  const [row] = await c.app.db.select().from(users).where(eq(users.id, id));
  return row!;
}

describe('POST /api/groups', () => {
  it.each<[Person, number]>([
    ['anonymous', 401],
    ['member', 403],
    ['outsider', 403],
    ['director', 403],
    ['associateDirector', 403],
  ])('refuses %s with %i', async (who, status) => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'POST',
      url: '/api/groups',
      headers: await c.as(who),
      payload: groupBody(),
    });
    expect(res.statusCode).toBe(status);
  });

  it('lets an admin create a group and moves the chosen employees into it, with an activity log entry', async () => {
    const c = await groupCast();
    const newcomer = await createUser(c.app, 'employee', { name: 'Nita New' });
    const body = groupBody({ employees: [newcomer.id, c.outsider.id] });
    const res = await c.app.inject({ method: 'POST', url: '/api/groups', headers: await c.as('admin'), payload: body });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      name: body.name,
      description: body.description,
      vision: body.vision,
      mission: body.mission,
      about: body.about,
    });
    expect(created.employees.map((e: { _id: string }) => e._id).sort()).toEqual([newcomer.id, c.outsider.id].sort());
    expect((await userRow(c, c.outsider.id)).groupId).toBe(created._id);
    const logs = await c.app.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, created._id), eq(activityLogs.userId, c.admin.id)));
    expect(logs[0]?.action).toBe(`Created group ${body.name} with 2 employee(s)`);
  });

  it('accepts the earlier payload of name, description and employees only', async () => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'POST',
      url: '/api/groups',
      headers: await c.as('admin'),
      payload: { name: 'Only Name Group', description: 'Short', employees: [] },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ vision: '', mission: '', about: '' });
  });

  it.each([
    [{ name: '   ' }, 'Group name is required', 'name'],
    [{ name: undefined }, 'Group name is required', 'name'],
    [{ employees: ['not-a-uuid'] }, 'Please choose employees from the list.', 'employees.0'],
  ])('refuses %j with "%s"', async (change, message, field) => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'POST',
      url: '/api/groups',
      headers: await c.as('admin'),
      payload: groupBody(change),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: message, message, field });
  });

  it('refuses a name already taken, whatever its case', async () => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'POST',
      url: '/api/groups',
      headers: await c.as('admin'),
      payload: groupBody({ name: c.group.name.toUpperCase() }),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: 'A group with this name already exists.', field: 'name' });
  });

  it('creates nothing and moves nobody when one employee is unknown or not approved', async () => {
    const c = await groupCast();
    const pending = await createUser(c.app, 'employee', { status: 'pending' });
    const body = groupBody({ employees: [c.member.id, pending.id] });
    const res = await c.app.inject({ method: 'POST', url: '/api/groups', headers: await c.as('admin'), payload: body });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ field: 'employees' });
    expect(await c.app.db.select().from(groups).where(eq(groups.name, body.name))).toEqual([]);
    expect((await userRow(c, c.member.id)).groupId).toBe(c.group.id);
  });
});

describe('PUT /api/groups/{id}', () => {
  const update = (values: Record<string, unknown> = {}) => ({
    name: `Renamed ${Math.random().toString(36).slice(2, 8)}`,
    description: 'New description',
    about: 'New about',
    vision: 'New vision',
    mission: 'New mission',
    GroupHistoryDetails: 'Set up in 1990.\nMoved in 2001.',
    contactInfo: [
      { type: 'Email', label: 'Office', value: 'fire@lab.test' },
      { type: 'Phone', value: '011-2345' },
    ],
    ...values,
  });

  it.each<[Person, number]>([
    ['anonymous', 401],
    ['member', 403],
    ['outsider', 403],
    ['director', 403],
    ['associateDirector', 200],
    ['admin', 200],
  ])('answers %s with %i', async (who, status) => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'PUT',
      url: `/api/groups/${c.group.id}`,
      headers: await c.as(who),
      payload: update(),
    });
    expect(res.statusCode).toBe(status);
  });

  it('saves every field, replaces the contact list and logs the change', async () => {
    const c = await groupCast();
    const body = update();
    const res = await c.app.inject({
      method: 'PUT',
      url: `/api/groups/${c.group.id}`,
      headers: await c.as('associateDirector'),
      payload: body,
    });
    expect(res.json()).toMatchObject({
      name: body.name,
      GroupHistoryDetails: body.GroupHistoryDetails,
      contactInfo: [
        { type: 'Email', label: 'Office', value: 'fire@lab.test' },
        { type: 'Phone', label: '', value: '011-2345' },
      ],
    });
    const again = await c.app.inject({
      method: 'PUT',
      url: `/api/groups/${c.group.id}`,
      headers: await c.as('admin'),
      payload: { name: body.name, contactInfo: [{ type: 'Address', value: 'Timarpur, Delhi' }] },
    });
    expect(again.json()).toMatchObject({
      description: 'New description',
      contactInfo: [{ type: 'Address', value: 'Timarpur, Delhi' }],
    });
    expect(await c.app.db.select().from(contactInfos).where(eq(contactInfos.groupId, c.group.id))).toHaveLength(1);
    const logs = await c.app.db.select().from(activityLogs).where(eq(activityLogs.targetId, c.group.id));
    expect(logs.map((l) => l.action)).toContain(`Updated group ${body.name}`);
  });

  it.each([
    [{ name: '' }, 'Group name is required', 'name'],
    [{ contactInfo: [{ type: 'Phone', value: ' ' }] }, 'A contact value is required.', 'contactInfo.0.value'],
    [{ contactInfo: [{ type: 'Fax', value: '1' }] }, 'Please choose a contact type.', 'contactInfo.0.type'],
  ])('refuses %j with "%s"', async (change, message, field) => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'PUT',
      url: `/api/groups/${c.group.id}`,
      headers: await c.as('admin'),
      payload: update(change),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, field });
  });

  it("refuses another group's name", async () => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'PUT',
      url: `/api/groups/${c.group.id}`,
      headers: await c.as('admin'),
      payload: update({ name: c.otherGroup.name }),
    });
    expect(res.statusCode).toBe(409);
  });

  it('answers 404 for an unknown group', async () => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'PUT',
      url: '/api/groups/00000000-0000-4000-8000-000000000000',
      headers: await c.as('admin'),
      payload: update(),
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('GET /api/groups/staff', () => {
  it.each<[Person, number]>([
    ['anonymous', 401],
    ['member', 403],
    ['director', 403],
    ['associateDirector', 403],
    ['admin', 200],
  ])('answers %s with %i', async (who, status) => {
    const c = await groupCast();
    expect((await c.app.inject({ url: '/api/groups/staff', headers: await c.as(who) })).statusCode).toBe(status);
  });

  it('searches approved staff by name or email in the database, with their group and the total', async () => {
    const c = await groupCast();
    await createUser(c.app, 'employee', { name: 'Zubin Quasar', email: `zq-${Date.now()}@lab.test` });
    await createUser(c.app, 'employee', { name: 'Quasar Pending', status: 'pending' });
    const res = await c.app.inject({ url: '/api/groups/staff?q=quasar', headers: await c.as('admin') });
    expect(res.json()).toEqual([expect.objectContaining({ name: 'Zubin Quasar', group: null })]);
    expect(res.headers['x-total-count']).toBe('1');
    const byEmail = await c.app.inject({
      url: `/api/groups/staff?q=${encodeURIComponent(c.member.email)}`,
      headers: await c.as('admin'),
    });
    expect(byEmail.json()).toEqual([
      expect.objectContaining({ _id: c.member.id, group: { _id: c.group.id, name: c.group.name } }),
    ]);
    const wild = await c.app.inject({ url: '/api/groups/staff?q=%25', headers: await c.as('admin') });
    expect(wild.json()).toEqual([]);
  });
});

describe('Manage Members: /api/groups/{id}/members', () => {
  it.each<[Person, number]>([
    ['anonymous', 401],
    ['member', 403],
    ['outsider', 403],
    ['director', 403],
    ['associateDirector', 403],
  ])('refuses %s with %i on add, move and remove', async (who, status) => {
    const c = await groupCast();
    const add = await c.app.inject({
      method: 'POST',
      url: `/api/groups/${c.group.id}/members`,
      headers: await c.as(who),
      payload: { userIds: [c.outsider.id] },
    });
    const move = await c.app.inject({
      method: 'PUT',
      url: `/api/groups/${c.group.id}/members/${c.member.id}`,
      headers: await c.as(who),
      payload: { groupId: c.otherGroup.id },
    });
    const remove = await c.app.inject({
      method: 'DELETE',
      url: `/api/groups/${c.group.id}/members/${c.member.id}`,
      headers: await c.as(who),
    });
    expect([add.statusCode, move.statusCode, remove.statusCode]).toEqual([status, status, status]);
    expect((await userRow(c, c.member.id)).groupId).toBe(c.group.id);
  });

  it('lets an admin add people (moving them from their old group), logging each', async () => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'POST',
      url: `/api/groups/${c.group.id}/members`,
      headers: await c.as('admin'),
      payload: { userIds: [c.outsider.id, c.member.id] },
    });
    expect(res.json()).toEqual({ message: '1 member added.', added: 1 });
    expect((await userRow(c, c.outsider.id)).groupId).toBe(c.group.id);
    const logs = await c.app.db.select().from(activityLogs).where(eq(activityLogs.targetId, c.outsider.id));
    expect(logs.map((l) => l.action)).toContain(`Added ${c.outsider.email} to group ${c.group.name}`);
  });

  it('lets an admin move a member to another group', async () => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'PUT',
      url: `/api/groups/${c.group.id}/members/${c.member.id}`,
      headers: await c.as('admin'),
      payload: { groupId: c.otherGroup.id },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: `Member moved to ${c.otherGroup.name}.`,
      group: { _id: c.otherGroup.id, name: c.otherGroup.name },
    });
    expect((await userRow(c, c.member.id)).groupId).toBe(c.otherGroup.id);
    // The moved member now sees the other group, and no longer this one.
    expect(
      (await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: await c.as(c.member) })).statusCode,
    ).toBe(403);
    expect(
      (await c.app.inject({ url: `/api/groups/id/${c.otherGroup.id}`, headers: await c.as(c.member) })).statusCode,
    ).toBe(200);
  });

  it('lets an admin remove a member, who then belongs to no group', async () => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'DELETE',
      url: `/api/groups/${c.group.id}/members/${c.member.id}`,
      headers: await c.as('admin'),
    });
    expect(res.json()).toEqual({ message: 'Member removed from the group.' });
    expect((await userRow(c, c.member.id)).groupId).toBeNull();
  });

  it.each([
    ['an empty list', 'POST', '', { userIds: [] }, 400, 'Please select at least one employee.'],
    [
      'an unknown person',
      'POST',
      '',
      { userIds: ['00000000-0000-4000-8000-000000000000'] },
      400,
      'Some of the chosen employees could not be found or are not approved.',
    ],
    ['no target group', 'PUT', 'member', {}, 400, 'Please select a group.'],
    ['the same group', 'PUT', 'member', 'same', 400, 'This person is already in this group.'],
    [
      'an unknown target group',
      'PUT',
      'member',
      { groupId: '00000000-0000-4000-8000-000000000000' },
      400,
      'The chosen group does not exist.',
    ],
    ['a person of another group', 'DELETE', 'outsider', undefined, 404, 'This person is not a member of this group.'],
  ] as const)('refuses %s', async (_what, method, whom, payload, status, message) => {
    const c = await groupCast();
    const url = `/api/groups/${c.group.id}/members${whom ? `/${whom === 'member' ? c.member.id : c.outsider.id}` : ''}`;
    const body = payload === 'same' ? { groupId: c.group.id } : payload;
    const res = await c.app.inject({ method, url, headers: await c.as('admin'), ...(body ? { payload: body } : {}) });
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toBe(message);
  });

  it('answers 404 when the group is unknown', async () => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'POST',
      url: '/api/groups/00000000-0000-4000-8000-000000000000/members',
      headers: await c.as('admin'),
      payload: { userIds: [c.member.id] },
    });
    expect(res.statusCode).toBe(404);
  });
});
