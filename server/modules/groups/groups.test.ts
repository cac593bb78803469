import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { messageText } from '#shared/messages/index.ts';

import type { Db } from '#server/db/client.ts';
import {
  activityLogs,
  contactInfos,
  directorEntries,
  groupItems,
  groups,
  officeMembers,
  users,
} from '#server/db/schema/index.ts';
import { createGroup, createUser } from '#server/test/factories.ts';

import { groupCast, type Person } from './groups.fixtures.ts';

const ACCESS_DENIED = messageText('groups.access_denied');

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

describe('GET /api/groups and /api/groups/name', () => {
  it('refuses a visitor who is not signed in', async () => {
    const c = await groupCast();
    expect((await c.app.inject({ url: '/api/groups' })).statusCode).toBe(401);
    expect((await c.app.inject({ url: '/api/groups/name' })).statusCode).toBe(401);
  });

  it('lists every group by name for any signed-in user', async () => {
    const c = await groupCast();
    const res = await c.app.inject({ url: '/api/groups/name', headers: c.as('outsider') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toContainEqual({ _id: c.group.id, name: c.group.name });
    const full = await c.app.inject({ url: '/api/groups', headers: c.as('member') });
    expect(full.json()).toContainEqual({ _id: c.group.id, name: c.group.name, description: 'A research group' });
  });
});

describe('GET /api/groups/menu (issue 16 item 7)', () => {
  type MenuItem = { _id: string; name: string; mine: boolean; canOpen: boolean };
  const entry = async (c: Awaited<ReturnType<typeof groupCast>>, who: Person, groupId: string) => {
    const res = await c.app.inject({ url: '/api/groups/menu', headers: c.as(who) });
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

describe('GET /api/groups/id/{id} (the group page)', () => {
  it.each<[Person, number]>([
    ['anonymous', 401],
    ['member', 200],
    ['outsider', 403],
    ['director', 200],
    ['associateDirector', 200],
    ['admin', 200],
  ])('answers %s with %i', async (who, status) => {
    const c = await groupCast();
    const res = await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: c.as(who) });
    expect(res.statusCode).toBe(status);
    if (status === 403)
      expect(res.json()).toMatchObject({ error: ACCESS_DENIED, message: ACCESS_DENIED, code: 'groups.access_denied' });
  });

  it('says Access Denied in the words of the spec', () => {
    expect(ACCESS_DENIED).toBe(
      'Access Denied. You are not authorized to view this group. You are not a member of this group.',
    );
  });

  it('gives the whole group: members, current associate director, lists, and whether the viewer may manage it', async () => {
    const c = await groupCast();
    const asMember = (await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: c.as('member') })).json();
    expect(asMember).toMatchObject({
      _id: c.group.id,
      name: c.group.name,
      GroupHistoryDetails: '',
      contactInfo: [],
      notices: [],
      projects: [],
      officeOfGroup: [],
      canManage: false,
      currentAD: { name: 'Anita Lead', designation: 'Assistant Director', from: '2024-01-01', to: null },
    });
    expect(asMember.employees).toEqual([
      expect.objectContaining({ _id: c.associateDirector.id, name: 'Anita Lead', role: 'associate_director' }),
      expect.objectContaining({ _id: c.member.id, name: 'Meera Member', email: c.member.email, role: 'employee' }),
    ]);
    const asLead = (
      await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: c.as('associateDirector') })
    ).json();
    expect(asLead.canManage).toBe(true);
    const asDirector = (await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: c.as('director') })).json();
    expect(asDirector.canManage).toBe(false);
  });

  it('takes the entry without an end date as current, else the latest', async () => {
    const c = await groupCast();
    await c.app.db.insert(directorEntries).values({
      groupId: c.group.id,
      name: 'Earlier Lead',
      designation: 'Assistant Director',
      from: '2010-01-01',
      to: '2015-01-01',
    });
    await c.app.db.insert(directorEntries).values({
      groupId: c.group.id,
      name: 'Later Lead',
      designation: 'Assistant Director',
      from: '2030-01-01',
      to: '2031-01-01',
    });
    const body = (await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: c.as('admin') })).json();
    expect(body.currentAD.name).toBe('Anita Lead');
    expect(body.assistantDirectorHistory.map((e: { name: string }) => e.name)).toEqual([
      'Later Lead',
      'Anita Lead',
      'Earlier Lead',
    ]);
    await c.app.db
      .update(directorEntries)
      .set({ to: '2025-01-01' })
      .where(eq(directorEntries.userId, c.associateDirector.id));
    const after = (await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: c.as('admin') })).json();
    expect(after.currentAD.name).toBe('Later Lead');
  });

  it('stops counting an associate director whose term has ended as a manager', async () => {
    const c = await groupCast();
    await c.app.db
      .update(directorEntries)
      .set({ to: '2024-06-30' })
      .where(eq(directorEntries.userId, c.associateDirector.id));
    // Still a member, they may see the page, but no longer manage it.
    const res = await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: c.as('associateDirector') });
    expect(res.json().canManage).toBe(false);
    const edit = await c.app.inject({ url: `/api/groups/${c.group.id}`, headers: c.as('associateDirector') });
    expect(edit.statusCode).toBe(403);
  });

  it('answers 404 for an unknown group and 400 for a malformed id', async () => {
    const c = await groupCast();
    const unknown = await c.app.inject({
      url: '/api/groups/id/00000000-0000-4000-8000-000000000000',
      headers: c.as('admin'),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Group not found.');
    expect((await c.app.inject({ url: '/api/groups/id/nope', headers: c.as('admin') })).statusCode).toBe(400);
  });

  it('does not list pending or deactivated people as members', async () => {
    const c = await groupCast();
    await createUser(c.app, 'employee', { groupId: c.group.id, status: 'pending', name: 'Pending Person' });
    await createUser(c.app, 'employee', { groupId: c.group.id, status: 'deactivated', name: 'Gone Person' });
    const body = (await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: c.as('admin') })).json();
    expect(body.employees.map((e: { name: string }) => e.name)).toEqual(['Anita Lead', 'Meera Member']);
  });
});

