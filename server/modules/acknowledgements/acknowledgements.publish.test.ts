import { randomUUID } from 'node:crypto';

import { and, count, eq, inArray, ne } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { formatDate, todayInIndia } from '#shared/format.ts';

import {
  acknowledgementRequests,
  acknowledgements,
  activityLogs,
  files,
  labItems,
  notifications,
  users,
} from '#server/db/schema/index.ts';
import { createGroup, createUser } from '#server/test/factories.ts';

import { sendAcknowledgementReminders } from './acknowledgements.reminders.ts';
import {
  audienceOf,
  type Cast,
  cast,
  dayFromToday,
  ids,
  publishToAB,
  send,
  toGroupsAB,
} from './acknowledgements.test-helpers.ts';

// Publishing a notice or circular that must be acknowledged (decision 073): the fields of the lab's
// and the groups' item routes, the audience fixed at publishing, edits and deletes, and joiners.

describe('publishing a lab circular that must be acknowledged', () => {
  it('fixes the audience at publishing: one row per approved member of the chosen groups but the publisher', async () => {
    const c = await cast();
    const deadline = dayFromToday(7);
    const item = await publishToAB(c, deadline);
    expect(item.acknowledgement).toEqual({
      _id: expect.any(String),
      deadline,
      audience: {
        scope: 'groups',
        groups: expect.arrayContaining([
          { _id: c.groupA.id, name: c.groupA.name },
          { _id: c.groupB.id, name: c.groupB.name },
        ]),
        roles: [],
      },
      publishedAt: expect.any(String),
    });
    const rows = await audienceOf(c, item.acknowledgement._id);
    expect(rows.map((r) => r.userId)).toEqual(ids(c.headA, c.a1, c.a2, c.b1));
    expect(new Set(rows.map((r) => r.dueOn))).toEqual(new Set([deadline]));
    expect(rows.find((r) => r.userId === c.b1.id)?.groupId).toBe(c.groupB.id);
    // The lab's record and its documents list show it; the activity log says who was asked.
    const lab = (await c.app.inject({ url: `/api/labs/${c.labId}` })).json();
    expect(lab.circulars.find((i: { _id: string }) => i._id === item._id).acknowledgement).toEqual(
      item.acknowledgement,
    );
    const docs = (await c.app.inject({ url: `/api/labs/${c.labId}/documents` })).json();
    expect(docs.circulars.find((i: { _id: string }) => i._id === item._id).acknowledgement._id).toBe(
      item.acknowledgement._id,
    );
    const [log] = await c.app.db.select().from(activityLogs).where(eq(activityLogs.targetId, item.acknowledgement._id));
    expect(log).toMatchObject({
      userId: c.admin.id,
      code: 'activity.acknowledgement_requested',
      action: `Asked 4 people to acknowledge circular "Explosives storage" by ${formatDate(deadline)}`,
    });
  });

  it('publishes without an acknowledgement when not asked, and ignores the fields on products', async () => {
    const c = await cast();
    const plain = await send(c, c.admin, 'POST', `/api/labs/${c.labId}/notices`, {
      name: 'Canteen timings',
      description: 'From Monday',
    });
    expect(plain.statusCode).toBe(201);
    expect(plain.json().acknowledgement).toBeNull();
    const no = await send(c, c.admin, 'POST', `/api/labs/${c.labId}/notices`, {
      ...toGroupsAB(c),
      requiresAcknowledgement: 'false',
    });
    expect(no.json().acknowledgement).toBeNull();
    const product = await send(c, c.admin, 'POST', `/api/labs/${c.labId}/products`, toGroupsAB(c));
    expect(product.statusCode).toBe(201);
    expect(product.json().acknowledgement).toBeNull();
    const requests = await c.app.db
      .select({ n: count() })
      .from(acknowledgementRequests)
      .where(inArray(acknowledgementRequests.labItemId, [plain.json()._id, no.json()._id, product.json()._id]));
    expect(requests[0]!.n).toBe(0);
  });

  it('asks the whole lab (every approved person but the publisher) by default, and some roles when told', async () => {
    const c = await cast();
    await createUser(c.app, 'employee', { status: 'pending', name: 'Not yet approved' });
    const approved = await c.app.db
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(and(eq(users.status, 'approved'), ne(users.id, c.admin.id)));
    const lab = await send(c, c.admin, 'POST', `/api/labs/${c.labId}/circulars`, {
      name: 'Fire safety week',
      description: 'Everyone',
      requiresAcknowledgement: 'true',
      acknowledgeBy: dayFromToday(3),
    });
    expect(lab.statusCode, lab.body).toBe(201);
    expect(lab.json().acknowledgement.audience).toEqual({ scope: 'lab', groups: [], roles: [] });
    expect((await audienceOf(c, lab.json().acknowledgement._id)).map((r) => r.userId).sort()).toEqual(
      approved.map((u) => u.id).sort(),
    );
    const roles = await send(c, c.admin, 'POST', `/api/labs/${c.labId}/circulars`, {
      name: 'Directors only',
      description: 'Heads and directors',
      requiresAcknowledgement: 'true',
      acknowledgeBy: dayFromToday(3),
      audienceScope: 'roles',
      audienceRoles: JSON.stringify(['director', 'associate_director']),
    });
    expect(roles.statusCode, roles.body).toBe(201);
    expect(roles.json().acknowledgement.audience).toEqual({
      scope: 'roles',
      groups: [],
      roles: ['director', 'associate_director'],
    });
    const chosen = approved.filter((u) => u.role === 'director' || u.role === 'associate_director');
    expect((await audienceOf(c, roles.json().acknowledgement._id)).map((r) => r.userId).sort()).toEqual(
      chosen.map((u) => u.id).sort(),
    );
    // Lab-wide and role-wide requests would take every later test's people as joiners: gone with their items.
    await c.app.db.delete(labItems).where(inArray(labItems.id, [lab.json()._id, roles.json()._id]));
  });

  const invalid: [string, (c: Cast) => Record<string, string>, string, string, string][] = [
    [
      'a requiresAcknowledgement that is not true or false',
      (c) => ({ ...toGroupsAB(c), requiresAcknowledgement: 'yes' }),
      'acknowledgements.requires_invalid',
      'Requires acknowledgement must be true or false.',
      'requiresAcknowledgement',
    ],
    [
      'no deadline',
      (c) => ({ ...toGroupsAB(c), acknowledgeBy: '' }),
      'acknowledgements.deadline_required',
      'Please choose the date by which it must be acknowledged.',
      'acknowledgeBy',
    ],
    [
      'a deadline that is not a date',
      (c) => ({ ...toGroupsAB(c), acknowledgeBy: '2031-02-30' }),
      'acknowledgements.deadline_invalid',
      'The acknowledgement deadline is not a valid date.',
      'acknowledgeBy',
    ],
    [
      'a deadline before today',
      (c) => ({ ...toGroupsAB(c), acknowledgeBy: dayFromToday(-1) }),
      'acknowledgements.deadline_past',
      'The acknowledgement deadline cannot be before today.',
      'acknowledgeBy',
    ],
    [
      'an unknown audience',
      (c) => ({ ...toGroupsAB(c), audienceScope: 'everyone' }),
      'acknowledgements.audience_scope_invalid',
      'Please choose the audience: the whole lab, some groups or some roles.',
      'audienceScope',
    ],
    [
      'groups without any group',
      (c) => ({ ...toGroupsAB(c), audienceGroups: '[]' }),
      'acknowledgements.audience_groups_required',
      'Please choose at least one group.',
      'audienceGroups',
    ],
    [
      'groups that are not JSON',
      (c) => ({ ...toGroupsAB(c), audienceGroups: '[oops' }),
      'acknowledgements.audience_groups_invalid',
      'Please choose groups from the list.',
      'audienceGroups',
    ],
    [
      'a group that is not an id',
      (c) => ({ ...toGroupsAB(c), audienceGroups: '["Alpha"]' }),
      'acknowledgements.audience_groups_invalid',
      'Please choose groups from the list.',
      'audienceGroups',
    ],
    [
      'a group that does not exist',
      (c) => ({ ...toGroupsAB(c), audienceGroups: JSON.stringify([c.groupA.id, randomUUID()]) }),
      'acknowledgements.audience_groups_not_found',
      'Some of the chosen groups do not exist.',
      'audienceGroups',
    ],
    [
      'roles without any role',
      (c) => ({ ...toGroupsAB(c), audienceScope: 'roles', audienceRoles: '[]' }),
      'acknowledgements.audience_roles_required',
      'Please choose at least one role.',
      'audienceRoles',
    ],
    [
      'a role the portal does not have',
      (c) => ({ ...toGroupsAB(c), audienceScope: 'roles', audienceRoles: '["chief"]' }),
      'acknowledgements.audience_roles_invalid',
      'Please choose roles from the list.',
      'audienceRoles',
    ],
  ];

  it.each(invalid)(
    'refuses %s (400, coded), keeping neither item nor file',
    async (_, fields, code, message, field) => {
      const c = await cast();
      const name = `Refused ${randomUUID()}`;
      const before = (await c.app.db.select({ n: count() }).from(files))[0]!.n;
      const res = await send(c, c.admin, 'POST', `/api/labs/${c.labId}/circulars`, { ...fields(c), name });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code, message, field });
      expect(await c.app.db.select().from(labItems).where(eq(labItems.name, name))).toEqual([]);
      expect((await c.app.db.select({ n: count() }).from(files))[0]!.n).toBe(before);
    },
  );

  it("refuses an audience with nobody in it, and says the spec's own message first", async () => {
    const c = await cast();
    const empty = await createGroup(c.app, { name: `Empty ${randomUUID().slice(0, 6)}` });
    const res = await send(c, c.admin, 'POST', `/api/labs/${c.labId}/circulars`, {
      ...toGroupsAB(c),
      audienceGroups: JSON.stringify([empty.id]),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'acknowledgements.audience_empty',
      message: 'Nobody is in this audience. Please choose another.',
      field: 'audienceScope',
    });
    const both = await send(c, c.admin, 'POST', `/api/labs/${c.labId}/circulars`, {
      ...toGroupsAB(c),
      name: ' ',
      acknowledgeBy: '',
    });
    expect(both.json()).toMatchObject({ error: 'All fields are required', field: 'name' });
  });

  it('lets only those who may publish the item publish its request', async () => {
    const c = await cast();
    for (const [who, status] of [
      [null, 401],
      [c.a1, 403],
      [c.director, 403],
      [c.headA, 403],
    ] as const) {
      const res = await send(c, who, 'POST', `/api/labs/${c.labId}/circulars`, toGroupsAB(c));
      expect(res.statusCode).toBe(status);
    }
    expect(await c.app.db.select().from(acknowledgements).where(eq(acknowledgements.userId, c.a1.id))).toEqual([]);
  });

  it('keeps the request through an edit; refuses to change or withdraw it; publishes one asked for on an edit', async () => {
    const c = await cast();
    const item = await publishToAB(c);
    const url = `/api/labs/${c.labId}/circulars/${item._id}`;
    const rowsBefore = await audienceOf(c, item.acknowledgement._id);
    // The same settings sent back, or none: kept.
    const same = await send(c, c.admin, 'PUT', url, { ...toGroupsAB(c), name: 'Explosives storage (revised)' }, false);
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toMatchObject({ name: 'Explosives storage (revised)', acknowledgement: item.acknowledgement });
    const none = await send(c, c.admin, 'PUT', url, { name: 'Explosives storage', description: 'x' }, false);
    expect(none.json().acknowledgement).toEqual(item.acknowledgement);
    expect(await audienceOf(c, item.acknowledgement._id)).toEqual(rowsBefore);
    // A change of deadline or audience, or a withdrawal: 409, nothing changed.
    for (const fields of [
      { ...toGroupsAB(c), acknowledgeBy: dayFromToday(9) },
      { ...toGroupsAB(c), audienceGroups: JSON.stringify([c.groupA.id]) },
      { ...toGroupsAB(c), requiresAcknowledgement: 'false' },
    ]) {
      const res = await send(c, c.admin, 'PUT', url, fields, false);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'acknowledgements.fixed_at_publishing',
        message:
          'The acknowledgement deadline and audience are fixed once published. Delete the notice and publish it again to change them.',
      });
    }
    // Once the deadline has passed, the published settings can still be sent back with an edit.
    await c.app.db
      .update(acknowledgementRequests)
      .set({ deadline: dayFromToday(-2) })
      .where(eq(acknowledgementRequests.id, item.acknowledgement._id));
    const late = await send(c, c.admin, 'PUT', url, { ...toGroupsAB(c, dayFromToday(-2)) }, false);
    expect(late.statusCode, late.body).toBe(200);
    // An item without a request gets one on an edit, if its deadline is not past.
    const plain = await send(c, c.admin, 'POST', `/api/labs/${c.labId}/notices`, { name: 'Later', description: 'x' });
    const plainUrl = `/api/labs/${c.labId}/notices/${plain.json()._id}`;
    const past = await send(c, c.admin, 'PUT', plainUrl, toGroupsAB(c, dayFromToday(-1), 'Later'), false);
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({ code: 'acknowledgements.deadline_past', field: 'acknowledgeBy' });
    const asked = await send(c, c.admin, 'PUT', plainUrl, toGroupsAB(c, dayFromToday(5), 'Later'), false);
    expect(asked.statusCode).toBe(200);
    expect(asked.json().acknowledgement).toMatchObject({ deadline: dayFromToday(5) });
  });

  it('deleting the circular removes its request, rows and reminders: no orphans', async () => {
    const c = await cast();
    const item = await publishToAB(c, dayFromToday(1));
    await sendAcknowledgementReminders(c.app.db, { today: todayInIndia(), days: 2 });
    const rowIds = (await audienceOf(c, item.acknowledgement._id)).length;
    expect(rowIds).toBe(4);
    const reminders = () =>
      c.app.db
        .select({ n: count() })
        .from(notifications)
        .where(
          and(
            inArray(notifications.userId, ids(c.headA, c.a1, c.a2, c.b1)),
            inArray(notifications.kind, ['acknowledgement_due', 'acknowledgement_overdue']),
          ),
        );
    expect((await reminders())[0]!.n).toBe(4);
    const del = await c.app.inject({
      method: 'DELETE',
      url: `/api/labs/${c.labId}/circulars/${item._id}`,
      headers: await c.as(c.admin),
    });
    expect(del.statusCode).toBe(200);
    expect(
      await c.app.db
        .select()
        .from(acknowledgementRequests)
        .where(eq(acknowledgementRequests.id, item.acknowledgement._id)),
    ).toEqual([]);
    expect(await audienceOf(c, item.acknowledgement._id)).toEqual([]);
    expect((await reminders())[0]!.n).toBe(0);
  });
});
