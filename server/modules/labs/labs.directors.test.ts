import { existsSync } from 'node:fs';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';

import { files } from '#server/db/schema/index.ts';
import { authHeaders, createLab, createUser } from '#server/test/factories.ts';
import { SAMPLE_FILES } from '#server/test/multipart.ts';

import { admin, app, areaFiles, send } from './labs.test-helpers.ts';

// The lab's director history (/api/labs/{id}/directors).

// The lab these tests work on, made before them (labs.record.test.ts creates one through the API).
let labId: string;
beforeAll(async () => {
  labId = (await createLab(app)).id;
});

describe('director history', () => {
  const entry = { name: 'Dr. A. Kumar', designation: '', from: '2015-04-01', to: '2020-03-31', about: 'Led the lab.' };

  it('refuses a visitor and every role but admin', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const employee = await authHeaders(app, await createUser(app, 'employee'));
    const director = await authHeaders(app, await createUser(app, 'director'));
    for (const [headers, status] of [
      [{}, 401],
      [employee, 403],
      [director, 403],
    ] as const) {
      expect((await send('POST', `/api/labs/${labId}/directors`, headers, entry)).statusCode).toBe(status);
      expect((await send('PUT', `/api/labs/${labId}/directors/${id}`, headers, entry)).statusCode).toBe(status);
      expect(
        (await app.inject({ method: 'DELETE', url: `/api/labs/${labId}/directors/${id}`, headers })).statusCode,
      ).toBe(status);
    }
  });

  it.each([
    [{ name: '', user: '' }, 'Please select a user or enter a name', 'name'],
    [{ from: '' }, 'From date is required.', 'from'],
    [{ to: '2010-01-01' }, 'The end date cannot be before the start date.', 'to'],
    [{ user: '00000000-0000-4000-8000-000000000000', name: '' }, 'The chosen user does not exist.', 'user'],
  ])('refuses %j with "%s"', async (change, message, field) => {
    const res = await send('POST', `/api/labs/${labId}/directors`, admin, { ...entry, ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: message, field });
  });

  it('refuses an image of the wrong type, leaving no file behind', async () => {
    const before = areaFiles('directors');
    const res = await send('POST', `/api/labs/${labId}/directors`, admin, entry, {
      field: 'image',
      filename: 'cv.pdf',
      content: SAMPLE_FILES.pdf,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe('image');
    expect(areaFiles('directors')).toBe(before);
  });

  it('keeps history with default designation Director; the current director is the open entry, else the latest', async () => {
    const person = await createUser(app, 'director', { name: 'Dr. S. Iyer', about: 'Fire scientist.' });
    const past = await send('POST', `/api/labs/${labId}/directors`, admin, entry, {
      field: 'image',
      filename: 'kumar.png',
      content: SAMPLE_FILES.png,
    });
    expect(past.statusCode).toBe(201);
    expect(past.json()).toMatchObject({
      name: 'Dr. A. Kumar',
      designation: 'Director',
      from: '2015-04-01',
      to: '2020-03-31',
    });
    expect(past.json().image).toMatch(/^\/uploads\/directors\//);
    let lab = (await app.inject({ method: 'GET', url: `/api/labs/${labId}` })).json();
    expect(lab.currentDirector._id).toBe(past.json()._id);

    const current = await send('POST', `/api/labs/${labId}/directors`, admin, {
      user: person.id,
      name: '',
      designation: 'Outstanding Scientist & Director',
      from: '2020-04-01',
      to: '',
      about: '',
    });
    expect(current.statusCode).toBe(201);
    expect(current.json()).toMatchObject({
      name: 'Dr. S. Iyer',
      to: null,
      designation: 'Outstanding Scientist & Director',
      user: { _id: person.id, name: 'Dr. S. Iyer', about: 'Fire scientist.' },
    });
    // A later entry that has ended does not displace the one still in office.
    await send('POST', `/api/labs/${labId}/directors`, admin, {
      ...entry,
      name: 'Acting',
      from: '2021-01-01',
      to: '2021-02-01',
    });
    lab = (await app.inject({ method: 'GET', url: `/api/labs/${labId}` })).json();
    expect(lab.currentDirector._id).toBe(current.json()._id);
    expect(lab.directorHistory.map((d: { from: string }) => d.from)).toEqual([
      '2021-01-01',
      '2020-04-01',
      '2015-04-01',
    ]);
  });

  it('edits an entry, replaces its image (deleting the old one) and deletes it with its image', async () => {
    const created = (
      await send('POST', `/api/labs/${labId}/directors`, admin, entry, {
        field: 'image',
        filename: 'a.png',
        content: SAMPLE_FILES.png,
      })
    ).json();
    const oldImage = created.image.split('/').pop();
    const edited = await send(
      'PUT',
      `/api/labs/${labId}/directors/${created._id}`,
      admin,
      { ...entry, about: 'Revised.' },
      { field: 'image', filename: 'b.png', content: SAMPLE_FILES.png },
    );
    expect(edited.statusCode).toBe(200);
    expect(edited.json().about).toBe('Revised.');
    expect(edited.json().image).not.toBe(created.image);
    expect(existsSync(path.join(app.config.dataDir, 'uploads', 'directors', oldImage))).toBe(false);
    const bad = await send('PUT', `/api/labs/${labId}/directors/${created._id}`, admin, { ...entry, name: '' });
    expect(bad.json().error).toBe('Please select a user or enter a name');

    const newImage = edited.json().image.split('/').pop();
    const del = await app.inject({
      method: 'DELETE',
      url: `/api/labs/${labId}/directors/${created._id}`,
      headers: admin,
    });
    expect(del.statusCode).toBe(200);
    expect(existsSync(path.join(app.config.dataDir, 'uploads', 'directors', newImage))).toBe(false);
    expect(await app.db.select().from(files).where(eq(files.id, newImage))).toHaveLength(0);
    const gone = await app.inject({
      method: 'DELETE',
      url: `/api/labs/${labId}/directors/${created._id}`,
      headers: admin,
    });
    expect(gone.statusCode).toBe(404);
  });
});
