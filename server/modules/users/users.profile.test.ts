import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import { PROFILE_PHOTO_MAX_PX } from '#shared/constants.ts';

import { activityLogs, files, users } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createUser, signIn } from '#server/test/factories.ts';
import { multipart, pngClaiming, SAMPLE_FILES } from '#server/test/multipart.ts';

buildTestAppBeforeAll();

// PUT /api/users/:id and the profile photo.

const profile = {
  personalDetails: {
    name: 'Asha Verma',
    dob: '1990-04-12',
    mobile: '9876543210',
    address: 'Delhi',
    gender: 'Female',
    maritalStatus: 'Single',
    bloodGroup: 'O+',
    emergencyContact: { name: 'Ravi Verma', relationship: 'Brother', mobile: '9123456780' },
  },
  professionalDetails: {
    cadre: 'DRDS',
    designation: "Scientist 'C'",
    intercom: '2231',
    internetEmail: 'asha@example.in',
    dronaEmail: 'asha@drona.in',
    pis: 'P-1',
    aebasId: 'A-1',
    joiningDate: '2015-06-01',
    skills: [' thermal analysis ', '', 'CFD'],
    qualifications: ['M.Tech'],
  },
  about: 'Works on fire safety.',
  employmentPeriod: { from: '2015-06-01', to: '' },
  socialLinks: {
    linkedin: 'https://linkedin.com/in/asha',
    twitter: '',
    facebook: '',
    github: 'https://github.com/asha',
  },
};

const logsOf = async (app: Awaited<ReturnType<typeof buildTestApp>>, userId: string) =>
  app.db.select().from(activityLogs).where(eq(activityLogs.targetId, userId));

describe('PUT /api/users/:id', () => {
  it('saves every section for the owner, trims the lists, and records the change', async () => {
    const { app, headers, user } = await signIn('employee');
    const res = await app.inject({ method: 'PUT', url: `/api/users/${user.id}`, headers, payload: profile });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      _id: user.id,
      about: 'Works on fire safety.',
      personalDetails: {
        name: 'Asha Verma',
        fullName: 'Asha Verma',
        gender: 'Female',
        emergencyContact: { name: 'Ravi Verma' },
      },
      professionalDetails: { cadre: 'DRDS', designation: "Scientist 'C'", skills: ['thermal analysis', 'CFD'] },
      employmentPeriod: { from: '2015-06-01', to: null },
      socialLinks: { github: 'https://github.com/asha' },
    });
    expect((await logsOf(app, user.id)).map((l) => l.action)).toContain('Updated own profile');
  });

  it('keeps the sections that were not sent, and never changes email, role or password', async () => {
    const { app, headers, user } = await signIn('employee', { about: 'Kept', mobile: '9000000000' });
    const res = await app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers,
      payload: {
        socialLinks: { linkedin: 'https://linkedin.com/in/x' },
        email: 'new@x.y',
        role: 'admin',
        password: 'x',
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      email: user.email,
      role: 'employee',
      about: 'Kept',
      personalDetails: { mobile: '9000000000' },
    });
    const [row] = await app.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.passwordHash).toBe(user.passwordHash);
  });

  it('lets an admin edit anyone; refuses another user and a visitor before reading the body', async () => {
    const app = await buildTestApp();
    const owner = await createUser(app, 'employee');
    const other = await createUser(app, 'employee');
    const admin = await createUser(app, 'admin');
    const url = `/api/users/${owner.id}`;
    expect((await app.inject({ method: 'PUT', url, payload: {} })).statusCode).toBe(401);
    const denied = await app.inject({
      method: 'PUT',
      url,
      headers: await authHeaders(app, other),
      payload: { about: 5 },
    });
    expect(denied.statusCode).toBe(403);
    const ok = await app.inject({
      method: 'PUT',
      url,
      headers: await authHeaders(app, admin),
      payload: { about: 'By admin' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().about).toBe('By admin');
    expect((await logsOf(app, owner.id)).map((l) => l.action)).toContain(`Updated the profile of ${owner.email}`);
  });

  it.each([
    [{ personalDetails: { name: '  ' } }, 'Name is required.', 'personalDetails.name'],
    [{ personalDetails: { name: 'A', mobile: '12345' } }, 'Mobile number must be 10 digits.', 'personalDetails.mobile'],
    [
      { personalDetails: { name: 'A', emergencyContact: { mobile: 'abc' } } },
      'Mobile number must be 10 digits.',
      'personalDetails.emergencyContact.mobile',
    ],
    [
      { personalDetails: { name: 'A', gender: 'X' } },
      'Please choose a gender from the list.',
      'personalDetails.gender',
    ],
    [
      { personalDetails: { name: 'A', maritalStatus: 'X' } },
      'Please choose a marital status from the list.',
      'personalDetails.maritalStatus',
    ],
    [
      { personalDetails: { name: 'A', bloodGroup: 'C+' } },
      'Please choose a blood group from the list.',
      'personalDetails.bloodGroup',
    ],
    [{ personalDetails: { name: 'A', dob: '12/04/1990' } }, 'Please enter a valid date.', 'personalDetails.dob'],
    [
      { professionalDetails: { cadre: 'DRDS', designation: '' } },
      'Designation is required.',
      'professionalDetails.designation',
    ],
    [
      { professionalDetails: { cadre: 'Other', designation: '   ' } },
      'Designation is required.',
      'professionalDetails.designation',
    ],
    [
      { professionalDetails: { cadre: 'DRTC', designation: "Scientist 'B'" } },
      'Please choose a designation of the selected cadre.',
      'professionalDetails.designation',
    ],
    [{ professionalDetails: { cadre: 'Army' } }, 'Please choose a cadre from the list.', 'professionalDetails.cadre'],
    [
      { employmentPeriod: { from: '2020-01-02', to: '2020-01-01' } },
      'The employment end date cannot be before its start.',
      'employmentPeriod.to',
    ],
    [
      { socialLinks: { linkedin: 'javascript:alert(1)' } },
      'Please enter a full link starting with http:// or https://.',
      'socialLinks.linkedin',
    ],
  ])('refuses %j with "%s"', async (payload, message, field) => {
    const { app, headers, user } = await signIn('employee');
    const res = await app.inject({ method: 'PUT', url: `/api/users/${user.id}`, headers, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, field });
  });

  it('accepts free text as the designation of cadre Other', async () => {
    const { app, headers, user } = await signIn('employee');
    const res = await app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers,
      payload: { professionalDetails: { cadre: 'Other', designation: 'Librarian' } },
    });
    expect(res.json().professionalDetails).toMatchObject({ cadre: 'Other', designation: 'Librarian' });
  });
});

