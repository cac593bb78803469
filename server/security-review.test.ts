import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';

import { closeGroupDocuments, softwareRepos, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createGroup, createLab, createUser, letterFields, letterPdf } from '#server/test/factories.ts';
import { multipart, type MultipartFile, SAMPLE_FILES } from '#server/test/multipart.ts';
import { officeZip } from '#server/test/office-files.ts';

/**
 * The outside security review's defects, each with the test that would have caught it (decisions 014, 047,
 * 048 and 049).
 * Sign-in throttling: auth/throttle.test.ts; sessions: auth/sessions.test.ts; deny by default and the inputs sent to
 * every route: robustness.test.ts.
 */
let app: FastifyInstance;
let admin: UserRow;
let employee: UserRow;
const as = async (u: UserRow) => await authHeaders(app, u);
const YEAR_ZERO = '0000-01-01';
const RANGE = 'Please enter a date between 1900 and 2100.';

beforeAll(async () => {
  app = await buildTestApp();
  admin = await createUser(app, 'admin');
  employee = await createUser(app, 'employee');
});

const sendMultipart = async (
  method: 'POST' | 'PUT',
  url: string,
  user: UserRow,
  fields: Record<string, string | undefined>,
  ...files: MultipartFile[]
): Promise<LightMyRequestResponse> => {
  const body = multipart(fields, ...files);
  return app.inject({ method, url, payload: body.payload, headers: { ...body.headers, ...(await as(user)) } });
};

describe('dates in year 0000 are refused on every date input with a 400 that names the range', () => {
  const expectRange = (res: { statusCode: number; json: () => { error: string; field?: string } }, field: string) => {
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: RANGE, field });
  };

  it('registration: date of birth and employment', async () => {
    const base = {
      email: `y0-${Date.now()}@lab.test`,
      password: 'secret123',
      personalDetails: { name: 'Asha', mobile: '9876543210' },
      professionalDetails: { designation: "Scientist 'B'", cadre: 'DRDS' },
    };
    const dob = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...base, personalDetails: { ...base.personalDetails, dob: YEAR_ZERO } },
    });
    expectRange(dob, 'personalDetails.dob');
    const employment = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...base, employmentPeriod: { from: YEAR_ZERO, to: '' } },
    });
    expectRange(employment, 'employmentPeriod.from');
  });

  it('profile: date of birth, joining date, employment', async () => {
    for (const [payload, field] of [
      [{ personalDetails: { name: 'Asha', dob: YEAR_ZERO } }, 'personalDetails.dob'],
      [{ professionalDetails: { joiningDate: YEAR_ZERO } }, 'professionalDetails.joiningDate'],
      [{ employmentPeriod: { from: '2020-01-01', to: '9999-12-31' } }, 'employmentPeriod.to'],
    ] as const) {
      const res = await app.inject({
        method: 'PUT',
        url: `/api/users/${employee.id}`,
        headers: await as(employee),
        payload,
      });
      expectRange(res, field);
    }
  });

  it('close group duration', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/admin/close-group',
      headers: await as(admin),
      payload: {
        groupName: 'Year zero',
        groupPurpose: 'x',
        groupDuration: { from: YEAR_ZERO, to: '2026-01-01' },
        requestedBy: [employee.id],
      },
    });
    expectRange(res, 'groupDuration.from');
  });

  it('notice valid-until and director from', async () => {
    const lab = await createLab(app);
    const notice = await sendMultipart(
      'POST',
      `/api/labs/${lab.id}/notices`,
      admin,
      {
        name: 'N',
        description: 'D',
        validUntil: YEAR_ZERO,
      },
      letterPdf(),
    );
    expectRange(notice, 'validUntil');
    const director = await sendMultipart('POST', `/api/labs/${lab.id}/directors`, admin, {
      name: 'Dr. A',
      from: YEAR_ZERO,
    });
    expectRange(director, 'from');
  });

  it('letter and docket dates', async () => {
    for (const field of ['letterDate', 'docketDate']) {
      const res = await sendMultipart('POST', '/api/dac', employee, letterFields({ [field]: YEAR_ZERO }), letterPdf());
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ field });
      expect(res.json().error).toBe(RANGE);
    }
  });

  it('the activity-log filter', async () => {
    const res = await app.inject({ method: 'GET', url: `/admin/logs?from=${YEAR_ZERO}`, headers: await as(admin) });
    expectRange(res, 'from');
  });
});