describe('the group page answer, made once per version of the group (issue 12)', () => {
  const page = async (c: Awaited<ReturnType<typeof groupCast>>, headers: Record<string, string> = {}) =>
    c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: { ...c.as('director'), ...headers } });

  it('answers 304 to a browser that has it, privately, and a new answer after any change, however it was made', async () => {
    const c = await groupCast();
    const first = await page(c);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = String(first.headers.etag);
    expect((await page(c, { 'if-none-match': etag })).statusCode).toBe(304);

    // Every change below is made straight in the database, as another node or a later write path would: the
    // database's own triggers move the group's version on, so the very next read is the new page.
    const changes: [string, () => Promise<unknown>, (body: Record<string, unknown>) => void][] = [
      [
        'a contact',
        () => c.app.db.insert(contactInfos).values({ groupId: c.group.id, type: 'Phone', value: '011-2390 1234' }),
        (b) => expect(b.contactInfo).toEqual([expect.objectContaining({ value: '011-2390 1234' })]),
      ],
      [
        'the office',
        () => c.app.db.insert(officeMembers).values({ groupId: c.group.id, name: 'Rekha Office', designation: 'PA' }),
        (b) => expect(b.officeOfGroup).toEqual([expect.objectContaining({ name: 'Rekha Office' })]),
      ],
      [
        'a notice',
        () => c.app.db.insert(groupItems).values({ groupId: c.group.id, kind: 'notice', name: 'Fire drill' }),
        (b) => expect(b.notices).toEqual([expect.objectContaining({ name: 'Fire drill' })]),
      ],
      [
        "a member's name",
        () => c.app.db.update(users).set({ name: 'Meera Renamed' }).where(eq(users.id, c.member.id)),
        (b) => expect((b.employees as { name: string }[]).map((e) => e.name)).toContain('Meera Renamed'),
      ],
      [
        "the associate director's name",
        () => c.app.db.update(users).set({ name: 'Anita Renamed' }).where(eq(users.id, c.associateDirector.id)),
        (b) => expect(b.currentAD).toMatchObject({ name: 'Anita Renamed' }),
      ],
      [
        "the associate director's about (shown in the group's history)",
        () => c.app.db.update(users).set({ about: 'Leads the fire lab.' }).where(eq(users.id, c.associateDirector.id)),
        (b) =>
          expect(b.assistantDirectorHistory).toEqual([
            expect.objectContaining({ user: expect.objectContaining({ about: 'Leads the fire lab.' }) }),
          ]),
      ],
      [
        'a newcomer',
        () => createUser(c.app, 'employee', { name: 'Nikhil Newcomer', groupId: c.group.id }),
        (b) => expect((b.employees as { name: string }[]).map((e) => e.name)).toContain('Nikhil Newcomer'),
      ],
      [
        'a member who left',
        () => c.app.db.update(users).set({ groupId: null }).where(eq(users.id, c.member.id)),
        (b) => expect((b.employees as { name: string }[]).map((e) => e.name)).not.toContain('Meera Renamed'),
      ],
      [
        "the group's own text",
        () => c.app.db.update(groups).set({ vision: 'A new vision.' }).where(eq(groups.id, c.group.id)),
        (b) => expect(b.vision).toBe('A new vision.'),
      ],
    ];
    let previous = etag;
    for (const [what, change, check] of changes) {
      await change();
      const res = await page(c, { 'if-none-match': previous });
      expect(res.statusCode, what).toBe(200);
      check(res.json());
      expect(res.headers.etag, what).not.toBe(previous);
      previous = String(res.headers.etag);
    }
  });

  it('keeps the answer (and the browser its copy) when what changed is not on the page', async () => {
    const c = await groupCast();
    const etag = String((await page(c)).headers.etag);
    const version = async () =>
      (await c.app.db.select({ v: groups.contentVersion }).from(groups).where(eq(groups.id, c.group.id)))[0]!.v;
    const before = await version();
    // A member's "about", password and sessions stamp: the members list shows none of them (the history shows
    // "about" only of the people it names, and the member is not one of them).
    await c.app.db
      .update(users)
      .set({ about: 'Works on smoke.', passwordHash: 'not-a-hash', sessionsValidAfter: new Date() })
      .where(eq(users.id, c.member.id));
    expect((await page(c, { 'if-none-match': etag })).statusCode).toBe(304);
    expect(await version()).toBe(before); // nothing at all was written to the group row
  });

  it('lets many people join, leave and change one group at the same time (no lock waits crosswise)', async () => {
    const c = await groupCast();
    // Each write below checks its group as a foreign key (a key-share lock on the group row) and moves the group's
    // version on (an update of that row) in one statement: concurrent writers must queue, never deadlock.
    const joined = await Promise.all(
      Array.from({ length: 8 }, (_, i) => createUser(c.app, 'employee', { name: `Joiner ${i}`, groupId: c.group.id })),
    );
    await Promise.all([
      ...joined.map((u, i) =>
        i % 2
          ? c.app.db.update(users).set({ groupId: c.otherGroup.id }).where(eq(users.id, u.id))
          : c.app.db
              .update(users)
              .set({ name: `Renamed ${i}` })
              .where(eq(users.id, u.id)),
      ),
      ...Array.from({ length: 4 }, (_, i) =>
        c.app.db.insert(groupItems).values({ groupId: c.group.id, kind: 'notice', name: `Notice ${i}` }),
      ),
      c.app.db.insert(contactInfos).values({ groupId: c.group.id, type: 'Phone', value: '011-2390 1234' }),
    ]);
    const body = (await page(c)).json();
    expect(body.employees.map((e: { name: string }) => e.name)).toEqual(
      expect.arrayContaining(['Renamed 0', 'Renamed 2', 'Renamed 4', 'Renamed 6']),
    );
    expect(body.employees).toHaveLength(6); // the associate director, Meera and the four who stayed
    expect(body.notices).toHaveLength(4);
  });

  it('keeps apart the answers of those who may and may not manage the group', async () => {
    const c = await groupCast();
    expect((await page(c)).json().canManage).toBe(false);
    const lead = await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: c.as('associateDirector') });
    expect(lead.json().canManage).toBe(true);
    expect((await page(c)).json().canManage).toBe(false);
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
    const res = await c.app.inject({ url: `/api/groups/${c.group.id}`, headers: c.as(who) });
    expect(res.statusCode).toBe(status);
    if (status === 200) expect(res.json()).toMatchObject({ _id: c.group.id, canManage: true });
  });

  it('answers 404 for an unknown group', async () => {
    const c = await groupCast();
    const res = await c.app.inject({ url: '/api/groups/00000000-0000-4000-8000-000000000000', headers: c.as('admin') });
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
    const res = await c.app.inject({ url: '/api/groups/my-group', headers: c.as('member') });
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
    const read = () => c.app.inject({ url: '/api/groups/my-group', headers: c.as('member') });
    const first = await read();
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(
      (
        await c.app.inject({
          url: '/api/groups/my-group',
          headers: { ...c.as('member'), 'if-none-match': String(first.headers.etag) },
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
    const res = await c.app.inject({ url: '/api/groups/my-group', headers: c.as(loner) });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('You are not assigned to any group.');
  });
});

describe('POST /api/groups', () => {
  it.each<[Person, number]>([
    ['anonymous', 401],
    ['member', 403],
    ['outsider', 403],
    ['director', 403],
    ['associateDirector', 403],
  ])('refuses %s with %i', async (who, status) => {
    const c = await groupCast();
    const res = await c.app.inject({ method: 'POST', url: '/api/groups', headers: c.as(who), payload: groupBody() });
    expect(res.statusCode).toBe(status);
  });

  it('lets an admin create a group and moves the chosen employees into it, with an activity log entry', async () => {
    const c = await groupCast();
    const newcomer = await createUser(c.app, 'employee', { name: 'Nita New' });
    const body = groupBody({ employees: [newcomer.id, c.outsider.id] });
    const res = await c.app.inject({ method: 'POST', url: '/api/groups', headers: c.as('admin'), payload: body });
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
      headers: c.as('admin'),
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
      headers: c.as('admin'),
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
      headers: c.as('admin'),
      payload: groupBody({ name: c.group.name.toUpperCase() }),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: 'A group with this name already exists.', field: 'name' });
  });

  it('creates nothing and moves nobody when one employee is unknown or not approved', async () => {
    const c = await groupCast();
    const pending = await createUser(c.app, 'employee', { status: 'pending' });
    const body = groupBody({ employees: [c.member.id, pending.id] });
    const res = await c.app.inject({ method: 'POST', url: '/api/groups', headers: c.as('admin'), payload: body });
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
      headers: c.as(who),
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
      headers: c.as('associateDirector'),
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
      headers: c.as('admin'),
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
      headers: c.as('admin'),
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
      headers: c.as('admin'),
      payload: update({ name: c.otherGroup.name }),
    });
    expect(res.statusCode).toBe(409);
  });

  it('answers 404 for an unknown group', async () => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'PUT',
      url: '/api/groups/00000000-0000-4000-8000-000000000000',
      headers: c.as('admin'),
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
    expect((await c.app.inject({ url: '/api/groups/staff', headers: c.as(who) })).statusCode).toBe(status);
  });

  it('searches approved staff by name or email in the database, with their group and the total', async () => {
    const c = await groupCast();
    await createUser(c.app, 'employee', { name: 'Zubin Quasar', email: `zq-${Date.now()}@lab.test` });
    await createUser(c.app, 'employee', { name: 'Quasar Pending', status: 'pending' });
    const res = await c.app.inject({ url: '/api/groups/staff?q=quasar', headers: c.as('admin') });
    expect(res.json()).toEqual([expect.objectContaining({ name: 'Zubin Quasar', group: null })]);
    expect(res.headers['x-total-count']).toBe('1');
    const byEmail = await c.app.inject({
      url: `/api/groups/staff?q=${encodeURIComponent(c.member.email)}`,
      headers: c.as('admin'),
    });
    expect(byEmail.json()).toEqual([
      expect.objectContaining({ _id: c.member.id, group: { _id: c.group.id, name: c.group.name } }),
    ]);
    const wild = await c.app.inject({ url: '/api/groups/staff?q=%25', headers: c.as('admin') });
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
      headers: c.as(who),
      payload: { userIds: [c.outsider.id] },
    });
    const move = await c.app.inject({
      method: 'PUT',
      url: `/api/groups/${c.group.id}/members/${c.member.id}`,
      headers: c.as(who),
      payload: { groupId: c.otherGroup.id },
    });
    const remove = await c.app.inject({
      method: 'DELETE',
      url: `/api/groups/${c.group.id}/members/${c.member.id}`,
      headers: c.as(who),
    });
    expect([add.statusCode, move.statusCode, remove.statusCode]).toEqual([status, status, status]);
    expect((await userRow(c, c.member.id)).groupId).toBe(c.group.id);
  });

  it('lets an admin add people (moving them from their old group), logging each', async () => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'POST',
      url: `/api/groups/${c.group.id}/members`,
      headers: c.as('admin'),
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
      headers: c.as('admin'),
      payload: { groupId: c.otherGroup.id },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: `Member moved to ${c.otherGroup.name}.`,
      group: { _id: c.otherGroup.id, name: c.otherGroup.name },
    });
    expect((await userRow(c, c.member.id)).groupId).toBe(c.otherGroup.id);
    // The moved member now sees the other group, and no longer this one.
    expect((await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: c.as(c.member) })).statusCode).toBe(403);
    expect((await c.app.inject({ url: `/api/groups/id/${c.otherGroup.id}`, headers: c.as(c.member) })).statusCode).toBe(
      200,
    );
  });

  it('lets an admin remove a member, who then belongs to no group', async () => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'DELETE',
      url: `/api/groups/${c.group.id}/members/${c.member.id}`,
      headers: c.as('admin'),
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
    const res = await c.app.inject({ method, url, headers: c.as('admin'), ...(body ? { payload: body } : {}) });
    expect(res.statusCode).toBe(status);
    expect(res.json().message).toBe(message);
  });

  it('answers 404 when the group is unknown', async () => {
    const c = await groupCast();
    const res = await c.app.inject({
      method: 'POST',
      url: '/api/groups/00000000-0000-4000-8000-000000000000/members',
      headers: c.as('admin'),
      payload: { userIds: [c.member.id] },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('group helpers', () => {
  it('a group created with the factory starts empty', async () => {
    const c = await groupCast();
    const g = await createGroup(c.app);
    const body = (await c.app.inject({ url: `/api/groups/id/${g.id}`, headers: c.as('admin') })).json();
    expect(body).toMatchObject({ employees: [], currentAD: null, assistantDirectorHistory: [] });
  });
});
