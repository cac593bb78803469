import { randomUUID } from 'node:crypto';

import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { acknowledgements, activityLogs, auditEvents, type UserRow } from '#server/db/schema/index.ts';

import {
  acknowledgeAs,
  call,
  cast,
  dayFromToday,
  overdue,
  publishToAB,
  rowOf,
  send,
} from './acknowledgements.test-helpers.ts';

// The routes of acknowledgements (decision 074): each person's own list, badge, open and
// acknowledge; the reports (requests, per-group counts, who has not acknowledged, CSV); the reminders.

describe("GET /api/acknowledgements and /count: the person's own", () => {
  it('refuses a visitor', async () => {
    const c = await cast();
    expect((await call(c, null, 'GET', '/api/acknowledgements')).statusCode).toBe(401);
    expect((await call(c, null, 'GET', '/api/acknowledgements/count')).statusCode).toBe(401);
  });

  it('lists what is pending, overdue first then by due date, with the document, and counts it for the badge', async () => {
    const c = await cast();
    await publishToAB(c, dayFromToday(9), 'Later circular');
    await publishToAB(c, dayFromToday(3), 'Sooner circular');
    const late = await publishToAB(c, dayFromToday(5), 'Late circular');
    await overdue(c, late.acknowledgement._id, c.a1);
    const res = await call(c, c.a1, 'GET', '/api/acknowledgements');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    const items = res.json();
    expect(items.map((i: { document: { name: string } }) => i.document.name)).toEqual([
      'Late circular',
      'Sooner circular',
      'Later circular',
    ]);
    const lab = (await c.app.inject({ url: `/api/labs/${c.labId}` })).json();
    expect(items[0]).toEqual({
      _id: (await rowOf(c, late.acknowledgement._id, c.a1))!.id,
      document: {
        _id: late._id,
        kind: 'circular',
        name: 'Late circular',
        description: 'Storage rules for explosives',
        fileUrl: expect.stringMatching(/^\/uploads\/circulars\/[0-9a-f-]{36}$/),
        fileName: 'circular.pdf',
        owner: { type: 'lab', _id: c.labId, name: lab.name },
      },
      dueOn: dayFromToday(-2),
      overdue: true,
      openedAt: null,
      acknowledgedAt: null,
    });
    expect(items[1]).toMatchObject({ dueOn: dayFromToday(3), overdue: false });
    expect((await call(c, c.a1, 'GET', '/api/acknowledgements/count')).json()).toEqual({ pending: 3, overdue: 1 });
    // Paged like the rest of the portal.
    const page = await call(c, c.a1, 'GET', '/api/acknowledgements?limit=2');
    expect(page.json()).toHaveLength(2);
    expect(page.headers.link).toContain('offset=2');
  });

  it('lists acknowledged ones newest first with ?status=acknowledged; someone outside the audience has none', async () => {
    const c = await cast();
    const one = await publishToAB(c, dayFromToday(3), 'One');
    const two = await publishToAB(c, dayFromToday(3), 'Two');
    await acknowledgeAs(c, one.acknowledgement._id, c.b1);
    await acknowledgeAs(c, two.acknowledgement._id, c.b1);
    const done = (await call(c, c.b1, 'GET', '/api/acknowledgements?status=acknowledged')).json();
    expect(done.map((i: { document: { name: string } }) => i.document.name)).toEqual(['Two', 'One']);
    expect(done[0]).toMatchObject({ overdue: false, openedAt: expect.any(String), acknowledgedAt: expect.any(String) });
    expect((await call(c, c.b1, 'GET', '/api/acknowledgements')).json()).toEqual([]);
    expect((await call(c, c.b1, 'GET', '/api/acknowledgements/count')).json()).toEqual({ pending: 0, overdue: 0 });
    expect((await call(c, c.c1, 'GET', '/api/acknowledgements')).json()).toEqual([]);
    expect((await call(c, c.loner, 'GET', '/api/acknowledgements/count')).json()).toEqual({ pending: 0, overdue: 0 });
  });

  it('refuses an unknown status and a bad page (400, coded)', async () => {
    const c = await cast();
    const res = await call(c, c.a1, 'GET', '/api/acknowledgements?status=done');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'acknowledgements.status_invalid',
      message: 'Status must be pending or acknowledged.',
      field: 'status',
    });
    expect((await call(c, c.a1, 'GET', '/api/acknowledgements?limit=0')).statusCode).toBe(400);
  });
});

