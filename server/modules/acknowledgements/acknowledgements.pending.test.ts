import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { todayInIndia } from '#shared/format.ts';

import type { Database } from '#server/db/client.ts';
import { auditEvents, notifications } from '#server/db/schema/index.ts';
import { startBackgroundJobs } from '#server/jobs/job-queue.ts';

import { acknowledgementJobs, sendAcknowledgementReminders } from './acknowledgements.reminders.ts';
import {
  acknowledgeAs,
  call,
  cast,
  dayFromToday,
  overdue,
  publishToAB,
  rowOf,
} from './acknowledgements.test-helpers.ts';

// Who has not acknowledged (decision 074): the list by group, the CSV export, and the reminders under the bell.

describe('GET /api/acknowledgement-requests/{id}/pending', () => {
  it('lists who has not acknowledged, overdue first, with their group; paged; narrowed by ?group', async () => {
    const c = await cast();
    const item = await publishToAB(c);
    const id = item.acknowledgement._id;
    await acknowledgeAs(c, id, c.a2);
    await overdue(c, id, c.b1);
    const res = await call(c, c.admin, 'GET', `/api/acknowledgement-requests/${id}/pending`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-total-count']).toBe('3');
    const people = res.json();
    expect(people.map((p: { user: { name: string } }) => p.user.name)).toEqual([
      'Chetan Beta',
      'Anil Alpha',
      'Hema Head',
    ]);
    expect(people[0]).toEqual({
      _id: (await rowOf(c, id, c.b1))!.id,
      user: { _id: c.b1.id, name: 'Chetan Beta', email: c.b1.email, designation: "Scientist 'C'" },
      group: { _id: c.groupB.id, name: c.groupB.name },
      dueOn: dayFromToday(-2),
      overdue: true,
      openedAt: null,
    });
    const page = await call(c, c.director, 'GET', `/api/acknowledgement-requests/${id}/pending?limit=1&offset=1`);
    expect(page.json().map((p: { user: { name: string } }) => p.user.name)).toEqual(['Anil Alpha']);
    expect(page.headers.link).toContain('offset=2');
    const onlyA = await call(c, c.admin, 'GET', `/api/acknowledgement-requests/${id}/pending?group=${c.groupA.id}`);
    expect(onlyA.json().map((p: { user: { _id: string } }) => p.user._id)).toEqual([c.a1.id, c.headA.id]);
  });

  it("gives a group head their group's people only, and refuses them another group (403, coded)", async () => {
    const c = await cast();
    const item = await publishToAB(c);
    const id = item.acknowledgement._id;
    const own = (await call(c, c.headA, 'GET', `/api/acknowledgement-requests/${id}/pending`)).json();
    expect(own.map((p: { user: { _id: string } }) => p.user._id).sort()).toEqual([c.a1.id, c.a2.id, c.headA.id].sort());
    const other = await call(c, c.headA, 'GET', `/api/acknowledgement-requests/${id}/pending?group=${c.groupB.id}`);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({
      code: 'acknowledgements.report_group_denied',
      message: 'You may see only your own group in this report.',
    });
    for (const who of [c.a1, c.loner, c.headC]) {
      const res = await call(c, who, 'GET', `/api/acknowledgement-requests/${id}/pending`);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'acknowledgements.report_denied' });
    }
    const bad = await call(c, c.admin, 'GET', `/api/acknowledgement-requests/${id}/pending?group=Alpha`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'acknowledgements.group_invalid',
      message: "Please choose one of the report's groups.",
      field: 'group',
    });
  });
});

