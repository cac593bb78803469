import { existsSync } from 'node:fs';

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { formatDate } from '#shared/format.ts';

import { closeGroupDocuments, files } from '#server/db/schema/index.ts';
import { createUser } from '#server/test/factories.ts';

import {
  actionsFor,
  cast,
  closeGroupBody,
  createCloseGroup,
  dayFromToday,
  fileIdOf,
  uploaded,
} from './close-groups.test-helpers.ts';

// The admin's routes: listing, reading, creating, editing and deleting close groups (/admin/close-group).

describe('GET /admin/close-group', () => {
  it('refuses a visitor (401) and a non-admin (403)', async () => {
    const c = await cast();
    expect((await c.app.inject({ method: 'GET', url: '/admin/close-group' })).statusCode).toBe(401);
    const res = await c.app.inject({ method: 'GET', url: '/admin/close-group', headers: await c.as(c.alice) });
    expect(res.statusCode).toBe(403);
  });

  it('lists close groups with members, documents and the total, a page at a time', async () => {
    const c = await cast();
    const first = await createCloseGroup(c, { groupName: 'First' });
    await createCloseGroup(c, { groupName: 'Second' });
    const res = await c.app.inject({ method: 'GET', url: '/admin/close-group', headers: await c.as(c.admin) });
    expect(res.statusCode).toBe(200);
    const listed = res.json().find((g: { _id: string }) => g._id === first._id);
    expect(listed).toMatchObject({
      groupName: 'First',
      status: 'active',
      documents: [],
      requestedBy: [
        { _id: c.alice.id, name: 'Alice Rao' },
        { _id: c.bob.id, name: 'Bob Singh' },
      ],
    });
    const page = await c.app.inject({
      method: 'GET',
      url: '/admin/close-group?limit=1&offset=1',
      headers: await c.as(c.admin),
    });
    expect(page.json().items).toHaveLength(1);
    expect(page.json().total).toBeGreaterThanOrEqual(2);
  });
});

