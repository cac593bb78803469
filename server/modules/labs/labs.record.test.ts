import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { activityLogs } from '#server/db/schema/index.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';

import { admin, app } from './labs.test-helpers.ts';

// The lab itself: creating the one lab, editing it and reading it whole.

const fullUpdate = {
  name: 'Centre for Fire, Explosive and Environment Safety',
  domain: 'Fire, explosive and environment safety',
  vision: 'A safer nation.',
  mission: 'Research in fire safety.',
  about: 'First line.\nSecond sentence. Third sentence.',
  LabHistoryDetails: 'Founded in 1950. Moved to Delhi in 1990.',
};

// The lab does not exist until the first describe creates it; later blocks use it. Tests run in order in a file.
let labId: string;

describe('POST /api/labs and GET /api/labs/only', () => {
  it('answers 404 before a lab exists, and the list is empty', async () => {
    const only = await app.inject({ method: 'GET', url: '/api/labs/only' });
    expect(only.statusCode).toBe(404);
    expect(only.json()).toMatchObject({ message: 'No lab has been created yet.', code: 'labs.not_created' });
    expect((await app.inject({ method: 'GET', url: '/api/labs' })).json()).toEqual([]);
  });

  it('refuses a visitor (401) and every role but admin (403)', async () => {
    expect((await app.inject({ method: 'POST', url: '/api/labs', payload: { name: 'X' } })).statusCode).toBe(401);
    for (const role of ['employee', 'director', 'associate_director'] as const) {
      const headers = await authHeaders(app, await createUser(app, role));
      const res = await app.inject({ method: 'POST', url: '/api/labs', headers, payload: { name: 'X' } });
      expect(res.statusCode).toBe(403);
    }
  });

  it("says 'Lab name is required' for a blank or missing name", async () => {
    for (const payload of [{ name: '   ' }, {}]) {
      const res = await app.inject({ method: 'POST', url: '/api/labs', headers: admin, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'Lab name is required', field: 'name' });
    }
  });

  it('creates the one lab, records it, and refuses a second with 409', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/labs',
      headers: admin,
      payload: { name: ' CFEES ', mission: 'M', vision: 'V', about: 'A', domain: 'D' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 'CFEES', mission: 'M', vision: 'V', about: 'A', domain: 'D' });
    labId = res.json()._id;
    expect((await app.inject({ method: 'GET', url: '/api/labs/only' })).json()).toEqual({ _id: labId, name: 'CFEES' });
    const logs = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, labId));
    expect(logs.map((l) => l.action)).toContain('Created lab CFEES');

    const again = await Promise.all(
      [1, 2].map(() =>
        app.inject({ method: 'POST', url: '/api/labs', headers: admin, payload: { name: 'Second lab' } }),
      ),
    );
    expect(again.map((r) => r.statusCode)).toEqual([409, 409]);
    expect(again[0]!.json().error).toContain('Only one lab can be created');
    expect((await app.inject({ method: 'GET', url: '/api/labs' })).json()).toHaveLength(1);
  });
});

