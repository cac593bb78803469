import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';

import { closeGroupMembers, closeGroups, groups, users } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createGroup, createUser, expectKeptCopy, signIn } from '#server/test/factories.ts';

buildTestAppBeforeAll();

// GET /api/users (the employee directory) and GET /api/users/:id.

describe('GET /api/users (employee directory)', () => {
  it('refuses a visitor who is not signed in', async () => {
    const app = await buildTestApp();
    expect((await app.inject({ method: 'GET', url: '/api/users' })).statusCode).toBe(401);
  });

  it('answers an array of approved staff only, with the directory card fields and nothing private', async () => {
    const { app, headers } = await signIn('employee');
    const group = await createGroup(app);
    const colleague = await createUser(app, 'director', {
      name: 'Dir Colleague',
      groupId: group.id,
      designation: "Scientist 'D'",
      mobile: '9999999999',
    });
    const pending = await createUser(app, 'employee', { status: 'pending', name: 'Pending Person' });
    const gone = await createUser(app, 'employee', { status: 'deactivated', name: 'Gone Person' });
    const res = await app.inject({ method: 'GET', url: '/api/users', headers });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(Array.isArray(list)).toBe(true);
    const ids = list.map((u: { _id: string }) => u._id);
    expect(ids).toContain(colleague.id);
    expect(ids).not.toContain(pending.id);
    expect(ids).not.toContain(gone.id);
    const card = list.find((u: { _id: string }) => u._id === colleague.id);
    expect(card).toEqual({
      _id: colleague.id,
      email: colleague.email,
      role: 'director',
      photo: null,
      group: { _id: group.id, name: group.name },
      personalDetails: { name: 'Dir Colleague', fullName: 'Dir Colleague' },
      professionalDetails: { designation: "Scientist 'D'", cadre: '', intercom: '' },
    });
    expect(res.body).not.toContain('9999999999');
    expect(res.body).not.toContain('argon2');
  });

  it('filters by role, group and a search of name or email, case-insensitively, in the database', async () => {
    const { app, headers } = await signIn('employee');
    const group = await createGroup(app);
    const tag = Math.random().toString(36).slice(2, 8);
    const a = await createUser(app, 'employee', { name: `Zed ${tag} Kumar`, groupId: group.id });
    const b = await createUser(app, 'director', { name: `Other ${tag}`, groupId: group.id });
    const c = await createUser(app, 'employee', { name: 'Someone Else', email: `${tag}-c@lab.test` });
    const ids = async (qs: string) =>
      (await app.inject({ method: 'GET', url: `/api/users?${qs}`, headers })).json().map((u: { _id: string }) => u._id);
    expect(await ids(`q=${tag.toUpperCase()}`)).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
    expect(await ids(`q=${tag}&role=employee`)).toEqual(expect.arrayContaining([a.id, c.id]));
    expect(await ids(`q=${tag}&role=employee`)).not.toContain(b.id);
    expect(await ids(`groupId=${group.id}`)).toEqual([b.id, a.id]); // by name: Other…, Zed…
    expect(await ids(`q=${encodeURIComponent('%')}`)).toEqual([]); // % is taken literally
    expect(await ids('role=&groupId=&q=')).toContain(a.id); // cleared filters mean no filter
  });

  it('answers a page {items, total} when limit or offset is given', async () => {
    const { app, headers } = await signIn('employee');
    const group = await createGroup(app);
    for (let i = 0; i < 3; i++) await createUser(app, 'employee', { name: `Paged ${i}`, groupId: group.id });
    const first = await app.inject({ method: 'GET', url: `/api/users?groupId=${group.id}&limit=2`, headers });
    expect(first.json()).toMatchObject({ total: 3 });
    expect(first.json().items.map((u: { personalDetails: { name: string } }) => u.personalDetails.name)).toEqual([
      'Paged 0',
      'Paged 1',
    ]);
    const second = await app.inject({ method: 'GET', url: `/api/users?groupId=${group.id}&limit=2&offset=2`, headers });
    expect(second.json()).toMatchObject({ total: 3, items: [{ personalDetails: { name: 'Paged 2' } }] });
  });

  it('answers a repeated search from its kept copy (same ETag, 304) until a card or the list changes, on any path', async () => {
    const { app, headers } = await signIn('employee');
    const admin = await createUser(app, 'admin');
    const group = await createGroup(app);
    const tag = Math.random().toString(36).slice(2, 8);
    const person = await createUser(app, 'employee', { name: `Kept ${tag}`, groupId: group.id });
    const url = `/api/users?q=${tag}`;
    const ask = (extra: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url, headers: { ...headers, ...extra } });
    const names = async () =>
      (await ask()).json().map((u: { personalDetails: { name: string } }) => u.personalDetails.name);

    const etag = await expectKeptCopy(ask);

    // Neither the person's own "about" nor a password change is on a card: the cached answer stays.
    const own = await authHeaders(app, person);
    const about = await app.inject({
      method: 'PUT',
      url: `/api/users/${person.id}`,
      headers: own,
      payload: { about: 'New about.' },
    });
    expect(about.statusCode, about.body).toBe(200);
    expect((await ask()).headers.etag).toBe(etag);

    // A new colleague is listed at once; so is a new designation, a rename of the group and one made straight in SQL.
    await createUser(app, 'employee', { name: `Kept ${tag} Second` });
    expect(await names()).toEqual([`Kept ${tag}`, `Kept ${tag} Second`]);
    const designation = await app.inject({
      method: 'PUT',
      url: `/api/users/${person.id}`,
      headers: own,
      payload: { professionalDetails: { designation: 'Scientist F' } },
    });
    expect(designation.statusCode, designation.body).toBe(200);
    const card = () => ask().then((r) => r.json().find((u: { _id: string }) => u._id === person.id));
    expect((await card()).professionalDetails.designation).toBe('Scientist F');
    await app.db
      .update(groups)
      .set({ name: `Renamed ${tag}` })
      .where(eq(groups.id, group.id));
    expect((await card()).group.name).toBe(`Renamed ${tag}`);
    await app.db.update(users).set({ status: 'deactivated' }).where(eq(users.id, person.id));
    expect(await names()).toEqual([`Kept ${tag} Second`]);

    // Every signed-in person sees the same directory: an admin's copy is the employee's.
    const again = await ask();
    const asAdmin = await app.inject({ method: 'GET', url, headers: await authHeaders(app, admin) });
    expect(asAdmin.headers.etag).toBe(again.headers.etag);
    expect(asAdmin.body).toBe(again.body);
  });

  it('locks the directory version at the commit, so two writers never wait on each other crosswise', async () => {
    const app = await buildTestApp();
    const [first, second] = await Promise.all([createUser(app, 'employee'), createUser(app, 'employee')]);
    const lockWaits = async () =>
      (
        await app.pgPool.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        )
      ).rows[0]!.n;
    let lone: Promise<unknown> | undefined;
    // A transaction changes one card, then, while another writer changes a second card alone, that second card too. Had
    // the version been locked at the first change, the lone writer would wait for it holding the second card, and the
    // transaction would wait for the second card holding the version: PostgreSQL's deadlock error.
    await app.db.transaction(async (tx) => {
      await tx.update(users).set({ designation: 'Scientist E' }).where(eq(users.id, first.id));
      lone = app.db.update(users).set({ designation: 'Scientist F' }).where(eq(users.id, second.id));
      const settled = lone.then(
        () => true,
        () => true,
      );
      await vi.waitFor(
        async () => expect((await Promise.race([settled, lockWaits().then((n) => n > 0)])) || false).toBe(true),
        {
          timeout: 5000,
          interval: 50,
        },
      );
      await tx.update(users).set({ cadre: 'DRDS' }).where(eq(users.id, second.id));
    });
    await lone;
    const [row] = await app.db.select().from(users).where(eq(users.id, second.id));
    expect(row).toMatchObject({ designation: 'Scientist F', cadre: 'DRDS' });
  });

  it.each([
    ['role=chief', 'Please choose a role from the list.', 'role'],
    ['groupId=nope', 'Please choose a group from the list.', 'groupId'],
    ['limit=0', undefined, 'limit'],
    ['limit=101', undefined, 'limit'],
    ['offset=-1', undefined, 'offset'],
    [`q=${'x'.repeat(201)}`, 'The search text is too long.', 'q'],
  ])('refuses ?%s with a 400', async (qs, message, field) => {
    const { app, headers } = await signIn('employee');
    const res = await app.inject({ method: 'GET', url: `/api/users?${qs}`, headers });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
    if (message) expect(res.json().message).toBe(message);
  });
});

