import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { auditEvents, dakDelegations } from '#server/db/schema/index.ts';
import { createUser } from '#server/test/factories.ts';

import {
  addDays,
  app,
  call,
  count,
  inbox,
  logsFor,
  mark,
  movementsOf,
  upload,
} from './letters.movements.test-helpers.ts';

// Delegation of dak (decision 078). An officer (or an admin for them) names a delegate for some
// days; the delegate's inbox then holds the officer's letters, and what they do is recorded on behalf of the officer.

const delegate = (who: Parameters<typeof call>[1], body: unknown) => call('POST', who, '/api/dac/delegations', body);

/** An officer with a letter marked to them, and a delegate for today and tomorrow. */
async function onLeave(delegateValues = {}) {
  const uploader = await createUser(app, 'employee', { name: 'Asha Verma' });
  const officer = await createUser(app, 'associate_director', { name: 'Ravi Rao' });
  const deputy = await createUser(app, 'employee', { name: 'Meera Nair', ...delegateValues });
  const letter = await upload(uploader);
  expect((await mark(uploader, letter._id, { to: [officer.id], remarks: 'Please examine' })).statusCode).toBe(201);
  const res = await delegate(officer, { delegateId: deputy.id, fromDate: addDays(0), toDate: addDays(1) });
  expect(res.statusCode, res.body).toBe(201);
  return { uploader, officer, deputy, letter, delegation: res.json() as { _id: string } };
}

describe('POST /api/dac/delegations', () => {
  it('refuses a visitor', async () => {
    const deputy = await createUser(app);
    expect((await delegate(null, { delegateId: deputy.id, fromDate: addDays(0), toDate: addDays(1) })).statusCode).toBe(
      401,
    );
  });

  it('names a delegate: active today, in the activity log and the audit trail', async () => {
    const { officer, deputy, delegation } = await onLeave();
    const list = (await call('GET', officer, '/api/dac/delegations')).json();
    expect(list.given).toEqual([
      expect.objectContaining({
        _id: delegation._id,
        officer: { _id: officer.id, name: 'Ravi Rao' },
        delegate: { _id: deputy.id, name: 'Meera Nair' },
        active: true,
        createdBy: { _id: officer.id, name: 'Ravi Rao' },
      }),
    ]);
    const mine = (await call('GET', deputy, '/api/dac/delegations')).json();
    expect(mine.received).toHaveLength(1);
    const logs = await logsFor(officer.id);
    expect(logs.map((l) => l.code)).toContain('activity.dak_delegated');
    const audit = await app.db.select().from(auditEvents).where(eq(auditEvents.objectId, officer.id));
    expect(audit.map((a) => a.action)).toContain('delegation_created');
  });

  it('lets an admin name a delegate for an officer; refuses another employee (403)', async () => {
    const admin = await createUser(app, 'admin');
    const officer = await createUser(app, 'associate_director');
    const deputy = await createUser(app);
    const other = await createUser(app);
    const body = { officerId: officer.id, delegateId: deputy.id, fromDate: addDays(1), toDate: addDays(3) };
    const refused = await delegate(other, body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('letters.delegation_forbidden');
    expect((await call('GET', other, `/api/dac/delegations?officerId=${officer.id}`)).statusCode).toBe(403);
    const res = await delegate(admin, body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ active: false, createdBy: { _id: admin.id } });
    const list = (await call('GET', admin, `/api/dac/delegations?officerId=${officer.id}`)).json();
    expect(list.given).toHaveLength(1);
  });

  it('refuses bad input with its message: self, past start, overlap, dates, unapproved delegate', async () => {
    const officer = await createUser(app);
    const deputy = await createUser(app);
    const pending = await createUser(app, 'employee', { status: 'pending' });
    const codeOf = async (body: unknown) => {
      const res = await delegate(officer, body);
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      return res.json().code ?? res.json().errors?.[0]?.code;
    };
    expect(await codeOf({ delegateId: officer.id, fromDate: addDays(0), toDate: addDays(1) })).toBe(
      'letters.delegate_self',
    );
    expect(await codeOf({ delegateId: pending.id, fromDate: addDays(0), toDate: addDays(1) })).toBe(
      'letters.delegate_not_approved',
    );
    expect(await codeOf({ delegateId: deputy.id, fromDate: addDays(-1), toDate: addDays(1) })).toBe(
      'letters.delegation_starts_past',
    );
    const bad = await delegate(officer, { delegateId: deputy.id, fromDate: addDays(2), toDate: addDays(1) });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('To cannot be before From.');
    const junk = await delegate(officer, { delegateId: 'x', fromDate: 'soon', toDate: addDays(1) });
    expect(junk.statusCode).toBe(400);
    expect(junk.body).toContain('Please choose a delegate from the list.');
    expect(
      (await delegate(officer, { delegateId: deputy.id, fromDate: addDays(0), toDate: addDays(5) })).statusCode,
    ).toBe(201);
    const overlap = await delegate(officer, { delegateId: deputy.id, fromDate: addDays(5), toDate: addDays(6) });
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json().code).toBe('letters.delegation_overlaps');
    expect(await app.db.select().from(dakDelegations).where(eq(dakDelegations.officerId, officer.id))).toHaveLength(1);
  });
});

