import { describe, expect, it } from 'vitest';

import { call, cast, logsFor, note, ok, open, receive, send, view } from './efiles.test-helpers.ts';

// The life of a file (decision 107): opened and numbered, noted, sent up, a yellow note edited by the senior, returned
// with a note, sent up a changed route, approved, closed by its creator.

describe('an e-file from opening to closing', () => {
  it('numbers, notes, moves and closes a file, each write logged', async () => {
    const c = await cast();
    const file = await open(c.employee, { route: [c.gh.id, c.director.id] });
    expect(file.number).toMatch(/^LAB\/FSG[A-Z0-9]*\/ADM\/\d{4}\/0001$/);
    const second = await open(c.employee);
    expect(second.number.endsWith('/0002')).toBe(true);

    ok(
      await call('POST', c.employee, `/api/efiles/${file._id}/notes`, note('Please see C/1 later. The audit is due.')),
      400,
    );
    ok(await call('POST', c.employee, `/api/efiles/${file._id}/notes`, note('The audit of Building 4 is due.')), 201);
    ok(await send(c.employee, file._id, c.gh.id, { remarks: 'For orders', priority: 'Urgent' }));
    // The bell tells the recipient.
    const bell = await call('GET', c.gh, '/api/notifications');
    expect(bell.json().notifications.map((n: { kind: string }) => n.kind)).toContain('efile_sent');

    // Sent, not yet received: the head must receive before acting; the route moved on.
    let seen = ok(await view(c.gh, file._id)).json();
    expect(seen.inTransit).toBe(true);
    expect(seen.route.map((p: { _id: string }) => p._id)).toEqual([c.director.id]);
    ok(await call('POST', c.gh, `/api/efiles/${file._id}/notes`, note('Agreed.')), 409);
    ok(await receive(c.gh, file._id));
    seen = ok(await view(c.gh, file._id)).json();
    const n1 = seen.notes[0];
    expect(n1).toMatchObject({ ref: 'N/1', permanent: false, canEdit: true, author: { name: 'Asha Verma' } });

    // The senior edits the junior's yellow note; the history keeps the old text.
    ok(await call('PUT', c.gh, `/api/efiles/${file._id}/notes/${n1._id}`, note('The audit of Building 4 is overdue.')));
    const history = ok(await call('GET', c.gh, `/api/efiles/${file._id}/notes/${n1._id}/history`)).json();
    expect(history).toHaveLength(1);
    expect(history[0].body.blocks[0].c[0].text).toBe('The audit of Building 4 is due.');
    ok(await call('POST', c.gh, `/api/efiles/${file._id}/notes`, note('Recommended, see N/1.')), 201);

    ok(await send(c.gh, file._id, c.director.id));
    ok(await receive(c.director, file._id));
    seen = ok(await view(c.director, file._id)).json();
    expect(seen.notes.map((n: { permanent: boolean }) => n.permanent)).toEqual([true, false]);
    // The director may not edit N/1 any more (permanent) but may edit the head's yellow N/2.
    expect(seen.notes.map((n: { canEdit: boolean }) => n.canEdit)).toEqual([false, true]);
    ok(await call('PUT', c.director, `/api/efiles/${file._id}/notes/${seen.notes[0]._id}`, note('x')), 409);

    ok(
      await call('POST', c.director, `/api/efiles/${file._id}/notes`, note('Please get the fire officer’s view.')),
      201,
    );
    ok(await call('POST', c.director, `/api/efiles/${file._id}/return`, { remarks: 'See note' }));
    ok(await receive(c.gh, file._id));
    // Back up along a changed route.
    ok(await call('PUT', c.gh, `/api/efiles/${file._id}/route`, { route: [c.colleague.id, c.director.id] }));
    ok(await send(c.gh, file._id, c.colleague.id));
    ok(await receive(c.colleague, file._id));
    seen = ok(await view(c.colleague, file._id)).json();
    expect(seen.route.map((p: { _id: string }) => p._id)).toEqual([c.director.id]);
    ok(await send(c.colleague, file._id, c.director.id));
    ok(await receive(c.director, file._id));
    ok(await call('POST', c.director, `/api/efiles/${file._id}/notes`, note('Approved.')), 201);
    // Only the creator (or the group head) closes: the director may not, holder or not.
    ok(await call('POST', c.director, `/api/efiles/${file._id}/close`, {}), 403);
    ok(await send(c.director, file._id, c.employee.id));
    ok(await receive(c.employee, file._id));
    ok(await call('POST', c.employee, `/api/efiles/${file._id}/close`, { remarks: 'Done' }));
    seen = ok(await view(c.employee, file._id)).json();
    expect(seen.state).toBe('closed');
    expect(seen.notes.every((n: { permanent: boolean }) => n.permanent)).toBe(true);
    expect(seen.notes.map((n: { ref: string }) => n.ref)).toEqual(['N/1', 'N/2', 'N/3', 'N/4']);

    const moves = ok(await call('GET', c.employee, `/api/efiles/${file._id}/movements`)).json();
    expect(moves.map((m: { kind: string }) => m.kind)).toEqual([
      'created',
      'sent',
      'sent',
      'returned',
      'sent',
      'sent',
      'sent',
      'closed',
    ]);
    // Only a sending is received: the opening and the closing carry no "received" (decision 121).
    for (const m of moves as { kind: string; receivedAt: string | null }[]) {
      expect([m.kind, m.receivedAt !== null]).toEqual([m.kind, m.kind === 'sent' || m.kind === 'returned']);
    }
    const codes = (await logsFor(file._id)).map((l) => l.code);
    for (const code of [
      'activity.efile_created',
      'activity.efile_note_added',
      'activity.efile_note_edited',
      'activity.efile_sent',
      'activity.efile_received',
      'activity.efile_returned',
      'activity.efile_route_changed',
      'activity.efile_closed',
    ]) {
      expect(codes).toContain(code);
    }
    ok(await call('POST', c.employee, `/api/efiles/${file._id}/reopen`, {}));
    expect(ok(await view(c.employee, file._id)).json().state).toBe('open');
    expect((await call('GET', c.employee, '/api/efiles?box=created')).json().files.length).toBeGreaterThanOrEqual(2);
  });
});
