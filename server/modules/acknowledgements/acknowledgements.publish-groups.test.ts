import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { todayInIndia } from '#shared/format.ts';

import { acknowledgementRequests, acknowledgements, labItems, notifications, users } from '#server/db/schema/index.ts';
import { createUser } from '#server/test/factories.ts';

import { sendAcknowledgementReminders } from './acknowledgements.reminders.ts';
import {
  audienceOf,
  type Cast,
  cast,
  dayFromToday,
  ids,
  publishToAB,
  rowOf,
  send,
} from './acknowledgements.test-helpers.ts';

// Publishing a group notice that must be acknowledged (decision 073), and the joiners of an audience.

describe('publishing a group notice that must be acknowledged', () => {
  const url = (c: Cast) => `/api/groups/${c.groupA.id}/notices`;
  const fields = (over: Record<string, string> = {}) => ({
    name: 'Lab coats',
    description: 'Wear them',
    requiresAcknowledgement: 'true',
    acknowledgeBy: dayFromToday(4),
    ...over,
  });

  it("asks the group's own members by default (the head publishing it is not asked), shown on the group page", async () => {
    const c = await cast();
    const res = await send(c, c.headA, 'POST', url(c), fields());
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().acknowledgement.audience).toEqual({
      scope: 'groups',
      groups: [{ _id: c.groupA.id, name: c.groupA.name }],
      roles: [],
    });
    expect((await audienceOf(c, res.json().acknowledgement._id)).map((r) => r.userId)).toEqual(ids(c.a1, c.a2));
    const page = (await c.app.inject({ url: `/api/groups/id/${c.groupA.id}`, headers: await c.as(c.a1) })).json();
    expect(page.notices[0].acknowledgement).toEqual(res.json().acknowledgement);
    const list = await c.app.inject({ url: `/api/groups/id/${c.groupA.id}`, headers: await c.as(c.admin) });
    expect(list.json().notices[0].acknowledgement._id).toBe(res.json().acknowledgement._id);
  });

  it('asks some roles within the group', async () => {
    const c = await cast();
    const res = await send(
      c,
      c.admin,
      'POST',
      url(c),
      fields({ audienceScope: 'roles', audienceRoles: '["associate_director"]' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().acknowledgement.audience).toEqual({
      scope: 'roles',
      groups: [{ _id: c.groupA.id, name: c.groupA.name }],
      roles: ['associate_director'],
    });
    expect((await audienceOf(c, res.json().acknowledgement._id)).map((r) => r.userId)).toEqual([c.headA.id]);
  });

  it.each<[string, Record<string, string>, string]>([
    ['the whole lab', { audienceScope: 'lab' }, 'audienceScope'],
    ['another group', { audienceScope: 'groups', audienceGroups: 'B' }, 'audienceGroups'],
  ])('refuses %s as the audience of a group notice', async (_, over, field) => {
    const c = await cast();
    const extra: Record<string, string> = over.audienceGroups
      ? { audienceGroups: JSON.stringify([c.groupA.id, c.groupB.id]) }
      : {};
    const res = await send(c, c.headA, 'POST', url(c), fields({ ...over, ...extra }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'acknowledgements.audience_outside_group',
      message: "A group's notice or circular can only ask its own group's members to acknowledge it.",
      field,
    });
  });

  it('refuses the fields to those who may not publish the notice', async () => {
    const c = await cast();
    for (const [who, status] of [
      [null, 401],
      [c.a1, 403],
      [c.director, 403],
      [c.headC, 403],
    ] as const) {
      expect((await send(c, who, 'POST', url(c), fields())).statusCode).toBe(status);
    }
  });

  it('keeps the request through an edit, refuses a change, and deletes it with the notice', async () => {
    const c = await cast();
    const item = (await send(c, c.headA, 'POST', url(c), fields())).json();
    const itemUrl = `${url(c)}/${item._id}`;
    const same = await send(c, c.headA, 'PUT', itemUrl, fields({ name: 'Lab coats, always' }), false);
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().acknowledgement).toEqual(item.acknowledgement);
    const changed = await send(c, c.headA, 'PUT', itemUrl, fields({ acknowledgeBy: dayFromToday(6) }), false);
    expect(changed.statusCode).toBe(409);
    const del = await c.app.inject({ method: 'DELETE', url: itemUrl, headers: await c.as(c.headA) });
    expect(del.statusCode).toBe(200);
    expect(await audienceOf(c, item.acknowledgement._id)).toEqual([]);
  });
});

