import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { activityLogs, closeGroupMembers, closeGroups, files, groups, users } from '#server/db/schema/index.ts';
import { buildTestApp, buildTestAppBeforeAll } from '#server/test/app.ts';
import { authHeaders, createGroup, createUser, expectKeptCopy, signIn, TEST_PASSWORD } from '#server/test/factories.ts';
import { multipart, pngClaiming, SAMPLE_FILES } from '#server/test/multipart.ts';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { PROFILE_PHOTO_MAX_PX } from '#shared/constants.ts';

buildTestAppBeforeAll();

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

describe('GET /api/users (employee directory)', () => {
  it('refuses a visitor who is not signed in', async () => {
    const app = await buildTestApp();
    expect((await app.inject({ method: 'GET', url: '/api/users' })).statusCode).toBe(401);
  });

  it('answers an array of approved staff only, with the directory card fields and nothing private', async () => {
    const { app, headers } = await signIn('employee');
    const group = await createGroup(app);
    const colleague = await createUser(app, 'director', {
      name: 'Dir Colleague',
      groupId: group.id,
      designation: "Scientist 'D'",
      mobile: '9999999999',
    });
    const pending = await createUser(app, 'employee', { status: 'pending', name: 'Pending Person' });
    const gone = await createUser(app, 'employee', { status: 'deactivated', name: 'Gone Person' });
    const res = await app.inject({ method: 'GET', url: '/api/users', headers });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(Array.isArray(list)).toBe(true);
    const ids = list.map((u: { _id: string }) => u._id);
    expect(ids).toContain(colleague.id);
    expect(ids).not.toContain(pending.id);
    expect(ids).not.toContain(gone.id);
    const card = list.find((u: { _id: string }) => u._id === colleague.id);
    expect(card).toEqual({
      _id: colleague.id,
      email: colleague.email,
      role: 'director',
      photo: null,
      group: { _id: group.id, name: group.name },
      personalDetails: { name: 'Dir Colleague', fullName: 'Dir Colleague' },
      professionalDetails: { designation: "Scientist 'D'", cadre: '', intercom: '' },
    });
    expect(res.body).not.toContain('9999999999');
    expect(res.body).not.toContain('argon2');
  });

  it('filters by role, group and a search of name or email, case-insensitively, in the database', async () => {
    const { app, headers } = await signIn('employee');
    const group = await createGroup(app);
    const tag = Math.random().toString(36).slice(2, 8);
    const a = await createUser(app, 'employee', { name: `Zed ${tag} Kumar`, groupId: group.id });
    const b = await createUser(app, 'director', { name: `Other ${tag}`, groupId: group.id });
    const c = await createUser(app, 'employee', { name: 'Someone Else', email: `${tag}-c@lab.test` });
    const ids = async (qs: string) =>
      (await app.inject({ method: 'GET', url: `/api/users?${qs}`, headers })).json().map((u: { _id: string }) => u._id);
    expect(await ids(`q=${tag.toUpperCase()}`)).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
    expect(await ids(`q=${tag}&role=employee`)).toEqual(expect.arrayContaining([a.id, c.id]));
    expect(await ids(`q=${tag}&role=employee`)).not.toContain(b.id);
    expect(await ids(`groupId=${group.id}`)).toEqual([b.id, a.id]); // by name: Other…, Zed…
    expect(await ids(`q=${encodeURIComponent('%')}`)).toEqual([]); // % is taken literally
    expect(await ids('role=&groupId=&q=')).toContain(a.id); // cleared filters mean no filter
  });

  it('answers a page {items, total} when limit or offset is given', async () => {
    const { app, headers } = await signIn('employee');
    const group = await createGroup(app);
    for (let i = 0; i < 3; i++) await createUser(app, 'employee', { name: `Paged ${i}`, groupId: group.id });
    const first = await app.inject({ method: 'GET', url: `/api/users?groupId=${group.id}&limit=2`, headers });
    expect(first.json()).toMatchObject({ total: 3 });
    expect(first.json().items.map((u: { personalDetails: { name: string } }) => u.personalDetails.name)).toEqual([
      'Paged 0',
      'Paged 1',
    ]);
    const second = await app.inject({ method: 'GET', url: `/api/users?groupId=${group.id}&limit=2&offset=2`, headers });
    expect(second.json()).toMatchObject({ total: 3, items: [{ personalDetails: { name: 'Paged 2' } }] });
  });

  it('answers a repeated search from its kept copy (same ETag, 304) until a card or the list changes, on any path', async () => {
    const { app, headers } = await signIn('employee');
    const admin = await createUser(app, 'admin');
    const group = await createGroup(app);
    const tag = Math.random().toString(36).slice(2, 8);
    const person = await createUser(app, 'employee', { name: `Kept ${tag}`, groupId: group.id });
    const url = `/api/users?q=${tag}`;
    const ask = (extra: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url, headers: { ...headers, ...extra } });
    const names = async () =>
      (await ask()).json().map((u: { personalDetails: { name: string } }) => u.personalDetails.name);

    const etag = await expectKeptCopy(ask);

    // Neither the person's own "about" nor a password change is on a card: the kept answer stays.
    const own = authHeaders(app, person);
    const about = await app.inject({
      method: 'PUT',
      url: `/api/users/${person.id}`,
      headers: own,
      payload: { about: 'New about.' },
    });
    expect(about.statusCode, about.body).toBe(200);
    expect((await ask()).headers.etag).toBe(etag);

    // A new colleague is listed at once; so is a new designation, a rename of the group and one made straight in SQL.
    await createUser(app, 'employee', { name: `Kept ${tag} Second` });
    expect(await names()).toEqual([`Kept ${tag}`, `Kept ${tag} Second`]);
    const designation = await app.inject({
      method: 'PUT',
      url: `/api/users/${person.id}`,
      headers: own,
      payload: { professionalDetails: { designation: 'Scientist F' } },
    });
    expect(designation.statusCode, designation.body).toBe(200);
    const card = () => ask().then((r) => r.json().find((u: { _id: string }) => u._id === person.id));
    expect((await card()).professionalDetails.designation).toBe('Scientist F');
    await app.db
      .update(groups)
      .set({ name: `Renamed ${tag}` })
      .where(eq(groups.id, group.id));
    expect((await card()).group.name).toBe(`Renamed ${tag}`);
    await app.db.update(users).set({ status: 'deactivated' }).where(eq(users.id, person.id));
    expect(await names()).toEqual([`Kept ${tag} Second`]);

    // Every signed-in person sees the same directory: an admin's copy is the employee's.
    const again = await ask();
    const asAdmin = await app.inject({ method: 'GET', url, headers: authHeaders(app, admin) });
    expect(asAdmin.headers.etag).toBe(again.headers.etag);
    expect(asAdmin.body).toBe(again.body);
  });

  it('locks the directory version at the commit, so two writers never wait on each other crosswise', async () => {
    const app = await buildTestApp();
    const [first, second] = await Promise.all([createUser(app, 'employee'), createUser(app, 'employee')]);
    const lockWaits = async () =>
      (
        await app.pgPool.query<{ n: number }>(
          "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        )
      ).rows[0]!.n;
    let lone: Promise<unknown> | undefined;
    // A transaction changes one card, then, while another writer changes a second card alone, that second card too. Had
    // the version been locked at the first change, the lone writer would wait for it holding the second card, and the
    // transaction would wait for the second card holding the version: PostgreSQL's deadlock error.
    await app.db.transaction(async (tx) => {
      await tx.update(users).set({ designation: 'Scientist E' }).where(eq(users.id, first.id));
      lone = app.db.update(users).set({ designation: 'Scientist F' }).where(eq(users.id, second.id));
      const settled = lone.then(
        () => true,
        () => true,
      );
      await vi.waitFor(
        async () => expect((await Promise.race([settled, lockWaits().then((n) => n > 0)])) || false).toBe(true),
        {
          timeout: 5000,
          interval: 50,
        },
      );
      await tx.update(users).set({ cadre: 'DRDS' }).where(eq(users.id, second.id));
    });
    await lone;
    const [row] = await app.db.select().from(users).where(eq(users.id, second.id));
    expect(row).toMatchObject({ designation: 'Scientist F', cadre: 'DRDS' });
  });

  it.each([
    ['role=chief', 'Please choose a role from the list.', 'role'],
    ['groupId=nope', 'Please choose a group from the list.', 'groupId'],
    ['limit=0', undefined, 'limit'],
    ['limit=101', undefined, 'limit'],
    ['offset=-1', undefined, 'offset'],
    [`q=${'x'.repeat(201)}`, 'The search text is too long.', 'q'],
  ])('refuses ?%s with a 400', async (qs, message, field) => {
    const { app, headers } = await signIn('employee');
    const res = await app.inject({ method: 'GET', url: `/api/users?${qs}`, headers });
    expect(res.statusCode).toBe(400);
    expect(res.json().field).toBe(field);
    if (message) expect(res.json().message).toBe(message);
  });
});

