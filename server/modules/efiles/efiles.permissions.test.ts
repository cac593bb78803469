import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { users } from '#server/db/schema/index.ts';

import { aHead, app, call, cast, note, ok, open, receive, send, view } from './efiles.test-helpers.ts';

// Who sees and who does what (efiles.policy.ts, decision 107): each role, an outsider, a copy holder, a demoted head.

const codeOf = (res: { json: () => unknown }) => (res.json() as { code: string }).code;
const listed = async (user: Parameters<typeof call>[1], box: string, id: string) =>
  ok(await call('GET', user, `/api/efiles?box=${box}`))
    .json()
    .files.some((f: { _id: string }) => f._id === id);
const found = async (user: Parameters<typeof call>[1], q: string, id: string) =>
  ok(await call('GET', user, `/api/efiles/search?q=${encodeURIComponent(q)}`))
    .json()
    .some((f: { _id: string }) => f._id === id);

describe('who sees an e-file', () => {
  it('is its participants, the owner group head, directors and admins; nobody else in view, list or search', async () => {
    const c = await cast();
    const file = await open(c.employee, { subject: 'Sprinkler tender evaluation' });
    ok(await call('POST', c.employee, `/api/efiles/${file._id}/notes`, note('Quotations compared kesari.')), 201);
    for (const who of [c.employee, c.gh, c.director, c.admin]) ok(await view(who, file._id));
    for (const who of [c.outsider, c.colleague]) {
      const res = await view(who, file._id);
      expect(res.statusCode).toBe(404);
      expect(codeOf(res)).toBe('efiles.not_found');
      expect(await found(who, 'kesari', file._id)).toBe(false);
      expect((await call('GET', who, `/api/efiles/${file._id}/movements`)).statusCode).toBe(404);
    }
    // The search reads number, subject and note text within what each may see.
    expect(await found(c.gh, 'kesari', file._id)).toBe(true);
    expect(await found(c.director, 'sprinkler tender', file._id)).toBe(true);
    expect(await found(c.admin, file.number, file._id)).toBe(true);
    expect(await listed(c.employee, 'with_me', file._id)).toBe(true);
    expect(await listed(c.employee, 'created', file._id)).toBe(true);
    ok(await call('GET', null, '/api/efiles'), 401);
  });

  it('gives a copy holder a read-only view', async () => {
    const c = await cast();
    const file = await open(c.employee);
    ok(await send(c.employee, file._id, c.gh.id, { copies: [c.outsider.id] }));
    const seen = ok(await view(c.outsider, file._id)).json();
    expect(seen.can).toMatchObject({ act: false, copyOnly: true, receive: false });
    expect(await listed(c.outsider, 'copies', file._id)).toBe(true);
    const res = await call('POST', c.outsider, `/api/efiles/${file._id}/notes`, note('Noted.'));
    expect([res.statusCode, codeOf(res)]).toEqual([403, 'efiles.copy_only']);
    ok(await call('POST', c.outsider, `/api/efiles/${file._id}/seen`));
  });

  it('loses a demoted head the files of the group at the next request', async () => {
    const c = await cast();
    const file = await open(c.employee);
    ok(await view(c.gh, file._id));
    await app.db.update(users).set({ role: 'employee' }).where(eq(users.id, c.gh.id));
    expect((await view(c.gh, file._id)).statusCode).toBe(404);
    expect(await found(c.gh, file.number, file._id)).toBe(false);
  });
});