describe('GET /api/users/:id kept for its owner (issue 34)', () => {
  it('answers the owner the same bytes until their row changes, here or on another node; an admin reads it fresh', async () => {
    const { app, headers, user } = await signIn('employee');
    const read = () => app.inject({ url: `/api/users/${user.id}`, headers });
    const first = await read();
    expect(first.statusCode).toBe(200);
    expect((await read()).headers.etag).toBe(first.headers.etag);
    await app.db.update(users).set({ about: 'Written on another node.' }).where(eq(users.id, user.id));
    const changed = await read();
    expect(changed.json().about).toBe('Written on another node.');
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    const admin = await createUser(app, 'admin');
    const asAdmin = await app.inject({ url: `/api/users/${user.id}`, headers: await authHeaders(app, admin) });
    expect(asAdmin.json().about).toBe('Written on another node.');
  });
});

describe('POST /api/users/:id/upload-photo', () => {
  const photoFilesOnDisk = (app: Awaited<ReturnType<typeof buildTestApp>>) => {
    const dir = path.join(app.config.dataDir, 'uploads', 'profile-photos');
    return existsSync(dir) ? readdirSync(dir).length : 0;
  };
  const upload = (
    app: Awaited<ReturnType<typeof buildTestApp>>,
    id: string,
    headers: Record<string, string>,
    file = SAMPLE_FILES.png,
    name = 'me.png',
  ) => {
    const body = multipart({}, { field: 'photo', filename: name, content: file, contentType: 'image/png' });
    return app.inject({
      method: 'POST',
      url: `/api/users/${id}/upload-photo`,
      payload: body.payload,
      headers: { ...headers, ...body.headers },
    });
  };

  it('stores the owner photo, serves it publicly, and removes the photo it replaces', async () => {
    const { app, headers, user } = await signIn('employee');
    const first = await upload(app, user.id, headers);
    expect(first.statusCode).toBe(201);
    const photo = first.json().photo as string;
    expect(photo).toMatch(/^\/uploads\/profile-photos\/[0-9a-f-]{36}$/);
    const served = await app.inject({ method: 'GET', url: photo });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    const oldId = photo.split('/').pop()!;
    const second = await upload(app, user.id, headers, SAMPLE_FILES.jpg, 'me.jpg');
    expect(second.statusCode).toBe(201);
    expect(existsSync(app.storage.storedPath('profile-photos', oldId))).toBe(false);
    expect(await app.db.select().from(files).where(eq(files.id, oldId))).toHaveLength(0);
    const me = await app.inject({ method: 'GET', url: `/api/users/${user.id}`, headers });
    expect(me.json().photo).toBe(second.json().photo);
    expect((await logsOf(app, user.id)).map((l) => l.action)).toContain('Changed own profile photo');
  });

  it('keeps only a small WebP copy: a camera-sized photo is scaled down and the original is not stored', async () => {
    const { app, headers, user } = await signIn('employee');
    const before = photoFilesOnDisk(app);
    const big = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#2d67ae' } })
      .jpeg()
      .toBuffer();
    const res = await upload(app, user.id, headers, big, 'camera.jpg');
    expect(res.statusCode).toBe(201);
    const served = await app.inject({ method: 'GET', url: res.json().photo });
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width!, meta.height!)).toBe(PROFILE_PHOTO_MAX_PX);
    const stored = await app.db.select().from(files).where(eq(files.uploadedBy, user.id));
    expect(stored).toHaveLength(1);
    expect(photoFilesOnDisk(app)).toBe(before + 1);
  });

  it('refuses an image it cannot read, leaving nothing behind', async () => {
    const { app, headers, user } = await signIn('employee');
    const before = photoFilesOnDisk(app);
    const broken = Buffer.concat([SAMPLE_FILES.png.subarray(0, 40), Buffer.alloc(60, 7)]);
    const res = await upload(app, user.id, headers, broken, 'broken.png');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: 'The image could not be read. Please choose another photo.',
      field: 'photo',
    });
    expect(await app.db.select().from(files).where(eq(files.uploadedBy, user.id))).toHaveLength(0);
    expect(photoFilesOnDisk(app)).toBe(before);
  });

  it('refuses an image of more than 40 megapixels before decoding it, leaving nothing behind', async () => {
    const { app, headers, user } = await signIn('employee');
    const before = photoFilesOnDisk(app);
    const res = await upload(app, user.id, headers, pngClaiming(10_000, 10_000), 'huge.png');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'The image is too large: at most 40 megapixels.', field: 'photo' });
    expect(await app.db.select().from(files).where(eq(files.uploadedBy, user.id))).toHaveLength(0);
    expect(photoFilesOnDisk(app)).toBe(before);
  });

  it('says "Please select a photo first." without a file, and refuses a file that is not an image', async () => {
    const { app, headers, user } = await signIn('employee');
    const body = multipart({ note: 'x' });
    const none = await app.inject({
      method: 'POST',
      url: `/api/users/${user.id}/upload-photo`,
      payload: body.payload,
      headers: { ...headers, ...body.headers },
    });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ message: 'Please select a photo first.', field: 'photo' });
    const pdf = await upload(app, user.id, headers, SAMPLE_FILES.pdf, 'cv.pdf');
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json().field).toBe('photo');
    const disguised = await upload(app, user.id, headers, SAMPLE_FILES.exe, 'me.png');
    expect(disguised.statusCode).toBe(400);
  });

  it("lets an admin change anyone's photo; refuses another user and a visitor", async () => {
    const app = await buildTestApp();
    const owner = await createUser(app, 'employee');
    const other = await createUser(app, 'employee');
    const admin = await createUser(app, 'admin');
    expect((await upload(app, owner.id, {})).statusCode).toBe(401);
    expect((await upload(app, owner.id, await authHeaders(app, other))).statusCode).toBe(403);
    expect((await upload(app, owner.id, await authHeaders(app, admin))).statusCode).toBe(201);
  });
});