describe('joiners (decision 073)', () => {
  it('adds a person who moves into an audience group, due the day they join plus the span', async () => {
    const c = await cast();
    const item = await publishToAB(c, dayFromToday(7));
    // As if published four days ago with a week to go: three days remain for the others, a week for a joiner.
    await c.app.db
      .update(acknowledgementRequests)
      .set({ deadline: dayFromToday(3) })
      .where(eq(acknowledgementRequests.id, item.acknowledgement._id));
    await c.app.db.update(users).set({ groupId: c.groupA.id }).where(eq(users.id, c.c1.id));
    expect(await rowOf(c, item.acknowledgement._id, c.c1)).toMatchObject({
      dueOn: dayFromToday(7),
      groupId: c.groupA.id,
      acknowledgedAt: null,
    });
    // Moving on to another audience group changes nothing: they are in the audience already.
    await c.app.db.update(users).set({ groupId: c.groupB.id }).where(eq(users.id, c.c1.id));
    expect(await rowOf(c, item.acknowledgement._id, c.c1)).toMatchObject({ groupId: c.groupA.id });
  });

  it('adds people approved later and new accounts of an audience group; never pending or rejected ones', async () => {
    const c = await cast();
    const item = await publishToAB(c);
    const fresh = await createUser(c.app, 'employee', { groupId: c.groupB.id });
    const waiting = await createUser(c.app, 'employee', { groupId: c.groupB.id, status: 'pending' });
    expect(await rowOf(c, item.acknowledgement._id, fresh)).toMatchObject({ dueOn: dayFromToday(7) });
    expect(await rowOf(c, item.acknowledgement._id, waiting)).toBeUndefined();
    await c.app.db.update(users).set({ status: 'approved' }).where(eq(users.id, waiting.id));
    expect(await rowOf(c, item.acknowledgement._id, waiting)).toBeDefined();
  });

  it('leaves out people outside the audience and notices no longer current', async () => {
    const c = await cast();
    const item = await publishToAB(c);
    const expired = await publishToAB(c, dayFromToday(7), 'Old circular');
    await c.app.db
      .update(labItems)
      .set({ validUntil: dayFromToday(-1) })
      .where(eq(labItems.id, expired._id));
    const newcomer = await createUser(c.app, 'employee', { groupId: c.groupA.id });
    expect(await rowOf(c, item.acknowledgement._id, newcomer)).toBeDefined();
    expect(await rowOf(c, expired.acknowledgement._id, newcomer)).toBeUndefined();
    const elsewhere = await createUser(c.app, 'employee', { groupId: c.groupC.id });
    expect(await rowOf(c, item.acknowledgement._id, elsewhere)).toBeUndefined();
  });

  it("takes away a deactivated person's pending rows and their reminders, keeping what they acknowledged", async () => {
    const c = await cast();
    const one = await publishToAB(c, dayFromToday(1));
    const two = await publishToAB(c, dayFromToday(1), 'Second');
    await c.app.db
      .update(acknowledgements)
      .set({ openedAt: sql`now()`, acknowledgedAt: sql`now()` })
      .where(and(eq(acknowledgements.requestId, two.acknowledgement._id), eq(acknowledgements.userId, c.a2.id)));
    await sendAcknowledgementReminders(c.app.db, { today: todayInIndia(), days: 2 });
    await c.app.db.update(users).set({ status: 'deactivated' }).where(eq(users.id, c.a2.id));
    expect(await rowOf(c, one.acknowledgement._id, c.a2)).toBeUndefined();
    expect(await rowOf(c, two.acknowledgement._id, c.a2)).toMatchObject({ acknowledgedAt: expect.any(Date) });
    // Its reminders go; the notice of the publishing of the one acknowledged stays (the bell shows it no more).
    expect(
      await c.app.db
        .select()
        .from(notifications)
        .where(
          and(
            eq(notifications.userId, c.a2.id),
            inArray(notifications.kind, ['acknowledgement_due', 'acknowledgement_overdue']),
          ),
        ),
    ).toEqual([]);
  });
});