describe('the delegate acts for the officer', () => {
  it('sees the letter in their inbox, receives and closes it on behalf of the officer', async () => {
    const { officer, deputy, letter } = await onLeave();
    const box = await inbox(deputy);
    expect(box.letters.map((l) => l._id)).toContain(letter._id);
    expect(await count(deputy)).toMatchObject({ pending: 1 });
    expect((await call('POST', deputy, `/api/dac/${letter._id}/receive`)).json()).toMatchObject({
      to: { _id: officer.id },
      receivedBy: { _id: deputy.id, name: 'Meera Nair' },
      status: 'received',
    });
    const closed = await call('POST', deputy, `/api/dac/${letter._id}/close`, { disposal: 'Noted and filed' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ outcome: 'closed', endedBy: { _id: deputy.id } });
    const logs = await logsFor(letter._id);
    expect(logs.map((l) => l.action)).toEqual(
      expect.arrayContaining([
        `Received letter ${letter.letterId} on behalf of Ravi Rao`,
        `Closed letter ${letter.letterId} on behalf of Ravi Rao: Noted and filed`,
      ]),
    );
    const history = (await call('GET', deputy, `/api/dac/${letter._id}/movements`)).json();
    expect(history[0]).toMatchObject({ receivedBy: { name: 'Meera Nair' }, endedBy: { name: 'Meera Nair' } });
  });

  it('marks onward and sends back on behalf of the officer', async () => {
    const { officer, deputy, letter } = await onLeave();
    const onward = await createUser(app, 'employee', { name: 'Kavita Das' });
    await call('POST', deputy, `/api/dac/${letter._id}/receive`);
    const res = await mark(deputy, letter._id, { to: [onward.id], remarks: 'Please see' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()[0]).toMatchObject({ from: { _id: officer.id }, markedBy: { _id: deputy.id } });
    expect((await logsFor(letter._id)).map((l) => l.action)).toContain(
      `Marked letter ${letter.letterId} to Kavita Das on behalf of Ravi Rao`,
    );
    // Kavita sends it back: it goes to the officer, whose inbox the delegate still shares.
    await call('POST', onward, `/api/dac/${letter._id}/receive`);
    expect((await call('POST', onward, `/api/dac/${letter._id}/return`, { remarks: 'Not mine' })).statusCode).toBe(200);
    expect((await inbox(deputy)).letters.map((l) => l._id)).toContain(letter._id);
    const back = await call('POST', deputy, `/api/dac/${letter._id}/return`, { remarks: 'To the uploader' });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().find((m: { to: { _id: string } }) => m.to._id === onward.id)).toMatchObject({
      from: { _id: officer.id },
      markedBy: { _id: deputy.id },
    });
  });

  it('does not show a delegate who is not cleared the officer’s Secret letters', async () => {
    const uploader = await createUser(app, 'director');
    const officer = await createUser(app, 'associate_director', { classifiedClearance: true });
    const deputy = await createUser(app);
    const letter = await upload(uploader, { classification: 'Secret' });
    expect((await mark(uploader, letter._id, { to: [officer.id] })).statusCode).toBe(201);
    expect(
      (await delegate(officer, { delegateId: deputy.id, fromDate: addDays(0), toDate: addDays(0) })).statusCode,
    ).toBe(201);
    expect((await inbox(deputy)).letters).toHaveLength(0);
    expect(await count(deputy)).toMatchObject({ pending: 0 });
    expect((await call('POST', deputy, `/api/dac/${letter._id}/receive`)).statusCode).toBe(404);
  });

  it('ends by its date, and when ended early: the delegate no longer sees or acts on the letters', async () => {
    const { officer, deputy, letter, delegation } = await onLeave();
    await app.db
      .update(dakDelegations)
      .set({ fromDate: addDays(-5), toDate: addDays(-1) })
      .where(eq(dakDelegations.id, delegation._id));
    expect((await inbox(deputy)).letters).toHaveLength(0);
    expect((await call('POST', deputy, `/api/dac/${letter._id}/receive`)).statusCode).toBe(404);
    await app.db
      .update(dakDelegations)
      .set({ fromDate: addDays(0), toDate: addDays(1) })
      .where(eq(dakDelegations.id, delegation._id));
    expect((await inbox(deputy)).letters).toHaveLength(1);
    const other = await createUser(app);
    expect((await call('POST', other, `/api/dac/delegations/${delegation._id}/end`)).statusCode).toBe(404);
    const ended = await call('POST', officer, `/api/dac/delegations/${delegation._id}/end`);
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({ active: false });
    expect((await inbox(deputy)).letters).toHaveLength(0);
    const again = await call('POST', officer, `/api/dac/delegations/${delegation._id}/end`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('letters.delegation_already_ended');
    const audit = await app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.objectId, officer.id), eq(auditEvents.action, 'delegation_ended')));
    expect(audit).toHaveLength(1);
  });
});

