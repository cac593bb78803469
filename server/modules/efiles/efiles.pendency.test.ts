import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { users } from '#server/db/schema/index.ts';

import { app, call, cast, ok, open, receive, send, type Who } from './efiles.test-helpers.ts';

// Pendency of e-files (decision 121), beside the dak's and under its rule: per officer, the files with them now — in
// transit, parked, past due — and those they closed in the period.

type Officer = {
  officer: { _id: string };
  held: number;
  inTransit: number;
  parked: number;
  overdue: number;
  closed: number;
};
const pendencyOf = async (user: Who, query = '') =>
  ok(await call('GET', user, `/api/efiles/pendency${query}`)).json() as {
    group: { _id: string } | null;
    officers: Officer[];
  };
const row = (report: { officers: Officer[] }, id: string) => {
  const found = report.officers.find((o) => o.officer._id === id);
  return (
    found && {
      held: found.held,
      inTransit: found.inTransit,
      parked: found.parked,
      overdue: found.overdue,
      closed: found.closed,
    }
  );
};

async function busyGroup() {
  const c = await cast();
  const inTransit = await open(c.employee, { ownerGroupId: c.group.id });
  ok(await send(c.employee, inTransit._id, c.gh.id));
  const overdue = await open(c.employee, { ownerGroupId: c.group.id });
  ok(await send(c.employee, overdue._id, c.gh.id, { dueDate: '2099-01-01' }));
  ok(await receive(c.gh, overdue._id));
  // Its due date has passed since (a due date in the past cannot be given).
  await app.db.execute(sql`update efile_movements set due_date = '2026-01-05' where efile_id = ${overdue._id}
    and kind = 'sent'`);
  const parked = await open(c.gh, { ownerGroupId: c.group.id });
  ok(await call('POST', c.gh, `/api/efiles/${parked._id}/park`, {}));
  const closed = await open(c.employee, { ownerGroupId: c.group.id });
  ok(await call('POST', c.employee, `/api/efiles/${closed._id}/close`, {}));
  await open(c.employee, { ownerGroupId: c.group.id });
  return c;
}

describe('pendency of e-files', () => {
  it('counts per officer the files with them, in transit, parked, past due, and closed in the period', async () => {
    const c = await busyGroup();
    const report = await pendencyOf(c.director, `?groupId=${c.group.id}`);
    expect(report.group?._id).toBe(c.group.id);
    expect(row(report, c.gh.id)).toEqual({ held: 3, inTransit: 1, parked: 1, overdue: 1, closed: 0 });
    expect(row(report, c.employee.id)).toEqual({ held: 1, inTransit: 0, parked: 0, overdue: 0, closed: 1 });
    expect(row(report, c.outsider.id)).toBeUndefined();
    // The whole lab for a director or an admin; a period before the closing counts no closing.
    expect(row(await pendencyOf(c.admin), c.gh.id)).toMatchObject({ held: 3 });
    const before = await pendencyOf(c.director, `?groupId=${c.group.id}&from=2026-01-01&to=2026-01-31`);
    expect(row(before, c.employee.id)).toMatchObject({ held: 1, closed: 0 });
  });

  it("is an associate director's for their own group, without Confidential and Secret files unless cleared", async () => {
    const c = await busyGroup();
    await app.db.update(users).set({ classifiedClearance: true }).where(eq(users.id, c.colleague.id));
    const secret = await open(c.director, { classification: 'Confidential', ownerGroupId: c.group.id });
    ok(await send(c.director, secret._id, c.colleague.id));
    const own = await pendencyOf(c.gh);
    expect(own.group?._id).toBe(c.group.id);
    expect(row(own, c.gh.id)).toMatchObject({ held: 3 });
    expect(row(own, c.colleague.id)).toBeUndefined();
    expect(row(await pendencyOf(c.director, `?groupId=${c.group.id}`), c.colleague.id)).toMatchObject({
      held: 1,
      inTransit: 1,
    });
    await app.db.update(users).set({ classifiedClearance: true }).where(eq(users.id, c.gh.id));
    expect(row(await pendencyOf(c.gh), c.colleague.id)).toMatchObject({ held: 1 });
  });

  it('is refused to others, and to an associate director for another group', async () => {
    const c = await cast();
    const other = await cast();
    let res = await call('GET', c.gh, `/api/efiles/pendency?groupId=${other.group.id}`);
    expect([res.statusCode, res.json().message]).toEqual([403, 'You may see the pendency of your own group only.']);
    for (const who of [c.employee, c.outsider]) {
      res = await call('GET', who, '/api/efiles/pendency');
      expect([res.statusCode, res.json().message]).toEqual([
        403,
        'Only directors, administrators and associate directors may see pendency.',
      ]);
    }
    expect((await call('GET', null, '/api/efiles/pendency')).statusCode).toBe(401);
  });

  it.each([
    ['?from=2026-12-07&to=2026-12-01', 'From cannot be after To.', 'from'],
    ['?from=yesterday', 'From must be a valid date.', 'from'],
    ['?to=2026-02-30', 'To must be a valid date.', 'to'],
    ['?groupId=x', undefined, 'groupId'],
    ['?groupId=00000000-0000-4000-8000-000000000000', undefined, 'groupId'],
  ])('refuses %s with a 400', async (query, message, field) => {
    const c = await cast();
    const res = await call('GET', c.director, `/api/efiles/pendency${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().field).toBe(field);
    if (message) expect(res.json().message).toBe(message);
  });
});