describe('POST /api/acknowledgements/{id}/open and /acknowledge', () => {
  it("refuses a visitor, and someone else's row as not found", async () => {
    const c = await cast();
    const item = await publishToAB(c);
    const row = (await rowOf(c, item.acknowledgement._id, c.a1))!;
    for (const action of ['open', 'acknowledge']) {
      expect((await call(c, null, 'POST', `/api/acknowledgements/${row.id}/${action}`)).statusCode).toBe(401);
      for (const who of [c.a2, c.admin, c.director, c.headA, c.c1]) {
        const res = await call(c, who, 'POST', `/api/acknowledgements/${row.id}/${action}`);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'acknowledgements.not_found', message: 'Acknowledgement not found.' });
      }
      const unknown = await call(c, c.a1, 'POST', `/api/acknowledgements/${randomUUID()}/${action}`);
      expect(unknown.json()).toMatchObject({ code: 'acknowledgements.not_found' });
      const bad = await call(c, c.a1, 'POST', `/api/acknowledgements/not-an-id/${action}`);
      expect([400, 404]).toContain(bad.statusCode);
      expect(bad.json()).toMatchObject({ code: 'acknowledgements.not_found' });
    }
    expect(await rowOf(c, item.acknowledgement._id, c.a1)).toMatchObject({ openedAt: null, acknowledgedAt: null });
  });

  it('refuses to acknowledge before the document was opened (409, coded)', async () => {
    const c = await cast();
    const item = await publishToAB(c);
    const row = (await rowOf(c, item.acknowledgement._id, c.a1))!;
    const res = await call(c, c.a1, 'POST', `/api/acknowledgements/${row.id}/acknowledge`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'acknowledgements.open_first',
      message: 'Please open the document before acknowledging it.',
    });
  });

  it('opens (first time kept), acknowledges once in the audit trail and the activity log; a repeat answers the first', async () => {
    const c = await cast();
    const item = await publishToAB(c);
    const row = (await rowOf(c, item.acknowledgement._id, c.a1))!;
    expect((await call(c, c.a1, 'POST', `/api/acknowledgements/${row.id}/open`)).statusCode).toBe(204);
    const opened = (await rowOf(c, item.acknowledgement._id, c.a1))!.openedAt;
    expect(opened).toBeInstanceOf(Date);
    expect((await call(c, c.a1, 'POST', `/api/acknowledgements/${row.id}/open`)).statusCode).toBe(204);
    expect((await rowOf(c, item.acknowledgement._id, c.a1))!.openedAt).toEqual(opened);
    const first = await call(c, c.a1, 'POST', `/api/acknowledgements/${row.id}/acknowledge`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ _id: row.id, acknowledgedAt: expect.any(String) });
    const again = await call(c, c.a1, 'POST', `/api/acknowledgements/${row.id}/acknowledge`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const audit = await c.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.actorId, c.a1.id), eq(auditEvents.action, 'acknowledged')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actorName: c.a1.name,
      actorRole: 'employee',
      objectType: 'lab-circular',
      objectId: item._id,
      objectLabel: 'Explosives storage',
      outcome: 'success',
    });
    expect(JSON.parse(audit[0]!.details!)).toMatchObject({ acknowledgement: row.id, late: false });
    const logs = await c.app.db.select().from(activityLogs).where(eq(activityLogs.targetId, row.id));
    expect(logs.map((l) => l.code).sort()).toEqual(['activity.acknowledged', 'activity.acknowledgement_opened']);
  });
});