describe('POST /api/dac/{id}/movements/{movementId}/pull-back', () => {
  it('pulls back an unopened marking; the marker holds the letter again', async () => {
    const uploader = await createUser(app);
    const first = await createUser(app, 'employee', { name: 'Anil Joshi' });
    const second = await createUser(app, 'employee', { name: 'Priya Iyer' });
    const letter = await upload(uploader);
    await mark(uploader, letter._id, { to: [first.id] });
    await call('POST', first, `/api/dac/${letter._id}/receive`);
    const [m] = (await mark(first, letter._id, { to: [second.id] })).json();
    const url = `/api/dac/${letter._id}/movements/${m._id}/pull-back`;
    expect((await call('POST', null, url)).statusCode).toBe(401);
    const stranger = await createUser(app);
    expect((await call('POST', stranger, url)).statusCode).toBe(404);
    const notMarker = await call('POST', uploader, url);
    expect(notMarker.statusCode).toBe(403);
    expect(notMarker.json().code).toBe('letters.pull_back_forbidden');
    const res = await call('POST', first, url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().find((x: { _id: string }) => x._id === m._id)).toMatchObject({
      outcome: 'pulled_back',
      status: 'closed',
    });
    expect((await inbox(second)).letters).toHaveLength(0);
    expect((await inbox(first, '?status=received')).letters.map((l) => l._id)).toContain(letter._id);
    expect((await logsFor(letter._id)).map((l) => l.action)).toContain(
      `Pulled back letter ${letter.letterId} from Priya Iyer`,
    );
    const twice = await call('POST', first, url);
    expect(twice.statusCode).toBe(404);
    expect(twice.json().code).toBe('letters.pull_back_not_found');
  });

  it('refuses once the recipient has opened or received it (409)', async () => {
    const uploader = await createUser(app);
    const officer = await createUser(app, 'employee', { name: 'Vikram Reddy' });
    const letter = await upload(uploader);
    const [m] = (await mark(uploader, letter._id, { to: [officer.id] })).json();
    await call('POST', officer, `/api/dac/${letter._id}/read`);
    const res = await call('POST', uploader, `/api/dac/${letter._id}/movements/${m._id}/pull-back`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'letters.pull_back_received' });
    expect(res.json().message).toContain('Vikram Reddy');
    expect((await movementsOf(letter._id))[0]!.box).toBe('pending');
  });
});