describe('GET /api/users/:id', () => {
  it('shows the owner their whole profile, with documents', async () => {
    const { app, headers, user } = await signIn('employee', { mobile: '9876543210' });
    const res = await app.inject({ method: 'GET', url: `/api/users/${user.id}`, headers });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      _id: user.id,
      email: user.email,
      personalDetails: { mobile: '9876543210' },
      documents: [],
    });
    expect(res.body).not.toContain('argon2');
  });

  it('lists the close groups the person belongs to (spec §3 User: closeGroup), and only theirs', async () => {
    const { app, headers, user } = await signIn('employee');
    const [mine] = await app.db
      .insert(closeGroups)
      .values({
        groupName: 'Blast study',
        groupPurpose: 'Trials',
        durationFrom: '2026-01-01',
        durationTo: '2026-12-31',
      })
      .returning();
    await app.db
      .insert(closeGroups)
      .values({ groupName: 'Not mine', groupPurpose: 'Other', durationFrom: '2026-01-01', durationTo: '2026-12-31' });
    await app.db.insert(closeGroupMembers).values({ closeGroupId: mine!.id, userId: user.id });
    const res = await app.inject({ method: 'GET', url: `/api/users/${user.id}`, headers });
    expect(res.json().closeGroup).toEqual([
      {
        _id: mine!.id,
        groupName: 'Blast study',
        groupPurpose: 'Trials',
        groupDuration: { from: '2026-01-01', to: '2026-12-31' },
      },
    ]);
    const other = await signIn('employee');
    const empty = await other.app.inject({ method: 'GET', url: `/api/users/${other.user.id}`, headers: other.headers });
    expect(empty.json().closeGroup).toEqual([]);
  });

  it('lets an admin read anyone, refuses another user and a visitor, and 404s an unknown id', async () => {
    const app = await buildTestApp();
    const owner = await createUser(app, 'employee');
    const other = await createUser(app, 'director');
    const admin = await createUser(app, 'admin');
    const url = `/api/users/${owner.id}`;
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const denied = await app.inject({ method: 'GET', url, headers: authHeaders(app, other) });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('You may only view or change your own profile.');
    expect((await app.inject({ method: 'GET', url, headers: authHeaders(app, admin) })).json()._id).toBe(owner.id);
    const missing = await app.inject({
      method: 'GET',
      url: '/api/users/00000000-0000-4000-8000-000000000000',
      headers: authHeaders(app, admin),
    });
    expect(missing.statusCode).toBe(404);
    const bad = await app.inject({ method: 'GET', url: '/api/users/not-a-uuid', headers: authHeaders(app, admin) });
    expect(bad.statusCode).toBe(400);
  });
});

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
    const denied = await app.inject({ method: 'PUT', url, headers: authHeaders(app, other), payload: { about: 5 } });
    expect(denied.statusCode).toBe(403);
    const ok = await app.inject({
      method: 'PUT',
      url,
      headers: authHeaders(app, admin),
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
    expect((await upload(app, owner.id, authHeaders(app, other))).statusCode).toBe(403);
    expect((await upload(app, owner.id, authHeaders(app, admin))).statusCode).toBe(201);
  });
});