describe('GET /api/users/:id', () => {
  it('shows the owner their whole profile, with documents', async () => {
    const { app, headers, user } = await signIn('employee', { mobile: '9876543210' });
    const res = await app.inject({ method: 'GET', url: `/api/users/${user.id}`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      _id: user.id,
      email: user.email,
      personalDetails: { mobile: '9876543210' },
      documents: [],
    });
    expect(res.body).not.toContain('argon2');
  });

  it('lists the close groups the person belongs to (spec §3 User: closeGroup), and only theirs', async () => {
    const { app, headers, user } = await signIn('employee');
    const [mine] = await app.db
      .insert(closeGroups)
      .values({
        groupName: 'Blast study',
        groupPurpose: 'Trials',
        durationFrom: '2026-01-01',
        durationTo: '2026-12-31',
      })
      .returning();
    await app.db
      .insert(closeGroups)
      .values({ groupName: 'Not mine', groupPurpose: 'Other', durationFrom: '2026-01-01', durationTo: '2026-12-31' });
    await app.db.insert(closeGroupMembers).values({ closeGroupId: mine!.id, userId: user.id });
    const res = await app.inject({ method: 'GET', url: `/api/users/${user.id}`, headers });
    expect(res.json().closeGroup).toEqual([
      {
        _id: mine!.id,
        groupName: 'Blast study',
        groupPurpose: 'Trials',
        groupDuration: { from: '2026-01-01', to: '2026-12-31' },
      },
    ]);
    const other = await signIn('employee');
    const empty = await other.app.inject({ method: 'GET', url: `/api/users/${other.user.id}`, headers: other.headers });
    expect(empty.json().closeGroup).toEqual([]);
  });

  it('lets an admin read anyone, refuses another user and a visitor, and 404s an unknown id', async () => {
    const app = await buildTestApp();
    const owner = await createUser(app, 'employee');
    const other = await createUser(app, 'director');
    const admin = await createUser(app, 'admin');
    const url = `/api/users/${owner.id}`;
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const denied = await app.inject({ method: 'GET', url, headers: await authHeaders(app, other) });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('You may only view or change your own profile.');
    expect((await app.inject({ method: 'GET', url, headers: await authHeaders(app, admin) })).json()._id).toBe(
      owner.id,
    );
    const missing = await app.inject({
      method: 'GET',
      url: '/api/users/00000000-0000-4000-8000-000000000000',
      headers: await authHeaders(app, admin),
    });
    expect(missing.statusCode).toBe(404);
    const bad = await app.inject({
      method: 'GET',
      url: '/api/users/not-a-uuid',
      headers: await authHeaders(app, admin),
    });
    expect(bad.statusCode).toBe(400);
  });
});