describe('a letters cursor in the right format with an impossible date', () => {
  it('is refused with 400 on the cursor', async () => {
    for (const at of ['2024-13-45 25:61:00+00', '0000-01-01 00:00:00+00', '2024-02-30 10:00:00.5+05:30']) {
      const cursor = Buffer.from(JSON.stringify([at, '00000000-0000-4000-8000-000000000000'])).toString('base64url');
      const res = await app.inject({
        method: 'GET',
        url: `/api/dac/page?cursor=${cursor}`,
        headers: await as(employee),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'This list has changed. Please search again.', field: 'cursor' });
    }
  });
});

/** A close group with `employee` as its member; its documents take every office type. */
async function closeGroupOfEmployee(): Promise<string> {
  const created = await app.inject({
    method: 'POST',
    url: '/admin/close-group',
    headers: await as(admin),
    payload: {
      groupName: `Review ${Math.random().toString(36).slice(2, 8)}`,
      groupPurpose: 'Security review',
      groupDuration: { from: '2026-01-01', to: '2030-01-01' },
      requestedBy: [employee.id],
    },
  });
  expect(created.statusCode).toBe(201);
  return created.json()._id;
}

describe('ids are case-insensitive UUIDs everywhere', () => {
  it('renames a close-group document addressed in upper case and answers 200', async () => {
    const created = await app.inject({
      method: 'POST',
      url: '/admin/close-group',
      headers: await as(admin),
      payload: {
        groupName: `Upper ${Date.now()}`,
        groupPurpose: 'Case test',
        groupDuration: { from: '2026-01-01', to: '2030-01-01' },
        requestedBy: [employee.id],
      },
    });
    expect(created.statusCode).toBe(201);
    const groupId: string = created.json()._id;
    const up = await sendMultipart(
      'POST',
      `/api/close-groups/${groupId}/upload`,
      employee,
      {},
      {
        field: 'document',
        filename: 'minutes.pdf',
        content: SAMPLE_FILES.pdf,
      },
    );
    expect(up.statusCode).toBe(201);
    const docId: string = up.json().document._id;
    const res = await app.inject({
      method: 'PUT',
      url: `/api/close-groups/${groupId.toUpperCase()}/documents/${docId.toUpperCase()}`,
      headers: await as(employee),
      payload: { newFilename: 'Final minutes' },
    });
    expect(res.statusCode).toBe(200);
    const [doc] = await app.db.select().from(closeGroupDocuments).where(eq(closeGroupDocuments.id, docId));
    expect(doc).toBeDefined();
    const profile = await app.inject({
      method: 'GET',
      url: `/api/users/${employee.id.toUpperCase()}`,
      headers: await as(employee),
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json()._id).toBe(employee.id);
  });
});

describe('an admin deleting a letter already in the recycle bin', () => {
  it('is told the truth with 409, not 403', async () => {
    const created = await sendMultipart('POST', '/api/dac', employee, letterFields(), letterPdf());
    expect(created.statusCode).toBe(201);
    const id: string = created.json()._id;
    expect(
      (await app.inject({ method: 'DELETE', url: `/api/dac/${id}`, headers: await as(employee) })).statusCode,
    ).toBe(200);
    const again = await app.inject({ method: 'DELETE', url: `/api/dac/${id}`, headers: await as(admin) });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('This letter is already in the recycle bin.');
  });
});

describe('a stored record never breaks a list', () => {
  it('refuses repository metadata nested too deeply or too large with 400', async () => {
    const group = await createGroup(app);
    const ad = await createUser(app, 'associate_director', { groupId: group.id });
    const deep = '['.repeat(3000) + ']'.repeat(3000);
    const res = await sendMultipart('POST', '/api/softwareRepo', ad, {
      group: group.id,
      type: 'Code',
      githubUrl: 'https://github.com/a/b',
      metadata: deep,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'Metadata may be nested at most 10 levels deep.', field: 'metadata' });
    const large = await sendMultipart('POST', '/api/softwareRepo', ad, {
      group: group.id,
      type: 'Code',
      githubUrl: 'https://github.com/a/b',
      metadata: JSON.stringify({ notes: 'x'.repeat(20_000) }),
    });
    expect(large.statusCode).toBe(400);
    expect(large.json()).toMatchObject({ error: 'Metadata must be at most 10 KB.', field: 'metadata' });
  });

  it('lists the group even when a row already stored holds metadata no one can show', async () => {
    const group = await createGroup(app);
    const ad = await createUser(app, 'associate_director', { groupId: group.id });
    const ok = await sendMultipart('POST', '/api/softwareRepo', ad, {
      group: group.id,
      type: 'Code',
      githubUrl: 'https://github.com/a/good',
      metadata: '{"version":"1"}',
    });
    expect(ok.statusCode).toBe(201);
    // A row written before the limit existed (the review stored 3,000 nested brackets).
    let bad: unknown = [];
    for (let i = 0; i < 3000; i++) bad = [bad];
    const [row] = await app.db
      .insert(softwareRepos)
      .values({
        groupId: group.id,
        type: 'Code',
        githubUrl: 'https://github.com/a/bad',
        metadata: bad,
        uploadedBy: ad.id,
      })
      .returning();
    for (const user of [ad, admin]) {
      const list = await app.inject({ method: 'GET', url: '/api/softwareRepo', headers: await as(user) });
      expect(list.statusCode).toBe(200);
      const repos: { _id: string; metadata: unknown }[] = list.json();
      expect(repos.find((r) => r._id === row!.id)?.metadata).toBeNull();
      expect(repos.find((r) => r._id === ok.json()._id)?.metadata).toEqual({ version: '1' });
    }
    // ...and it can be deleted through the API.
    const del = await app.inject({ method: 'DELETE', url: `/api/softwareRepo/${row!.id}`, headers: await as(ad) });
    expect(del.statusCode).toBe(200);
  });
});

describe('uploaded files', () => {
  const uploadLetter = (file: MultipartFile) => sendMultipart('POST', '/api/dac', employee, letterFields(), file);
  const storedName = async (id: string) =>
    (await app.inject({ method: 'GET', url: `/api/dac/${id}`, headers: await as(employee) })).json()
      .originalName as string;

  it('checks office files for what they are: a plain ZIP named .docx, .xlsx or .pptx is refused', async () => {
    const groupId = await closeGroupOfEmployee();
    const uploadDocument = (file: MultipartFile) =>
      sendMultipart('POST', `/api/close-groups/${groupId}/upload`, employee, {}, { ...file, field: 'document' });
    for (const ext of ['docx', 'xlsx', 'pptx']) {
      const res = await uploadDocument({ field: 'file', filename: `report.${ext}`, content: SAMPLE_FILES.zip });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: `The file's content does not match its .${ext} extension.` });
    }
    const xlsxAsDocx = await uploadDocument({ field: 'file', filename: 'report.docx', content: officeZip('xlsx') });
    expect(xlsxAsDocx.statusCode).toBe(400);
    for (const ext of ['docx', 'xlsx', 'pptx'] as const) {
      const res = await uploadDocument({ field: 'file', filename: `report.${ext}`, content: officeZip(ext) });
      expect(res.statusCode).toBe(201);
    }
  });

  it('removes control characters and bidirectional overrides from file names', async () => {
    const res = await uploadLetter(letterPdf('invoice\u202Efdp.txt\u0007.pdf'));
    expect(res.statusCode).toBe(201);
    expect(await storedName(res.json()._id)).toBe('invoicefdp.txt.pdf');
  });

  it('refuses a NUL in a file name with 400 and a message', async () => {
    const res = await uploadLetter(letterPdf('a\u0000b.pdf'));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'A file name must not contain NUL characters.', field: 'file' });
  });

  it('shortens a name over 255 characters keeping its extension', async () => {
    const res = await uploadLetter(letterPdf(`${'n'.repeat(300)}.pdf`));
    expect(res.statusCode).toBe(201);
    const name = await storedName(res.json()._id);
    expect(name).toHaveLength(255);
    expect(name.endsWith('.pdf')).toBe(true);
  });

  it('refuses a bidi override when renaming a close-group document, as it refuses control characters', async () => {
    const { renameDocumentInput } = await import('#shared/schemas/close-group.ts');
    expect(renameDocumentInput.safeParse({ newFilename: 'invoice\u202Efdp' }).success).toBe(false);
  });
});