describe('GET /admin/close-group/{id}', () => {
  it('answers one close group to an admin, 404 for an unknown id and 400 for a malformed one', async () => {
    const c = await cast();
    const group = await createCloseGroup(c);
    const res = await c.app.inject({
      method: 'GET',
      url: `/admin/close-group/${group._id}`,
      headers: await c.as(c.admin),
    });
    expect(res.json()).toMatchObject({ _id: group._id, adminRemarks: 'Approved by the Director.' });
    const missing = await c.app.inject({
      method: 'GET',
      url: '/admin/close-group/00000000-0000-4000-8000-000000000000',
      headers: await c.as(c.admin),
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('Close group not found.');
    const bad = await c.app.inject({ method: 'GET', url: '/admin/close-group/abc', headers: await c.as(c.admin) });
    expect(bad.statusCode).toBe(400);
    const member = await c.app.inject({
      method: 'GET',
      url: `/admin/close-group/${group._id}`,
      headers: await c.as(c.alice),
    });
    expect(member.statusCode).toBe(403);
  });
});

describe('POST /admin/close-group', () => {
  it('creates a close group with its members and records it in the activity log', async () => {
    const c = await cast();
    const res = await c.app.inject({
      method: 'POST',
      url: '/admin/close-group',
      headers: await c.as(c.admin),
      payload: closeGroupBody([c.alice.id, c.bob.id, c.alice.id], { groupName: '  Fire door trial  ' }),
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ groupName: 'Fire door trial', status: 'active', canUpload: true });
    expect(body.requestedBy.map((m: { _id: string }) => m._id).sort()).toEqual([c.alice.id, c.bob.id].sort());
    expect(await actionsFor(c.app, body._id)).toEqual(['Created close group Fire door trial']);
  });

  it('refuses a visitor and a non-admin before reading the body', async () => {
    const c = await cast();
    const anon = await c.app.inject({ method: 'POST', url: '/admin/close-group', payload: {} });
    expect(anon.statusCode).toBe(401);
    const employee = await c.app.inject({
      method: 'POST',
      url: '/admin/close-group',
      headers: await c.as(c.alice),
      payload: {},
    });
    expect(employee.statusCode).toBe(403);
  });

  it.each([
    [{ groupName: '  ' }, 'Group Name is required.', 'groupName'],
    [{ groupName: undefined }, 'Group Name is required.', 'groupName'],
    [{ groupPurpose: '' }, 'Group Purpose is required.', 'groupPurpose'],
    [{ groupDuration: undefined }, 'Group Duration (From and To dates) are required.', 'groupDuration.from'],
    [
      { groupDuration: { from: '', to: '2026-12-01' } },
      'Group Duration (From and To dates) are required.',
      'groupDuration.from',
    ],
    [
      { groupDuration: { from: '2026-12-01', to: null } },
      'Group Duration (From and To dates) are required.',
      'groupDuration.to',
    ],
    [
      { groupDuration: { from: '2026-12-02', to: '2026-12-01' } },
      'Start date cannot be after end date.',
      'groupDuration.from',
    ],
    [{ groupDuration: { from: '2026-02-30', to: '2026-12-01' } }, 'Please enter a valid date.', 'groupDuration.from'],
    [{ requestedBy: [] }, 'Please select at least one user for Requested By.', 'requestedBy'],
    [{ requestedBy: undefined }, 'Please select at least one user for Requested By.', 'requestedBy'],
    [{ requestedBy: ['nobody'] }, 'Please choose users from the list.', 'requestedBy.0'],
  ])('refuses %j with "%s"', async (change, message, field) => {
    const c = await cast();
    const res = await c.app.inject({
      method: 'POST',
      url: '/admin/close-group',
      headers: await c.as(c.admin),
      payload: { ...closeGroupBody([c.alice.id]), ...change },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: message, message, field });
  });

  it('accepts a one-day close group (start equal to end)', async () => {
    const c = await cast();
    const day = dayFromToday(0);
    const group = await createCloseGroup(c, { groupDuration: { from: day, to: day } });
    expect(group).toMatchObject({ groupDuration: { from: day, to: day }, status: 'active' });
  });

  it('refuses members who do not exist or are not approved, and writes nothing', async () => {
    const c = await cast();
    const pending = await createUser(c.app, 'pending_director', { status: 'pending' });
    for (const ids of [[c.alice.id, '00000000-0000-4000-8000-000000000000'], [pending.id]]) {
      const res = await c.app.inject({
        method: 'POST',
        url: '/admin/close-group',
        headers: await c.as(c.admin),
        payload: closeGroupBody(ids, { groupName: 'Should not exist' }),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ field: 'requestedBy' });
    }
    const list = await c.app.inject({ method: 'GET', url: '/admin/close-group', headers: await c.as(c.admin) });
    expect(list.json().some((g: { groupName: string }) => g.groupName === 'Should not exist')).toBe(false);
  });
});

describe('PUT /admin/close-group/{id}', () => {
  it('replaces the fields and members, and logs an extension', async () => {
    const c = await cast();
    const group = await createCloseGroup(c);
    const res = await c.app.inject({
      method: 'PUT',
      url: `/admin/close-group/${group._id}`,
      headers: await c.as(c.admin),
      payload: closeGroupBody([c.bob.id], {
        groupName: 'Renamed',
        groupDuration: { from: dayFromToday(-5), to: dayFromToday(60) },
      }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      groupName: 'Renamed',
      requestedBy: [{ _id: c.bob.id }],
      groupDuration: { to: dayFromToday(60) },
    });
    expect(await actionsFor(c.app, group._id)).toContain(
      `Updated close group Renamed (extended to ${formatDate(dayFromToday(60))})`,
    );
    // Alice is no longer a member: the group is gone from her list.
    const mine = await c.app.inject({ method: 'GET', url: '/api/close-groups/mine', headers: await c.as(c.alice) });
    expect(mine.json().some((g: { _id: string }) => g._id === group._id)).toBe(false);
  });

  it('refuses a non-admin, an unknown id and invalid input', async () => {
    const c = await cast();
    const group = await createCloseGroup(c);
    const url = `/admin/close-group/${group._id}`;
    expect((await c.app.inject({ method: 'PUT', url, payload: closeGroupBody([c.bob.id]) })).statusCode).toBe(401);
    const member = await c.app.inject({
      method: 'PUT',
      url,
      headers: await c.as(c.alice),
      payload: closeGroupBody([c.bob.id]),
    });
    expect(member.statusCode).toBe(403);
    const missing = await c.app.inject({
      method: 'PUT',
      url: '/admin/close-group/00000000-0000-4000-8000-000000000000',
      headers: await c.as(c.admin),
      payload: closeGroupBody([c.bob.id]),
    });
    expect(missing.statusCode).toBe(404);
    const invalid = await c.app.inject({
      method: 'PUT',
      url,
      headers: await c.as(c.admin),
      payload: closeGroupBody([c.bob.id], { groupDuration: { from: '2026-05-02', to: '2026-05-01' } }),
    });
    expect(invalid.json()).toMatchObject({ error: 'Start date cannot be after end date.' });
    // Nothing changed.
    const after = await c.app.inject({ method: 'GET', url, headers: await c.as(c.admin) });
    expect(after.json().requestedBy).toHaveLength(2);
  });
});

describe('DELETE /admin/close-group/{id}', () => {
  it('deletes the close group, its documents and their files', async () => {
    const c = await cast();
    const group = await createCloseGroup(c);
    const doc = await uploaded(c, c.alice, group._id);
    const fileId = fileIdOf(doc.url);
    expect(existsSync(c.app.storage.storedPath('close-groups', fileId))).toBe(true);
    const res = await c.app.inject({
      method: 'DELETE',
      url: `/admin/close-group/${group._id}`,
      headers: await c.as(c.admin),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Group deleted successfully!' });
    expect(existsSync(c.app.storage.storedPath('close-groups', fileId))).toBe(false);
    expect(await c.app.db.select().from(files).where(eq(files.id, fileId))).toEqual([]);
    expect(
      await c.app.db.select().from(closeGroupDocuments).where(eq(closeGroupDocuments.closeGroupId, group._id)),
    ).toEqual([]);
    expect(await actionsFor(c.app, group._id)).toContain('Deleted close group Blast wall review and its 1 document(s)');
    const again = await c.app.inject({
      method: 'DELETE',
      url: `/admin/close-group/${group._id}`,
      headers: await c.as(c.admin),
    });
    expect(again.statusCode).toBe(404);
  });

  it('refuses a visitor and a member', async () => {
    const c = await cast();
    const group = await createCloseGroup(c);
    const url = `/admin/close-group/${group._id}`;
    expect((await c.app.inject({ method: 'DELETE', url })).statusCode).toBe(401);
    expect((await c.app.inject({ method: 'DELETE', url, headers: await c.as(c.alice) })).statusCode).toBe(403);
  });
});