describe('PUT /api/users/:id/password', () => {
  it('changes the password with the current one, ends older sessions and hands this device a new token', async () => {
    const { app, headers, user } = await signIn('employee');
    await new Promise((r) => setTimeout(r, 5)); // the new stamp must differ from the one in the old token
    const res = await app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}/password`,
      headers,
      payload: { currentPassword: TEST_PASSWORD, newPassword: 'new-secret-1' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Password changed successfully!', token: expect.any(String) });
    expect(String(res.headers['set-cookie'])).toMatch(/lp_token=/);
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode).toBe(401);
    const fresh = { authorization: `Bearer ${res.json().token}` };
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers: fresh })).statusCode).toBe(200);
    const oldLogin = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: TEST_PASSWORD },
    });
    expect(oldLogin.statusCode).toBe(401);
    const newLogin = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'new-secret-1' },
    });
    expect(newLogin.statusCode).toBe(200);
    expect((await logsOf(app, user.id)).map((l) => l.action)).toContain('Changed own password');
  });

  it.each([
    [
      { currentPassword: 'wrong-one', newPassword: 'new-secret-1' },
      'The current password is not correct.',
      'currentPassword',
    ],
    [{ newPassword: 'new-secret-1' }, 'Please enter your current password.', 'currentPassword'],
    [{ currentPassword: TEST_PASSWORD, newPassword: '' }, 'Password is required.', 'newPassword'],
    [
      { currentPassword: TEST_PASSWORD, newPassword: '12345' },
      'Password must be at least 6 characters.',
      'newPassword',
    ],
    [
      { currentPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD },
      'The new password must differ from the current one.',
      'newPassword',
    ],
  ])('refuses %j with "%s"', async (payload, message, field) => {
    const { app, headers, user } = await signIn('employee');
    const res = await app.inject({ method: 'PUT', url: `/api/users/${user.id}/password`, headers, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, field });
    expect((await app.inject({ method: 'GET', url: '/api/auth/me', headers })).statusCode).toBe(200);
  });

  it('refuses a visitor, another user and even an admin (admins reset instead)', async () => {
    const app = await buildTestApp();
    const owner = await createUser(app, 'employee');
    const url = `/api/users/${owner.id}/password`;
    const payload = { currentPassword: TEST_PASSWORD, newPassword: 'new-secret-1' };
    expect((await app.inject({ method: 'PUT', url, payload })).statusCode).toBe(401);
    for (const role of ['employee', 'admin'] as const) {
      const other = await createUser(app, role);
      const res = await app.inject({ method: 'PUT', url, payload, headers: authHeaders(app, other) });
      expect(res.statusCode).toBe(403);
    }
  });
});
