import { existsSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { todayInIndia } from '#shared/format.ts';
import { renamedFilename } from '#shared/schemas/close-group.ts';

import { closeGroupStatus } from './close-groups.policy.ts';
import {
  cast,
  closeGroupBody,
  createCloseGroup,
  dayFromToday,
  fileIdOf,
  upload,
  uploaded,
} from './close-groups.test-helpers.ts';

// The time box: a close group is open for documents only between its start and end dates.

describe('time box', () => {
  it('makes an ended close group read-only for members until an admin extends it', async () => {
    const c = await cast();
    const group = await createCloseGroup(c);
    const doc = await uploaded(c, c.alice, group._id);
    // The admin moves the end date into the past (as if time had run out).
    const end = dayFromToday(-1);
    const ended = await c.app.inject({
      method: 'PUT',
      url: `/admin/close-group/${group._id}`,
      headers: await c.as(c.admin),
      payload: closeGroupBody([c.alice.id, c.bob.id], { groupDuration: { from: dayFromToday(-10), to: end } }),
    });
    expect(ended.json()).toMatchObject({ status: 'ended' });

    // Reading still works.
    const mine = await c.app.inject({ method: 'GET', url: '/api/close-groups/mine', headers: await c.as(c.alice) });
    expect(mine.json()[0]).toMatchObject({ status: 'ended', canUpload: false, documents: [{ canChange: false }] });
    expect((await c.app.inject({ method: 'GET', url: doc.url, headers: await c.as(c.bob) })).statusCode).toBe(200);

    // Writing does not.
    const refused = await upload(c, c.alice, group._id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatch(
      /^This close group ended on \d{2} \w{3} \d{4}\. Its documents can be read but not added/,
    );
    // The day is a parameter of the code, so the web words the refusal in Hindi too (decision 034).
    expect(refused.json()).toMatchObject({ code: 'close_groups.ended', params: { endDate: end } });
    const rename = await c.app.inject({
      method: 'PUT',
      url: `/api/close-groups/${group._id}/documents/${doc._id}`,
      headers: await c.as(c.alice),
      payload: { newFilename: 'late' },
    });
    expect(rename.statusCode).toBe(403);
    expect(rename.json()).toMatchObject({ code: 'close_groups.ended', params: { endDate: end } });
    const del = await c.app.inject({
      method: 'DELETE',
      url: `/api/close-groups/${group._id}/documents/${doc._id}`,
      headers: await c.as(c.alice),
    });
    expect(del.statusCode).toBe(403);
    expect(existsSync(c.app.storage.storedPath('close-groups', fileIdOf(doc.url)))).toBe(true);

    // An admin is not held by the time box, and can extend it.
    const adminView = await c.app.inject({
      method: 'GET',
      url: `/admin/close-group/${group._id}`,
      headers: await c.as(c.admin),
    });
    expect(adminView.json().canUpload).toBe(true);
    const extended = await c.app.inject({
      method: 'PUT',
      url: `/admin/close-group/${group._id}`,
      headers: await c.as(c.admin),
      payload: closeGroupBody([c.alice.id, c.bob.id], {
        groupDuration: { from: dayFromToday(-10), to: dayFromToday(10) },
      }),
    });
    expect(extended.json().status).toBe('active');
    expect((await upload(c, c.alice, group._id)).statusCode).toBe(201);
  });

  it('refuses uploads before a close group starts', async () => {
    const c = await cast();
    const group = await createCloseGroup(c, { groupDuration: { from: dayFromToday(2), to: dayFromToday(9) } });
    const res = await upload(c, c.bob, group._id);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/^This close group starts on /);
    expect((await upload(c, c.admin, group._id)).statusCode).toBe(201);
  });

  it('counts both ends of the duration as inside, in India time', () => {
    const june = { durationFrom: '2026-06-01', durationTo: '2026-06-30' };
    expect(closeGroupStatus(june, '2026-05-31')).toBe('upcoming');
    expect(closeGroupStatus(june, '2026-06-01')).toBe('active');
    expect(closeGroupStatus(june, '2026-06-30')).toBe('active');
    expect(closeGroupStatus(june, '2026-07-01')).toBe('ended');
    // 30 June 19:00 UTC is already 1 July 00:30 in India.
    expect(todayInIndia(new Date('2026-06-30T19:00:00Z'))).toBe('2026-07-01');
  });
});

describe('renamedFilename', () => {
  it('keeps the extension of the current name', () => {
    expect(renamedFilename('a.pdf', 'b')).toBe('b.pdf');
    expect(renamedFilename('a.pdf', 'b.PDF')).toBe('b.PDF');
    expect(renamedFilename('a.pdf', 'b.docx')).toBe('b.docx.pdf');
    expect(renamedFilename('notes', 'b')).toBe('b');
    expect(renamedFilename('.profile', 'b')).toBe('b');
  });
});
