import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';

import { todayInIndia } from '#shared/format.ts';

import { activityLogs, files } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';

let app: FastifyInstance;
let admin: Record<string, string>;

beforeAll(async () => {
  app = await buildTestApp();
  admin = authHeaders(app, await createUser(app, 'admin'));
});

const areaFiles = (area: string) => {
  const dir = path.join(app.config.dataDir, 'uploads', area);
  return existsSync(dir) ? readdirSync(dir).length : 0;
};
const fileRows = async (area: string) => (await app.db.select().from(files).where(eq(files.area, area))).length;

/** A multipart request (fields and an optional file) as `headers`. */
async function send(
  method: 'POST' | 'PUT',
  url: string,
  headers: Record<string, string>,
  fields: Record<string, string | undefined>,
  file?: { field?: string; filename: string; content: Buffer },
) {
  const body = file
    ? multipart(fields, { field: file.field ?? 'file', filename: file.filename, content: file.content })
    : multipart(fields);
  return app.inject({ method, url, payload: body.payload, headers: { ...body.headers, ...headers } });
}

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
      const headers = authHeaders(app, await createUser(app, role));
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
      const headers = authHeaders(app, await createUser(app, role));
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
    // "Last updated" (issue 16 item 9): the latest change to the lab or any of its lists, and each item's own.
    const lab = res.json();
    const times = [lab.updatedAt, ...lab.notices.map((n: { updatedAt: string }) => n.updatedAt)];
    expect(lab.lastUpdated).toBe(times.sort().at(-1));
    for (const n of lab.notices) expect(Date.parse(n.updatedAt)).toBeGreaterThanOrEqual(Date.parse(n.createdAt));
  });
});