describe('PUT /api/labs/:id', () => {
  it('refuses a visitor and every role but admin', async () => {
    expect((await app.inject({ method: 'PUT', url: `/api/labs/${labId}`, payload: fullUpdate })).statusCode).toBe(401);
    for (const role of ['employee', 'director'] as const) {
      const headers = await authHeaders(app, await createUser(app, role));
      const res = await app.inject({ method: 'PUT', url: `/api/labs/${labId}`, headers, payload: fullUpdate });
      expect(res.statusCode).toBe(403);
    }
  });

  it.each([
    ['name', 'Lab name is required'],
    ['domain', 'Domain is required'],
    ['vision', 'Vision is required'],
    ['mission', 'Mission is required'],
    ['about', 'About is required'],
    ['LabHistoryDetails', 'Lab history is required'],
  ])('requires %s: "%s"', async (field, message) => {
    const res = await app.inject({
      method: 'PUT',
      url: `/api/labs/${labId}`,
      headers: admin,
      payload: { ...fullUpdate, [field]: ' ' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: message, field });
  });

  it.each([
    [
      { contactInfo: [{ type: 'Email', label: 'Office', value: ' ' }] },
      'A contact value is required.',
      'contactInfo.0.value',
    ],
    [{ contactInfo: [{ type: 'Fax', value: '011' }] }, 'Please choose a contact type.', 'contactInfo.0.type'],
    [{ officeOfDirector: [{ name: '', designation: 'PS' }] }, 'Name is required.', 'officeOfDirector.0.name'],
    [
      { officeOfDirector: [{ name: 'A', designation: ' ' }] },
      'Designation is required.',
      'officeOfDirector.0.designation',
    ],
    [
      { officeOfDirector: [{ name: 'A', designation: 'PS', email: 'nope' }] },
      'Invalid email address.',
      'officeOfDirector.0.email',
    ],
  ])('refuses %j with "%s"', async (change, message, field) => {
    const res = await app.inject({
      method: 'PUT',
      url: `/api/labs/${labId}`,
      headers: admin,
      payload: { ...fullUpdate, ...change },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: message, field });
  });

  it('updates the fields and replaces contact info and the office in order; leaves lists alone when not sent', async () => {
    const res = await app.inject({
      method: 'PUT',
      url: `/api/labs/${labId}`,
      headers: admin,
      payload: {
        ...fullUpdate,
        contactInfo: [
          { type: 'Phone', label: 'Reception', value: '011-2345 6789' },
          { type: 'Email', value: 'director@cfees.test' },
        ],
        officeOfDirector: [
          { name: 'R. Sharma', designation: 'PS to Director', contactNumber: '1234', email: 'ps@cfees.test' },
          { name: 'K. Rao', designation: 'Assistant' },
        ],
      },
    });
    expect(res.statusCode).toBe(200);
    const lab = res.json();
    expect(lab).toMatchObject({ ...fullUpdate, _id: labId });
    expect(
      lab.contactInfo.map((c: { type: string; label: string; value: string }) => [c.type, c.label, c.value]),
    ).toEqual([
      ['Phone', 'Reception', '011-2345 6789'],
      ['Email', '', 'director@cfees.test'],
    ]);
    expect(lab.officeOfDirector).toMatchObject([
      { name: 'R. Sharma', designation: 'PS to Director', contactNumber: '1234', email: 'ps@cfees.test' },
      { name: 'K. Rao', designation: 'Assistant', contactNumber: '', email: '' },
    ]);
    const again = await app.inject({ method: 'PUT', url: `/api/labs/${labId}`, headers: admin, payload: fullUpdate });
    expect(again.json().contactInfo).toHaveLength(2);
    expect(again.json().officeOfDirector).toHaveLength(2);
    const logs = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, labId));
    expect(logs.some((l) => l.action.startsWith('Updated lab information'))).toBe(true);
  });

  it('answers 404 for an unknown lab and 400 for a malformed id', async () => {
    const unknown = await app.inject({
      method: 'PUT',
      url: '/api/labs/00000000-0000-4000-8000-000000000000',
      headers: admin,
      payload: fullUpdate,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('Lab not found.');
    const malformed = await app.inject({ method: 'GET', url: '/api/labs/not-a-uuid' });
    expect(malformed.statusCode).toBe(400);
  });
});

describe('GET /api/labs/:id', () => {
  it('gives anyone the whole record with every list', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/labs/${labId}` });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(
      [
        '_id',
        'name',
        'domain',
        'about',
        'vision',
        'mission',
        'LabHistoryDetails',
        'updatedAt',
        'contactInfo',
        'directorHistory',
        'currentDirector',
        'officeOfDirector',
        'notices',
        'circulars',
        'products',
        'advertisements',
        'lastUpdated',
      ].sort(),
    );
    // "Last updated" (decision 019): the latest change to the lab or any of its lists, and each item's own.
    const lab = res.json();
    const times = [lab.updatedAt, ...lab.notices.map((n: { updatedAt: string }) => n.updatedAt)];
    expect(lab.lastUpdated).toBe(times.sort().at(-1));
    for (const n of lab.notices) expect(Date.parse(n.updatedAt)).toBeGreaterThanOrEqual(Date.parse(n.createdAt));
  });
});