describe('GET /api/acknowledgement-requests/{id}/export.csv', () => {
  it('exports everyone of the part the reader sees, with status and IST times, recorded in the audit trail', async () => {
    const c = await cast();
    const item = await publishToAB(c);
    const id = item.acknowledgement._id;
    await acknowledgeAs(c, id, c.a1);
    await overdue(c, id, c.b1);
    const res = await call(c, c.admin, 'GET', `/api/acknowledgement-requests/${id}/export.csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('attachment');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Name,Email,Designation,Group,Status,Due on,Added on,Opened at,Acknowledged at');
    expect(lines).toHaveLength(5);
    const anil = lines.find((l) => l.startsWith('Anil Alpha'))!;
    expect(anil).toMatch(/,Acknowledged,/);
    expect(anil).toMatch(/\d{1,2}\s\w{3}\s\d{4},\s\d{1,2}:\d{2}\s(am|pm)/);
    expect(lines.find((l) => l.startsWith('Chetan Beta'))).toMatch(/,Overdue,/);
    expect(lines.find((l) => l.startsWith('Bela Alpha'))).toMatch(/,Pending,/);
    const audit = await c.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'exported'), eq(auditEvents.objectId, id)));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: c.admin.id, objectType: 'acknowledgement-request', outcome: 'success' });
    const head = await call(c, c.headA, 'GET', `/api/acknowledgement-requests/${id}/export.csv`);
    expect(head.body.trim().split('\r\n')).toHaveLength(4);
    expect(head.body).not.toContain('Chetan Beta');
    for (const who of [c.b1, c.loner, c.headC]) {
      const res = await call(c, who, 'GET', `/api/acknowledgement-requests/${id}/export.csv`);
      expect(res.statusCode).toBe(403);
    }
  });
});

describe('reminders (decision 074)', () => {
  it('tells each pending person once, N days before and the day after the deadline, under the bell', async () => {
    const c = await cast();
    const today = todayInIndia();
    const item = await publishToAB(c, dayFromToday(5));
    const id = item.acknowledgement._id;
    await acknowledgeAs(c, id, c.a2);
    const mine = () =>
      c.app.db
        .select({ kind: notifications.kind, userId: notifications.userId })
        .from(notifications)
        .where(
          and(
            inArray(notifications.userId, [c.a1.id, c.a2.id, c.b1.id, c.headA.id]),
            inArray(notifications.kind, ['acknowledgement_due', 'acknowledgement_overdue']),
          ),
        );
    // Four days before: nothing yet (ACK_REMINDER_DAYS 2).
    await sendAcknowledgementReminders(c.app.db, { today: dayFromToday(1, today), days: 2 });
    expect(await mine()).toEqual([]);
    // Two days before: "due" for the three still pending.
    await sendAcknowledgementReminders(c.app.db, { today: dayFromToday(3, today), days: 2 });
    await sendAcknowledgementReminders(c.app.db, { today: dayFromToday(4, today), days: 2 });
    expect((await mine()).map((n) => n.kind)).toEqual(Array(3).fill('acknowledgement_due'));
    // On the deadline nothing more; the day after, "overdue", once.
    await sendAcknowledgementReminders(c.app.db, { today: dayFromToday(5, today), days: 2 });
    expect(await mine()).toHaveLength(3);
    await acknowledgeAs(c, id, c.headA);
    await sendAcknowledgementReminders(c.app.db, { today: dayFromToday(6, today), days: 2 });
    await sendAcknowledgementReminders(c.app.db, { today: dayFromToday(7, today), days: 2 });
    const all = await mine();
    expect(
      all
        .filter((n) => n.kind === 'acknowledgement_overdue')
        .map((n) => n.userId)
        .sort(),
    ).toEqual([c.a1.id, c.b1.id].sort());
    // The bell shows them with the document; acknowledging hides the reminders of that row.
    const bell = (await call(c, c.a1, 'GET', '/api/notifications')).json();
    const lab = (await c.app.inject({ url: `/api/labs/${c.labId}` })).json();
    // With the notice of its publishing (decision 081).
    expect(bell.notifications.map((n: { kind: string }) => n.kind).sort()).toEqual([
      'acknowledgement_due',
      'acknowledgement_overdue',
      'acknowledgement_requested',
    ]);
    expect(bell.notifications[0]).toMatchObject({
      subject: { type: 'acknowledgement', ref: lab.name, title: 'Explosives storage' },
      actor: { _id: c.admin.id, name: 'Asha Admin' },
    });
    await acknowledgeAs(c, id, c.a1);
    expect((await call(c, c.a1, 'GET', '/api/notifications/count')).json()).toEqual({ unread: 0 });
  });

  it('runs as a background job of the node (pg-boss): queued at start, it makes the due reminders', async () => {
    const c = await cast();
    const item = await publishToAB(c, dayFromToday(1));
    const pool = c.app.pgPool as unknown as { options: { connectionString: string } };
    const database = {
      db: c.app.db,
      pool: c.app.pgPool,
      url: pool.options.connectionString,
      kind: c.app.dbKind,
      close: async () => {},
    } as unknown as Database;
    const log = { error: () => {}, info: () => {} };
    const jobs = await startBackgroundJobs({ database, store: c.app.storage, config: c.app.config, log }, [
      acknowledgementJobs(),
    ]);
    try {
      const row = (await rowOf(c, item.acknowledgement._id, c.b1))!;
      let made: unknown[] = [];
      for (let i = 0; i < 60 && !made.length; i++) {
        await new Promise((r) => setTimeout(r, 250));
        made = await c.app.db
          .select()
          .from(notifications)
          .where(
            and(
              eq(notifications.sourceId, row.id),
              inArray(notifications.kind, ['acknowledgement_due', 'acknowledgement_overdue']),
            ),
          );
      }
      expect(made).toMatchObject([{ kind: 'acknowledgement_due', userId: c.b1.id }]);
    } finally {
      await jobs.stop();
    }
  });
});
