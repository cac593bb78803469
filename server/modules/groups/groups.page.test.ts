import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { messageText } from '#shared/messages/index.ts';

import { contactInfos, directorEntries, groupItems, groups, officeMembers, users } from '#server/db/schema/index.ts';
import { createUser } from '#server/test/factories.ts';

import { groupCast, type Person } from './groups.fixtures.ts';

// The group page (GET /api/groups/id/{id}): who may see it, what it holds, and its answer made once per version.

const ACCESS_DENIED = messageText('groups.access_denied');

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
    const res = await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: await c.as(who) });
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
    const asMember = (
      await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: await c.as('member') })
    ).json();
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
      await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: await c.as('associateDirector') })
    ).json();
    expect(asLead.canManage).toBe(true);
    const asDirector = (
      await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: await c.as('director') })
    ).json();
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
    const body = (await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: await c.as('admin') })).json();
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
    const after = (await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: await c.as('admin') })).json();
    expect(after.currentAD.name).toBe('Later Lead');
  });

  it('stops counting an associate director whose term has ended as a manager', async () => {
    const c = await groupCast();
    await c.app.db
      .update(directorEntries)
      .set({ to: '2024-06-30' })
      .where(eq(directorEntries.userId, c.associateDirector.id));
    // Still a member, they may see the page, but no longer manage it.
    const res = await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: await c.as('associateDirector') });
    expect(res.json().canManage).toBe(false);
    const edit = await c.app.inject({ url: `/api/groups/${c.group.id}`, headers: await c.as('associateDirector') });
    expect(edit.statusCode).toBe(403);
  });

  it('answers 404 for an unknown group and 400 for a malformed id', async () => {
    const c = await groupCast();
    const unknown = await c.app.inject({
      url: '/api/groups/id/00000000-0000-4000-8000-000000000000',
      headers: await c.as('admin'),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Group not found.');
    expect((await c.app.inject({ url: '/api/groups/id/nope', headers: await c.as('admin') })).statusCode).toBe(400);
  });

  it('does not list pending or deactivated people as members', async () => {
    const c = await groupCast();
    await createUser(c.app, 'employee', { groupId: c.group.id, status: 'pending', name: 'Pending Person' });
    await createUser(c.app, 'employee', { groupId: c.group.id, status: 'deactivated', name: 'Gone Person' });
    const body = (await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: await c.as('admin') })).json();
    expect(body.employees.map((e: { name: string }) => e.name)).toEqual(['Anita Lead', 'Meera Member']);
  });
});

describe('the group page answer, made once per version of the group (issue 12)', () => {
  const page = async (
    c: Awaited<ReturnType<typeof groupCast>>,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> =>
    c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: { ...(await c.as('director')), ...headers } });

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
    // A member's "about", password and sessions version: the members list shows none of them (the history shows
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
    const lead = await c.app.inject({ url: `/api/groups/id/${c.group.id}`, headers: await c.as('associateDirector') });
    expect(lead.json().canManage).toBe(true);
    expect((await page(c)).json().canManage).toBe(false);
  });
});