describe('GET /api/acknowledgement-requests: who may report', () => {
  it('refuses a visitor everywhere', async () => {
    const c = await cast();
    const item = await publishToAB(c);
    const id = item.acknowledgement._id;
    for (const url of [
      '/api/acknowledgement-requests',
      `/api/acknowledgement-requests/${id}`,
      `/api/acknowledgement-requests/${id}/pending`,
      `/api/acknowledgement-requests/${id}/export.csv`,
    ])
      expect((await call(c, null, 'GET', url)).statusCode).toBe(401);
  });

  it('lists to the publisher, directors and admins whole, to a group head their group, to nobody else', async () => {
    const c = await cast();
    const item = await publishToAB(c);
    await acknowledgeAs(c, item.acknowledgement._id, c.a1);
    await overdue(c, item.acknowledgement._id, c.b1);
    const listed = async (who: UserRow) => {
      const res = await call(c, who, 'GET', '/api/acknowledgement-requests?limit=100');
      expect(res.statusCode).toBe(200);
      return res.json().find((r: { _id: string }) => r._id === item.acknowledgement._id);
    };
    for (const who of [c.admin, c.director]) {
      expect(await listed(who)).toMatchObject({
        document: { _id: item._id, kind: 'circular', name: 'Explosives storage' },
        deadline: item.acknowledgement.deadline,
        publishedBy: { _id: c.admin.id, name: 'Asha Admin' },
        onlyGroup: null,
        totals: { audience: 4, acknowledged: 1, pending: 3, overdue: 1 },
      });
    }
    expect(await listed(c.headA)).toMatchObject({
      onlyGroup: { _id: c.groupA.id, name: c.groupA.name },
      totals: { audience: 3, acknowledged: 1, pending: 2, overdue: 0 },
    });
    for (const who of [c.a1, c.b1, c.c1, c.loner, c.headC]) expect(await listed(who)).toBeUndefined();
  });

  it('lists to a group head the circulars they published, whole', async () => {
    const c = await cast();
    const res = await send(c, c.headA, 'POST', `/api/groups/${c.groupA.id}/circulars`, {
      name: 'Group rules',
      description: 'x',
      requiresAcknowledgement: 'true',
      acknowledgeBy: dayFromToday(2),
    });
    const mine = (await call(c, c.headA, 'GET', '/api/acknowledgement-requests')).json();
    expect(mine.find((r: { _id: string }) => r._id === res.json().acknowledgement._id)).toMatchObject({
      onlyGroup: null,
      document: { owner: { type: 'group', _id: c.groupA.id, name: c.groupA.name } },
      totals: { audience: 2, acknowledged: 0, pending: 2, overdue: 0 },
    });
  });

  it('answers the report with per-group counts to those who may see it, and refuses the rest (403, coded)', async () => {
    const c = await cast();
    const item = await publishToAB(c);
    const id = item.acknowledgement._id;
    await acknowledgeAs(c, id, c.a1);
    await acknowledgeAs(c, id, c.a2);
    await acknowledgeAs(c, id, c.headA);
    await overdue(c, id, c.b1);
    const whole = [
      { group: { _id: c.groupA.id, name: c.groupA.name }, acknowledged: 3, pending: 0, overdue: 0 },
      { group: { _id: c.groupB.id, name: c.groupB.name }, acknowledged: 0, pending: 1, overdue: 1 },
    ];
    for (const who of [c.admin, c.director]) {
      const res = await call(c, who, 'GET', `/api/acknowledgement-requests/${id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        _id: id,
        onlyGroup: null,
        groups: whole,
        totals: { audience: 4, acknowledged: 3, pending: 1, overdue: 1 },
      });
    }
    // The head of group A sees 100 % for A, and nothing of B.
    const head = (await call(c, c.headA, 'GET', `/api/acknowledgement-requests/${id}`)).json();
    expect(head.groups).toEqual([whole[0]]);
    expect(head.totals).toEqual({ audience: 3, acknowledged: 3, pending: 0, overdue: 0 });
    for (const who of [c.a1, c.b1, c.c1, c.loner, c.headC]) {
      const res = await call(c, who, 'GET', `/api/acknowledgement-requests/${id}`);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'acknowledgements.report_denied' });
    }
    const unknown = await call(c, c.admin, 'GET', `/api/acknowledgement-requests/${randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({
      code: 'acknowledgements.request_not_found',
      message: 'Acknowledgement request not found.',
    });
  });

  it('puts people in no group on a line of their own', async () => {
    const c = await cast();
    const item = await publishToAB(c);
    await c.app.db
      .update(acknowledgements)
      .set({ groupId: null })
      .where(and(eq(acknowledgements.requestId, item.acknowledgement._id), eq(acknowledgements.userId, c.b1.id)));
    const report = (await call(c, c.admin, 'GET', `/api/acknowledgement-requests/${item.acknowledgement._id}`)).json();
    expect(report.groups.at(-1)).toEqual({ group: null, acknowledged: 0, pending: 1, overdue: 0 });
  });
});