describe('copy to: for action and for information', () => {
  it('sends a copy for information: not held, not counted, seen once; refusals', async () => {
    const uploader = await createUser(app);
    const actor = await createUser(app, 'employee', { name: 'Rahul Singh' });
    const reader = await createUser(app, 'employee', { name: 'Sunita Menon' });
    const letter = await upload(uploader);
    const both = await mark(uploader, letter._id, { to: [actor.id], info: [actor.id] });
    expect(both.statusCode).toBe(400);
    expect(both.body).toContain('The same officer cannot get the letter both for action and for information.');
    const res = await mark(uploader, letter._id, { to: [actor.id], info: [reader.id] });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json() as { to: { _id: string }; forInformation: boolean }[];
    expect(made.find((m) => m.to._id === reader.id)?.forInformation).toBe(true);
    expect(made.find((m) => m.to._id === actor.id)?.forInformation).toBe(false);
    expect(await count(reader)).toMatchObject({ pending: 0 });
    expect((await inbox(reader)).letters).toHaveLength(0);
    expect((await inbox(reader, '?status=info')).letters.map((l) => l._id)).toEqual([letter._id]);
    expect((await inbox(reader, '?status=closed')).letters).toHaveLength(0);
    expect((await call('POST', reader, `/api/dac/${letter._id}/receive`)).statusCode).toBe(403);
    expect((await call('POST', reader, `/api/dac/${letter._id}/close`, { disposal: 'x' })).statusCode).toBe(403);
    const notCopied = await call('POST', actor, `/api/dac/${letter._id}/seen`);
    expect(notCopied.statusCode).toBe(403);
    expect(notCopied.json().code).toBe('letters.not_copied_to_you');
    const seen = await call('POST', reader, `/api/dac/${letter._id}/seen`);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json()[0].readAt).not.toBeNull();
    expect((await logsFor(letter._id)).map((l) => l.action)).toEqual(
      expect.arrayContaining([
        `Sent letter ${letter.letterId} to Sunita Menon for information`,
        `Marked letter ${letter.letterId} seen (for information)`,
      ]),
    );
    // Pendency counts only the officer for action.
    const director = await createUser(app, 'director');
    const report = (await call('GET', director, '/api/dac/pendency')).json();
    const row = (id: string) => report.officers.find((o: { officer: { _id: string } }) => o.officer._id === id);
    expect(row(actor.id)).toMatchObject({ pending: 1, ageing: { upTo7: 1, upTo15: 0, upTo30: 0, over30: 0 } });
    expect(row(reader.id)).toBeUndefined();
  });
});

describe('pendency ageing', () => {
  it('counts held letters by days held, per officer and per group, and in the CSV', async () => {
    const director = await createUser(app, 'director');
    const uploader = await createUser(app);
    const officer = await createUser(app, 'employee', { name: 'Ageing Officer' });
    const ages = [0, 7, 8, 15, 16, 30, 31, 90];
    for (const age of ages) {
      const letter = await upload(uploader);
      const [m] = (await mark(uploader, letter._id, { to: [officer.id] })).json();
      const at = new Date(`${addDays(-age)}T12:00:00+05:30`);
      await app.db.execute(`update letter_movements set marked_at = '${at.toISOString()}' where id = '${m._id}'`);
    }
    const report = (await call('GET', director, '/api/dac/pendency')).json();
    const row = report.officers.find((o: { officer: { _id: string } }) => o.officer._id === officer.id);
    expect(row).toMatchObject({ pending: 8, ageing: { upTo7: 2, upTo15: 2, upTo30: 2, over30: 2 } });
    expect(report.groups[0].ageing).toBeDefined();
    const csv = await call('GET', director, '/api/dac/pendency/export');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Held 0-7 days,Held 8-15 days,Held 16-30 days,Held over 30 days');
    expect(csv.body).toMatch(/Ageing Officer,[^\r\n]*,2,2,2,2\r\n/);
  });
});
