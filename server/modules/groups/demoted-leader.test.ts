import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { directorEntries } from '#server/db/schema/index.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';

import { type GroupCast, groupCast } from './groups.fixtures.ts';

/**
 * Decision 030: a group's associate director manages it only while their current role is
 * associate_director in that group and its current history entry names them. A role or group change ends the rights
 * at the next request, whatever was read or kept before.
 */
const changeAccess = async (c: GroupCast, role: string, groupId: string | null): Promise<LightMyRequestResponse> =>
  c.app.inject({
    method: 'PUT',
    url: `/admin/users/${c.associateDirector.id}/access`,
    payload: { role, groupId },
    headers: await c.as('admin'),
  });

const postNotice = async (c: GroupCast) => {
  const body = multipart(
    { name: 'Safety drill', description: 'Drill on Monday' },
    { field: 'file', filename: 'drill.pdf', content: SAMPLE_FILES.pdf },
  );
  return c.app.inject({
    method: 'POST',
    url: `/api/groups/${c.group.id}/notices`,
    payload: body.payload,
    headers: { ...body.headers, ...(await c.as('associateDirector')) },
  });
};

const groupPage = async (c: GroupCast, etag?: string): Promise<LightMyRequestResponse> =>
  c.app.inject({
    url: `/api/groups/id/${c.group.id}`,
    headers: { ...(await c.as('associateDirector')), ...(etag ? { 'if-none-match': etag } : {}) },
  });
const manageView = async (c: GroupCast): Promise<LightMyRequestResponse> =>
  c.app.inject({ url: `/api/groups/${c.group.id}`, headers: await c.as('associateDirector') });

describe('a demoted or moved associate director (issue 28 item 3)', () => {
  it('loses the group at once when an admin makes them an employee in no group', async () => {
    const c = await groupCast();
    expect((await postNotice(c)).statusCode).toBe(201);
    expect((await manageView(c)).statusCode).toBe(200);
    const before = await groupPage(c);
    expect(before.json().canManage).toBe(true); // the manager's page is now kept
    expect((await changeAccess(c, 'employee', null)).statusCode).toBe(200);
    expect((await postNotice(c)).statusCode).toBe(403);
    expect((await manageView(c)).statusCode).toBe(403);
    expect((await groupPage(c)).statusCode).toBe(403);
    // Not even a browser's copy of the page is confirmed.
    expect((await groupPage(c, String(before.headers.etag))).statusCode).toBe(403);
    const menu = (await c.app.inject({ url: '/api/groups/menu', headers: await c.as('associateDirector') })).json();
    expect(menu.find((g: { _id: string }) => g._id === c.group.id)).toMatchObject({ mine: false, canOpen: false });
  });

  it('loses the group when only the role changes, and when only the group changes', async () => {
    const c = await groupCast();
    expect((await changeAccess(c, 'employee', c.group.id)).statusCode).toBe(200);
    expect((await postNotice(c)).statusCode).toBe(403);
    expect((await manageView(c)).statusCode).toBe(403);
    expect((await groupPage(c)).json().canManage).toBe(false); // a member still sees the page, as spec §6 says

    expect((await changeAccess(c, 'associate_director', c.group.id)).statusCode).toBe(200);
    expect((await postNotice(c)).statusCode).toBe(201); // the entry still names them: an admin gave both back

    expect((await changeAccess(c, 'associate_director', c.otherGroup.id)).statusCode).toBe(200);
    expect((await postNotice(c)).statusCode).toBe(403);
    expect((await manageView(c)).statusCode).toBe(403);
    expect((await groupPage(c)).statusCode).toBe(403);
  });

  it('gives nothing to an associate director named in the history of a group they are not in', async () => {
    const c = await groupCast();
    await c.app.db.insert(directorEntries).values({
      groupId: c.otherGroup.id,
      userId: c.associateDirector.id,
      designation: 'Assistant Director',
      from: '2025-01-01',
    });
    const res = await c.app.inject({ url: `/api/groups/${c.otherGroup.id}`, headers: await c.as('associateDirector') });
    expect(res.statusCode).toBe(403);
    expect(
      (await c.app.inject({ url: `/api/groups/id/${c.otherGroup.id}`, headers: await c.as('associateDirector') }))
        .statusCode,
    ).toBe(403);
  });
});