describe('who does what with an e-file', () => {
  it('lets only the holder act, once received', async () => {
    const c = await cast();
    const file = await open(c.employee);
    ok(await send(c.employee, file._id, c.gh.id));
    let res = await call('POST', c.employee, `/api/efiles/${file._id}/notes`, note('More.'));
    expect([res.statusCode, codeOf(res)]).toEqual([403, 'efiles.not_holder']);
    res = await call('POST', c.gh, `/api/efiles/${file._id}/park`, {});
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'efiles.receive_first']);
    res = await receive(c.employee, file._id);
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'efiles.nothing_to_receive']);
    ok(await receive(c.gh, file._id));
    res = await receive(c.gh, file._id);
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'efiles.nothing_to_receive']);
    ok(await call('POST', c.gh, `/api/efiles/${file._id}/park`, {}));
    expect(await listed(c.gh, 'parked', file._id)).toBe(true);
    res = await send(c.gh, file._id, c.director.id);
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'efiles.parked']);
    ok(await call('POST', c.gh, `/api/efiles/${file._id}/resume`, {}));
    res = await call('POST', c.gh, `/api/efiles/${file._id}/resume`, {});
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'efiles.not_parked']);
  });

  it('lets the sender pull back until the recipient opens it', async () => {
    const c = await cast();
    const file = await open(c.employee);
    ok(await send(c.employee, file._id, c.gh.id));
    expect(await listed(c.employee, 'sent', file._id)).toBe(true);
    let res = await call('POST', c.director, `/api/efiles/${file._id}/pull-back`);
    expect([res.statusCode, codeOf(res)]).toEqual([403, 'efiles.pull_back_forbidden']);
    ok(await call('POST', c.employee, `/api/efiles/${file._id}/pull-back`));
    expect(await listed(c.employee, 'with_me', file._id)).toBe(true);
    ok(await send(c.employee, file._id, c.gh.id));
    ok(await view(c.gh, file._id)); // opened
    res = await call('POST', c.employee, `/api/efiles/${file._id}/pull-back`);
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'efiles.pull_back_too_late']);
    expect((res.json() as { message: string }).message).toContain('Dr Mehta');
  });

  it('lets only the creator or the owner group head close and reopen', async () => {
    const c = await cast();
    const file = await open(c.employee);
    ok(await send(c.employee, file._id, c.colleague.id));
    ok(await receive(c.colleague, file._id));
    let res = await call('POST', c.colleague, `/api/efiles/${file._id}/close`, {});
    expect([res.statusCode, codeOf(res)]).toEqual([403, 'efiles.close_forbidden']);
    res = await call('POST', c.employee, `/api/efiles/${file._id}/close`, {});
    expect([res.statusCode, codeOf(res)]).toEqual([403, 'efiles.not_holder']);
    ok(await send(c.colleague, file._id, c.gh.id));
    ok(await receive(c.gh, file._id));
    ok(await call('POST', c.gh, `/api/efiles/${file._id}/close`, {}));
    res = await call('POST', c.gh, `/api/efiles/${file._id}/close`, {});
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'efiles.closed']);
    expect(await listed(c.colleague, 'closed', file._id)).toBe(true);
    res = await call('POST', c.colleague, `/api/efiles/${file._id}/reopen`, {});
    expect([res.statusCode, codeOf(res)]).toEqual([403, 'efiles.close_forbidden']);
    ok(await call('POST', c.employee, `/api/efiles/${file._id}/reopen`, {}));
    res = await call('POST', c.employee, `/api/efiles/${file._id}/reopen`, {});
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'efiles.not_closed']);
  });

  it('returns to the last sender, and refuses when nobody sent it', async () => {
    const c = await cast();
    const file = await open(c.employee);
    let res = await call('POST', c.employee, `/api/efiles/${file._id}/return`, {});
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'efiles.nobody_to_return']);
    ok(await send(c.employee, file._id, c.gh.id));
    ok(await receive(c.gh, file._id));
    ok(await call('POST', c.gh, `/api/efiles/${file._id}/return`, { remarks: 'Please revise' }));
    expect(await listed(c.employee, 'with_me', file._id)).toBe(true);
    res = await send(c.employee, file._id, c.employee.id);
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'efiles.receive_first']);
  });

  it('keeps the numbering scheme and the heads to admins, and files to their own group', async () => {
    const c = await cast();
    let res = await call('PUT', c.director, '/api/efiles/settings', {
      numberScheme: '{group}/{year}/{serial}',
      labCode: 'CFEES',
    });
    expect([res.statusCode, codeOf(res)]).toEqual([403, 'efiles.settings_forbidden']);
    res = await call('POST', c.employee, '/api/efiles/heads', { code: 'FIN', name: 'Finance' });
    expect([res.statusCode, codeOf(res)]).toEqual([403, 'efiles.settings_forbidden']);
    ok(await call('POST', c.admin, '/api/efiles/heads', { code: 'FIN', name: 'Finance' }), 201);
    res = await call('POST', c.admin, '/api/efiles/heads', { code: 'fin', name: 'Finance again' });
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'efiles.head_code_taken']);
    const other = await cast();
    res = await call('POST', c.employee, '/api/efiles', {
      subject: 'x',
      headId: (await aHead()).id,
      ownerGroupId: other.group.id,
    });
    expect([res.statusCode, codeOf(res)]).toEqual([403, 'efiles.create_other_group']);
    expect((await call('GET', c.employee, '/api/efiles/heads')).statusCode).toBe(200);
    ok(
      await call('PUT', c.admin, '/api/efiles/settings', {
        numberScheme: '{lab}-{group}-{year}-{serial}',
        labCode: 'CFEES',
      }),
    );
    const renamed = await open(c.employee);
    expect(renamed.number).toMatch(/^CFEES-FSG[A-Z0-9]*-\d{4}-\d{4}$/);
    ok(
      await call('PUT', c.admin, '/api/efiles/settings', {
        numberScheme: '{lab}/{group}/{head}/{year}/{serial}',
        labCode: 'LAB',
      }),
    );
  });
});