describe('lab notices, circulars, products and advertisements', () => {
  const notice = { name: 'Holiday list 2027', description: 'Gazetted holidays', validUntil: '' };
  const pdf = { filename: 'Holidays 2027.pdf', content: SAMPLE_FILES.pdf };

  it('refuses a visitor (401) and every role but admin (403), for create, edit and delete, reading no upload', async () => {
    const before = areaFiles('notices');
    const itemId = '00000000-0000-4000-8000-000000000000';
    const employee = authHeaders(app, await createUser(app, 'employee'));
    const director = authHeaders(app, await createUser(app, 'director'));
    for (const [headers, status] of [
      [{}, 401],
      [employee, 403],
      [director, 403],
    ] as const) {
      expect((await send('POST', `/api/labs/${labId}/notices`, headers, notice, pdf)).statusCode).toBe(status);
      expect((await send('PUT', `/api/labs/${labId}/notices/${itemId}`, headers, notice, pdf)).statusCode).toBe(status);
      const del = await app.inject({ method: 'DELETE', url: `/api/labs/${labId}/notices/${itemId}`, headers });
      expect(del.statusCode).toBe(status);
    }
    expect(areaFiles('notices')).toBe(before);
  });

  it('creates a notice with its PDF, served to anyone inline; the file is kept under its id', async () => {
    const res = await send('POST', `/api/labs/${labId}/notices`, admin, notice, pdf);
    expect(res.statusCode).toBe(201);
    const item = res.json();
    expect(item).toMatchObject({
      name: 'Holiday list 2027',
      description: 'Gazetted holidays',
      validUntil: null,
      expired: false,
    });
    expect(item.fileName).toBe('Holidays 2027.pdf');
    expect(item.fileUrl).toMatch(/^\/uploads\/notices\/[0-9a-f-]{36}$/);
    const file = await app.inject({ method: 'GET', url: item.fileUrl });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(String(file.headers['content-disposition'])).toContain('inline');
    const lab = (await app.inject({ method: 'GET', url: `/api/labs/${labId}` })).json();
    expect(lab.notices.map((n: { _id: string }) => n._id)).toContain(item._id);
  });

  it.each([
    [{ ...notice, name: ' ' }, pdf, 'name'],
    [{ ...notice, description: '' }, pdf, 'description'],
    [notice, undefined, 'file'],
  ])("says 'All fields are required' for a notice without %# (%s)", async (fields, file, field) => {
    const before = areaFiles('notices');
    const res = await send('POST', `/api/labs/${labId}/notices`, admin, fields, file);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'All fields are required', field });
    expect(areaFiles('notices')).toBe(before);
  });

  it('refuses a wrong type, a renamed executable and a file over the limit, leaving no file behind', async () => {
    const before = [areaFiles('circulars'), await fileRows('circulars')];
    const wrong = await send('POST', `/api/labs/${labId}/circulars`, admin, notice, {
      filename: 'tool.exe',
      content: SAMPLE_FILES.exe,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      error: 'This file type is not allowed. Allowed types: pdf, doc, docx, png, jpg, jpeg.',
      field: 'file',
    });
    const renamed = await send('POST', `/api/labs/${labId}/circulars`, admin, notice, {
      filename: 'c.pdf',
      content: SAMPLE_FILES.exe,
    });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().error).toBe("The file's content does not match its .pdf extension.");
    const big = Buffer.concat([SAMPLE_FILES.pdf, Buffer.alloc(app.config.uploadMaxBytes + 1, 32)]);
    const tooBig = await send('POST', `/api/labs/${labId}/circulars`, admin, notice, {
      filename: 'big.pdf',
      content: big,
    });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().error).toBe('The file is too large. The limit is 2 MB.');
    expect([areaFiles('circulars'), await fileRows('circulars')]).toEqual(before);
  });

  it('edits a notice without a file, then replaces its file and deletes the old one', async () => {
    const created = (await send('POST', `/api/labs/${labId}/circulars`, admin, notice, pdf)).json();
    const oldFileId = created.fileUrl.split('/').pop();
    const edited = await send('PUT', `/api/labs/${labId}/circulars/${created._id}`, admin, {
      name: 'Holiday list (revised)',
      description: 'Revised',
      validUntil: '2099-12-31',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      name: 'Holiday list (revised)',
      validUntil: '2099-12-31',
      fileUrl: created.fileUrl,
    });
    const blank = await send('PUT', `/api/labs/${labId}/circulars/${created._id}`, admin, {
      name: '',
      description: 'x',
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toBe('All fields are required');

    const replaced = await send(
      'PUT',
      `/api/labs/${labId}/circulars/${created._id}`,
      admin,
      { name: 'Holiday list', description: 'With a scan' },
      { filename: 'scan.png', content: SAMPLE_FILES.png },
    );
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().fileName).toBe('scan.png');
    expect(replaced.json().fileUrl).not.toBe(created.fileUrl);
    expect(existsSync(path.join(app.config.dataDir, 'uploads', 'circulars', oldFileId))).toBe(false);
    expect(await app.db.select().from(files).where(eq(files.id, oldFileId))).toHaveLength(0);
    expect((await app.inject({ method: 'GET', url: created.fileUrl })).statusCode).toBe(404);
  });

  it('deletes a notice with its file, and answers 404 for it afterwards or under another kind', async () => {
    const created = (await send('POST', `/api/labs/${labId}/notices`, admin, notice, pdf)).json();
    const fileId = created.fileUrl.split('/').pop();
    const wrongKind = await app.inject({
      method: 'DELETE',
      url: `/api/labs/${labId}/circulars/${created._id}`,
      headers: admin,
    });
    expect(wrongKind.statusCode).toBe(404);
    // One code per kind, so Hindi words each noun (issue 29).
    expect(wrongKind.json()).toMatchObject({ message: 'This circular no longer exists.', code: 'labs.circular_gone' });
    const res = await app.inject({
      method: 'DELETE',
      url: `/api/labs/${labId}/notices/${created._id}`,
      headers: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Notice deleted successfully.');
    expect(existsSync(path.join(app.config.dataDir, 'uploads', 'notices', fileId))).toBe(false);
    expect(await app.db.select().from(files).where(eq(files.id, fileId))).toHaveLength(0);
    const again = await app.inject({
      method: 'DELETE',
      url: `/api/labs/${labId}/notices/${created._id}`,
      headers: admin,
    });
    expect(again.statusCode).toBe(404);
    const logs = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, created._id));
    expect(logs.map((l) => l.action)).toEqual(
      expect.arrayContaining(['Added notice "Holiday list 2027"', 'Deleted notice "Holiday list 2027"']),
    );
  });

  it('adds products and advertisements with an optional pdf or image; name and description are required', async () => {
    const noFile = await send('POST', `/api/labs/${labId}/products`, admin, {
      name: 'Fire suit',
      description: 'Proximity suit',
    });
    expect(noFile.statusCode).toBe(201);
    expect(noFile.json()).toMatchObject({ name: 'Fire suit', fileUrl: null, fileName: null });
    const withImage = await send(
      'POST',
      `/api/labs/${labId}/advertisements`,
      admin,
      { name: 'Open day', description: 'Visit us' },
      { filename: 'poster.png', content: SAMPLE_FILES.png },
    );
    expect(withImage.statusCode).toBe(201);
    expect(withImage.json().fileUrl).toMatch(/^\/uploads\/advertisements\//);
    const docx = await send(
      'POST',
      `/api/labs/${labId}/products`,
      admin,
      { name: 'A', description: 'B' },
      { filename: 'brochure.docx', content: SAMPLE_FILES.zip },
    );
    expect(docx.statusCode).toBe(400);
    expect(docx.json().error).toBe('This file type is not allowed. Allowed types: pdf, png, jpg, jpeg, gif, webp.');
    const blank = await send('POST', `/api/labs/${labId}/products`, admin, { name: 'A', description: ' ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toMatchObject({ error: 'Name and description are required', field: 'description' });
    const lab = (await app.inject({ method: 'GET', url: `/api/labs/${labId}` })).json();
    expect(lab.products.map((p: { name: string }) => p.name)).toContain('Fire suit');
    expect(lab.advertisements.map((p: { name: string }) => p.name)).toContain('Open day');
  });

  it('refuses an unknown kind and an unknown lab', async () => {
    const kind = await send('POST', `/api/labs/${labId}/memos`, admin, notice, pdf);
    expect(kind.statusCode).toBe(400);
    expect(kind.json().error).toBe('No such list of the lab.');
    const lab = await send('POST', '/api/labs/00000000-0000-4000-8000-000000000000/notices', admin, notice, pdf);
    expect(lab.statusCode).toBe(404);
  });
});

describe('GET /api/labs/:id/documents', () => {
  it('lists notices and circulars newest first for anyone; ?current=true leaves out expired ones', async () => {
    const yesterday = new Date(Date.now() - 36 * 3600 * 1000);
    const expiredDate = todayInIndia(yesterday);
    const pdf = { filename: 'n.pdf', content: SAMPLE_FILES.pdf };
    const expired = (
      await send(
        'POST',
        `/api/labs/${labId}/notices`,
        admin,
        { name: 'Old drill', description: 'Done', validUntil: expiredDate },
        pdf,
      )
    ).json();
    const today = (
      await send(
        'POST',
        `/api/labs/${labId}/notices`,
        admin,
        { name: 'Drill today', description: 'Now', validUntil: todayInIndia() },
        pdf,
      )
    ).json();
    const all = (await app.inject({ method: 'GET', url: `/api/labs/${labId}/documents` })).json();
    const ids = all.notices.map((n: { _id: string }) => n._id);
    expect(ids.slice(0, 2)).toEqual([today._id, expired._id]);
    expect(all.notices.find((n: { _id: string }) => n._id === expired._id)).toMatchObject({ expired: true });
    expect(all.notices.find((n: { _id: string }) => n._id === today._id)).toMatchObject({ expired: false });

    const current = (await app.inject({ method: 'GET', url: `/api/labs/${labId}/documents?current=true` })).json();
    const currentIds = current.notices.map((n: { _id: string }) => n._id);
    expect(currentIds).toContain(today._id);
    expect(currentIds).not.toContain(expired._id);
    const limited = (
      await app.inject({ method: 'GET', url: `/api/labs/${labId}/documents?current=true&limit=1` })
    ).json();
    expect(limited.notices).toHaveLength(1);
    expect(limited.circulars.length).toBeLessThanOrEqual(1);
    const lab = (await app.inject({ method: 'GET', url: `/api/labs/${labId}` })).json();
    expect(lab.notices.find((n: { _id: string }) => n._id === expired._id)).toMatchObject({ expired: true });
  });

  it('refuses a bad validUntil date', async () => {
    const res = await send(
      'POST',
      `/api/labs/${labId}/notices`,
      admin,
      { name: 'N', description: 'D', validUntil: '31-12-2027' },
      { filename: 'n.pdf', content: SAMPLE_FILES.pdf },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Please enter a valid date.', field: 'validUntil' });
  });
});

describe('director history', () => {
  const entry = { name: 'Dr. A. Kumar', designation: '', from: '2015-04-01', to: '2020-03-31', about: 'Led the lab.' };

  it('refuses a visitor and every role but admin', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const employee = authHeaders(app, await createUser(app, 'employee'));
    const director = authHeaders(app, await createUser(app, 'director'));
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
