import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';

import type { Role } from '#shared/constants.ts';
import { REPOSITORY_MESSAGES as M, type SoftwareRepoJson, type TrialRepoJson } from '#shared/schemas/repository.ts';

import { activityLogs, directorEntries, files, type GroupRow, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createGroup, createUser } from '#server/test/factories.ts';
import { multipart, type MultipartFile, SAMPLE_FILES } from '#server/test/multipart.ts';

// The refusals' English (spec §8): the catalogue's sentences of repositories.not_your_group and delete_uploader_only.
const NOT_YOUR_GROUP = 'Associate directors may upload repositories only to their own group.';
const NOT_THE_UPLOADER = 'Only the person who uploaded this repository or an administrator may delete it.';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});

type Fields = Record<string, string | undefined>;
const zip = (filename = 'source.zip', content: Buffer = SAMPLE_FILES.zip): MultipartFile => ({
  field: 'file',
  filename,
  content,
});

/** Sends a multipart upload as `user` (or anonymously); fields first, then the file, as the web form does. */
async function upload(url: string, user: UserRow | null, fields: Fields, file?: MultipartFile) {
  const body = file ? multipart(fields, file) : multipart(fields);
  return app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, ...(user ? authHeaders(app, user) : {}) },
  });
}

/** The same upload with the file part FIRST and the fields after it (some clients do this). */
async function uploadFileFirst(url: string, user: UserRow, fields: Fields, file: MultipartFile) {
  const boundary = `----lp${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.from(file.content),
    Buffer.from('\r\n'),
  ];
  for (const [name, value] of Object.entries(fields)) {
    if (value !== undefined)
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return app.inject({
    method: 'POST',
    url,
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...authHeaders(app, user) },
  });
}

const get = (url: string, user: UserRow | null) =>
  app.inject({ method: 'GET', url, headers: user ? authHeaders(app, user) : {} });
const del = (url: string, user: UserRow | null) =>
  app.inject({ method: 'DELETE', url, headers: user ? authHeaders(app, user) : {} });

const stored = (area: string) => {
  const dir = path.join(app.config.dataDir, 'uploads', area);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};

/** Runs `send` and checks that it left no new file on disk in `area`. */
async function leavesNothing<T>(area: string, send: () => Promise<T>): Promise<T> {
  const before = stored(area);
  const result = await send();
  expect(stored(area)).toEqual(before);
  return result;
}

async function staff(role: Role, group: GroupRow | null) {
  return createUser(app, role, { groupId: group?.id ?? null, name: `${role} ${randomUUID().slice(0, 4)}` });
}

describe('POST /api/softwareRepo', () => {
  it('refuses a visitor (401) and every role but associate director and admin (403), reading no upload', async () => {
    const group = await createGroup(app);
    const fields = { group: group.id, type: 'ZIP File' };
    await leavesNothing('software-repos', async () => {
      expect((await upload('/api/softwareRepo', null, fields, zip())).statusCode).toBe(401);
      for (const role of ['employee', 'director'] as const) {
        const res = await upload('/api/softwareRepo', await staff(role, group), fields, zip());
        expect(res.statusCode).toBe(403);
      }
    });
  });

  it('lets an associate director upload a ZIP with metadata to their group, recording who and what', async () => {
    const group = await createGroup(app, { name: 'Fire Modelling' });
    const ad = await staff('associate_director', group);
    const res = await upload(
      '/api/softwareRepo',
      ad,
      {
        group: group.id,
        type: 'ZIP File',
        githubUrl: 'https://github.com/lab/fire-sim',
        clonedRepoPath: '/srv/git/fire-sim',
        metadata: '{"version":"2.1","tags":["cfd"]}',
      },
      zip('fire-sim v2.zip'),
    );
    expect(res.statusCode).toBe(201);
    const repo = res.json<SoftwareRepoJson>();
    expect(repo).toMatchObject({
      group: { _id: group.id, name: 'Fire Modelling' },
      type: 'ZIP File',
      githubUrl: 'https://github.com/lab/fire-sim',
      clonedRepoPath: '/srv/git/fire-sim',
      metadata: { version: '2.1', tags: ['cfd'] },
      originalName: 'fire-sim v2.zip',
      fileSize: SAMPLE_FILES.zip.length,
      uploadedBy: { _id: ad.id, personalDetails: { name: ad.name } },
    });
    expect(repo.filePath).toMatch(/^\/uploads\/software-repos\/[0-9a-f-]{36}$/);
    expect(stored('software-repos')).toContain(repo.filePath!.split('/').pop());
    const [log] = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, repo._id));
    expect(log).toMatchObject({ userId: ad.id, targetType: 'software_repo' });
    expect(log!.action).toBe(`Uploaded software repository fire-sim v2.zip (ZIP File) for group Fire Modelling`);
  });

  it('accepts a GitHub URL alone, or a cloned path alone, without a file', async () => {
    const group = await createGroup(app);
    const ad = await staff('associate_director', group);
    const byUrl = await upload('/api/softwareRepo', ad, {
      group: group.id,
      type: 'Code',
      githubUrl: 'https://git.lab.local/fire/sim',
    });
    expect(byUrl.statusCode).toBe(201);
    expect(byUrl.json()).toMatchObject({ originalName: null, filePath: null, fileSize: null, metadata: null });
    const byPath = await upload('/api/softwareRepo/', ad, {
      group: group.id,
      type: 'Document',
      clonedRepoPath: 'D:\\repos\\sim',
    });
    expect(byPath.statusCode).toBe(201);
    expect(byPath.json()).toMatchObject({ type: 'Document', clonedRepoPath: 'D:\\repos\\sim' });
  });

  it('lets an admin upload to any group', async () => {
    const group = await createGroup(app);
    const admin = await staff('admin', null);
    const res = await upload('/api/softwareRepo', admin, {
      group: group.id,
      type: 'Code',
      githubUrl: 'https://github.com/lab/x',
    });
    expect(res.statusCode).toBe(201);
  });

  describe('says why the form is refused, keeping no file', () => {
    let group: GroupRow;
    let ad: UserRow;
    beforeAll(async () => {
      group = await createGroup(app);
      ad = await staff('associate_director', group);
    });
    const cases: [string, (g: string) => Fields, string, string][] = [
      ['no group and no type', () => ({ githubUrl: 'https://github.com/a/b' }), M.softwareGroupAndType, 'group'],
      ['no type', (g) => ({ group: g, githubUrl: 'https://github.com/a/b' }), M.softwareGroupAndType, 'type'],
      [
        'a type not offered',
        (g) => ({ group: g, type: 'Video', githubUrl: 'https://github.com/a/b' }),
        M.softwareGroupAndType,
        'type',
      ],
      [
        'a group that is not an id',
        () => ({ group: 'Fire', type: 'Code', githubUrl: 'https://github.com/a/b' }),
        M.softwareGroupAndType,
        'group',
      ],
      [
        'bad JSON metadata',
        (g) => ({ group: g, type: 'Code', githubUrl: 'https://github.com/a/b', metadata: '{version: 2' }),
        M.metadataJson,
        'metadata',
      ],
      [
        'a URL that is not one',
        (g) => ({ group: g, type: 'Code', githubUrl: 'github dot com' }),
        M.githubUrl,
        'githubUrl',
      ],
      [
        'a javascript: URL',
        (g) => ({ group: g, type: 'Code', githubUrl: 'javascript:alert(1)' }),
        M.githubUrl,
        'githubUrl',
      ],
    ];
    it.each(cases)('%s', async (_name, fields, message, field) => {
      const res = await leavesNothing('software-repos', () => upload('/api/softwareRepo', ad, fields(group.id), zip()));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: message, message, field });
    });

    it('needs a file, a GitHub URL or a cloned path (blank ones do not count)', async () => {
      const res = await upload('/api/softwareRepo', ad, {
        group: group.id,
        type: 'Code',
        githubUrl: '  ',
        clonedRepoPath: ' ',
        metadata: '{}',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message: M.softwareSource, field: 'file' });
    });

    it('a group that does not exist', async () => {
      const res = await leavesNothing('software-repos', () =>
        upload('/api/softwareRepo', ad, { group: randomUUID(), type: 'Code' }, zip()),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        field: 'group',
        message: 'The selected group does not exist. Please choose another.',
      });
    });

    it('bad metadata sent after the file is caught once the form has arrived, and the file discarded', async () => {
      const res = await leavesNothing('software-repos', () =>
        uploadFileFirst('/api/softwareRepo', ad, { group: group.id, type: 'Code', metadata: '[1,' }, zip()),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(M.metadataJson);
      expect(await app.db.select().from(files).where(eq(files.uploadedBy, ad.id))).toHaveLength(0);
    });
  });

  it('keeps an associate director to their own group, whichever order the parts come in', async () => {
    const own = await createGroup(app);
    const other = await createGroup(app);
    const ad = await staff('associate_director', own);
    for (const send of [upload, uploadFileFirst]) {
      const res = await leavesNothing('software-repos', () =>
        send('/api/softwareRepo', ad, { group: other.id, type: 'ZIP File' }, zip()),
      );
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(NOT_YOUR_GROUP);
      expect(res.json().code).toBe('repositories.not_your_group');
    }
    const noGroup = await staff('associate_director', null);
    const res = await upload('/api/softwareRepo', noGroup, {
      group: own.id,
      type: 'Code',
      githubUrl: 'https://github.com/a/b',
    });
    expect(res.statusCode).toBe(403);
  });

  it('refuses a renamed .exe by its content and an .exe by its name', async () => {
    const group = await createGroup(app);
    const ad = await staff('associate_director', group);
    await leavesNothing('software-repos', async () => {
      const renamed = await upload(
        '/api/softwareRepo',
        ad,
        { group: group.id, type: 'ZIP File' },
        zip('tools.zip', SAMPLE_FILES.exe),
      );
      expect(renamed.statusCode).toBe(400);
      expect(renamed.json()).toMatchObject({
        message: "The file's content does not match its .zip extension.",
        field: 'file',
      });
      const exe = await upload(
        '/api/softwareRepo',
        ad,
        { group: group.id, type: 'Code' },
        zip('setup.exe', SAMPLE_FILES.exe),
      );
      expect(exe.statusCode).toBe(400);
      expect(exe.json().message).toMatch(/^This file type is not allowed\. Allowed types: pdf, doc, docx, txt, zip/);
    });
  });
});

describe('POST /api/trialRepo', () => {
  let group: GroupRow;
  let ad: UserRow;
  beforeAll(async () => {
    group = await createGroup(app, { name: 'Explosives Trials' });
    ad = await staff('associate_director', group);
  });

  it('refuses a visitor (401) and an employee or director (403)', async () => {
    const fields = { group: group.id, type: 'Field trial' };
    expect((await upload('/api/trialRepo', null, fields, zip())).statusCode).toBe(401);
    expect((await upload('/api/trialRepo', await staff('employee', group), fields, zip())).statusCode).toBe(403);
    expect((await upload('/api/trialRepo', await staff('director', group), fields, zip())).statusCode).toBe(403);
  });

  it('stores a ZIP with its numbers and languages split on commas, trimmed, blanks dropped', async () => {
    const metadata = JSON.stringify({ sizeInKB: '2048.5', duration: 15, languageUsed: ' C, Python,, Go , ' });
    const res = await upload(
      '/api/trialRepo',
      ad,
      {
        group: group.id,
        type: 'Blast chamber run',
        githubUrl: 'https://github.com/lab/trial-7',
        clonedRepoPath: '/srv/trials/7',
        metadata,
      },
      zip('trial-7.zip'),
    );
    expect(res.statusCode).toBe(201);
    const repo = res.json<TrialRepoJson>();
    expect(repo).toMatchObject({
      group: { _id: group.id, name: 'Explosives Trials' },
      type: 'Blast chamber run',
      metadata: { sizeInKB: 2048.5, duration: 15, languageUsed: ['C', 'Python', 'Go'] },
      originalName: 'trial-7.zip',
      uploadedBy: { _id: ad.id, personalDetails: { name: ad.name } },
    });
    expect(repo.filePath).toMatch(/^\/uploads\/trial-repos\/[0-9a-f-]{36}$/);
    const [log] = await app.db
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.targetId, repo._id), eq(activityLogs.targetType, 'trial_repo')));
    expect(log?.action).toBe('Uploaded trial repository trial-7.zip (Blast chamber run) for group Explosives Trials');
  });

  it('takes languages as a list too, and no metadata at all', async () => {
    const list = await upload(
      '/api/trialRepo/',
      ad,
      {
        group: group.id,
        type: 'Notes',
        metadata: JSON.stringify({ languageUsed: ['  Rust ', '', 'Go, C'], sizeInKB: '', duration: null }),
      },
      { field: 'file', filename: 'notes.txt', content: SAMPLE_FILES.txt },
    );
    expect(list.statusCode).toBe(201);
    expect(list.json().metadata).toEqual({ sizeInKB: null, duration: null, languageUsed: ['Rust', 'Go', 'C'] });
    const none = await upload(
      '/api/trialRepo',
      ad,
      { group: group.id, type: 'Photo' },
      { field: 'file', filename: 'rig.png', content: SAMPLE_FILES.png },
    );
    expect(none.statusCode).toBe(201);
    expect(none.json().metadata).toEqual({ sizeInKB: null, duration: null, languageUsed: [] });
  });

  const bad: [string, (g: string) => Fields, boolean, string, string][] = [
    ['no group', () => ({ type: 'Run' }), true, M.trialRequired, 'group'],
    ['no type', (g) => ({ group: g, type: '  ' }), true, M.trialRequired, 'type'],
    ['no file', (g) => ({ group: g, type: 'Run' }), false, M.trialRequired, 'file'],
    [
      'a negative size',
      (g) => ({ group: g, type: 'Run', metadata: '{"sizeInKB":-1}' }),
      true,
      M.sizeInKB,
      'metadata.sizeInKB',
    ],
    [
      'a size that is not a number',
      (g) => ({ group: g, type: 'Run', metadata: '{"sizeInKB":"big"}' }),
      true,
      M.sizeInKB,
      'metadata.sizeInKB',
    ],
    [
      'a negative duration',
      (g) => ({ group: g, type: 'Run', metadata: '{"duration":"-5"}' }),
      true,
      M.duration,
      'metadata.duration',
    ],
    [
      'metadata that is not JSON',
      (g) => ({ group: g, type: 'Run', metadata: 'size=1' }),
      true,
      M.metadataJson,
      'metadata',
    ],
    [
      'metadata that is not an object',
      (g) => ({ group: g, type: 'Run', metadata: '42' }),
      true,
      M.metadataJson,
      'metadata',
    ],
    ['a URL that is not one', (g) => ({ group: g, type: 'Run', githubUrl: 'ftp://x' }), true, M.githubUrl, 'githubUrl'],
  ];
  it.each(bad)('refuses %s with the spec message, keeping no file', async (_name, fields, withFile, message, field) => {
    const res = await leavesNothing('trial-repos', () =>
      upload('/api/trialRepo', ad, fields(group.id), withFile ? zip() : undefined),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: message, message, field });
  });

  it('accepts only the trial file types, by name and by content', async () => {
    await leavesNothing('trial-repos', async () => {
      const exe = await upload(
        '/api/trialRepo',
        ad,
        { group: group.id, type: 'Run' },
        zip('run.exe', SAMPLE_FILES.exe),
      );
      expect(exe.json().message).toBe(
        'This file type is not allowed. Allowed types: pdf, doc, docx, mp4, zip, rar, txt, jpg, jpeg, png, gif.',
      );
      const renamed = await upload(
        '/api/trialRepo',
        ad,
        { group: group.id, type: 'Run' },
        zip('video.mp4', SAMPLE_FILES.exe),
      );
      expect(renamed.statusCode).toBe(400);
      expect(renamed.json().message).toBe("The file's content does not match its .mp4 extension.");
    });
  });

  it('keeps an associate director to their own group', async () => {
    const other = await createGroup(app);
    const res = await leavesNothing('trial-repos', () =>
      upload('/api/trialRepo', ad, { group: other.id, type: 'Run' }, zip()),
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(NOT_YOUR_GROUP);
  });

  it('answers a refusal judged on the first fields at once, and ends the connection instead of stalling the upload', async () => {
    // Over a real socket: the group is refused before the file is read, while the sender is still sending 64 MB.
    const other = await createGroup(app);
    if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const boundary = `----lp${randomBytes(8).toString('hex')}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="group"\r\n\r\n${other.id}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nRun\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.zip"\r\n` +
        `Content-Type: application/zip\r\n\r\n`,
    );
    const fileBytes = 64 * 1024 * 1024;
    const before = stored('trial-repos');
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/api/trialRepo',
      headers: {
        ...authHeaders(app, ad),
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + fileBytes,
      },
    });
    req.on('error', () => {}); // the server ends the connection while this side is still writing
    const closed = new Promise<void>((resolve) => req.on('close', resolve));
    const answer = new Promise<{ status: number; connection?: string; body: string }>((resolve) =>
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
      }),
    );
    req.write(head);
    req.write(SAMPLE_FILES.zip.subarray(0, 4)); // a ZIP's signature, then the rest of the declared 64 MB, slowly
    const chunk = Buffer.alloc(64 * 1024);
    const sending = setInterval(() => !req.destroyed && req.write(chunk), 5);
    try {
      const res = await answer;
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body).message).toBe(NOT_YOUR_GROUP);
      expect(res.connection).toBe('close');
      await closed; // without "close" the server would stop reading and hold the connection until a time-out
    } finally {
      clearInterval(sending);
      req.destroy();
    }
    expect(stored('trial-repos')).toEqual(before);
  });
});

describe('who sees which repository, and downloads its file', () => {
  let alpha: GroupRow;
  let zeta: GroupRow;
  let adAlpha: UserRow;
  let admin: UserRow;
  let memberAlpha: UserRow;
  let memberZeta: UserRow;
  let director: UserRow;
  let trialAlpha: TrialRepoJson;
  let trialZeta: TrialRepoJson;
  let softwareAlpha: SoftwareRepoJson;
  const tag = randomUUID().slice(0, 6);

  beforeAll(async () => {
    zeta = await createGroup(app, { name: `zeta ${tag}` });
    alpha = await createGroup(app, { name: `Alpha ${tag}` });
    adAlpha = await staff('associate_director', alpha);
    admin = await staff('admin', null);
    memberAlpha = await staff('employee', alpha);
    memberZeta = await staff('employee', zeta);
    director = await staff('director', null);
    trialZeta = (await upload('/api/trialRepo', admin, { group: zeta.id, type: 'Zeta run' }, zip('zeta.zip'))).json();
    trialAlpha = (
      await upload('/api/trialRepo', adAlpha, { group: alpha.id, type: 'Alpha run' }, zip('alpha.zip'))
    ).json();
    softwareAlpha = (
      await upload(
        '/api/softwareRepo',
        adAlpha,
        { group: alpha.id, type: 'ZIP File', metadata: '{"v":1}' },
        zip('alpha-src.zip'),
      )
    ).json();
  });

  const ids = (res: { json: () => { _id: string }[] }) => res.json().map((r) => r._id);

  it('refuses a visitor', async () => {
    expect((await get('/api/trialRepo', null)).statusCode).toBe(401);
    expect((await get('/api/softwareRepo', null)).statusCode).toBe(401);
  });

  it('shows staff the repositories of their own group only', async () => {
    const alphaList = ids(await get('/api/trialRepo/', memberAlpha));
    expect(alphaList).toContain(trialAlpha._id);
    expect(alphaList).not.toContain(trialZeta._id);
    expect(ids(await get('/api/softwareRepo', memberAlpha))).toEqual([softwareAlpha._id]);
    const zetaList = ids(await get('/api/trialRepo', memberZeta));
    expect(zetaList).toEqual([trialZeta._id]);
    expect(ids(await get('/api/softwareRepo', memberZeta))).toEqual([]);
    expect(ids(await get('/api/trialRepo', await staff('employee', null)))).toEqual([]);
  });

  it('shows directors and admins every repository, sorted by group name', async () => {
    for (const user of [director, admin]) {
      const list = (await get('/api/trialRepo?limit=100', user))
        .json<TrialRepoJson[]>()
        .filter((r) => r.group.name.endsWith(tag));
      expect(list.map((r) => r._id)).toEqual([trialAlpha._id, trialZeta._id]);
      expect(ids(await get('/api/softwareRepo?limit=100', user))).toContain(softwareAlpha._id);
    }
  });

  it('pages on the server when asked', async () => {
    const res = await get('/api/trialRepo?limit=1&offset=0', director);
    expect(res.json()).toHaveLength(1);
    expect((await get('/api/trialRepo?limit=0', director)).statusCode).toBe(400);
  });

  it('serves the file to those who may see the record, and to no one else', async () => {
    const ok = await get(trialAlpha.filePath!, memberAlpha);
    expect(ok.statusCode).toBe(200);
    expect(ok.rawPayload.equals(SAMPLE_FILES.zip)).toBe(true);
    expect(ok.headers['content-disposition']).toContain('alpha.zip');
    expect(ok.headers['cache-control']).toBe('private, no-store');
    expect((await get(trialAlpha.filePath!, director)).statusCode).toBe(200);
    expect((await get(trialAlpha.filePath!, adAlpha)).statusCode).toBe(200);
    expect((await get(trialAlpha.filePath!, memberZeta)).statusCode).toBe(403);
    expect((await get(trialAlpha.filePath!, null)).statusCode).toBe(401);
    expect((await get(softwareAlpha.filePath!, memberAlpha)).statusCode).toBe(200);
    expect((await get(softwareAlpha.filePath!, memberZeta)).statusCode).toBe(403);
  });

  it('lets the uploader who moved group still see and delete what they uploaded', async () => {
    const mover = await staff('associate_director', zeta);
    const repo = (
      await upload('/api/trialRepo', mover, { group: zeta.id, type: 'Mover run' }, zip())
    ).json<TrialRepoJson>();
    const { users } = await import('#server/db/schema/index.ts');
    await app.db.update(users).set({ groupId: alpha.id }).where(eq(users.id, mover.id));
    expect(ids(await get('/api/trialRepo', mover))).toContain(repo._id);
    expect((await get(repo.filePath!, mover)).statusCode).toBe(200);
    expect((await del(`/api/trialRepo/${repo._id}`, mover)).statusCode).toBe(200);
  });

  describe('DELETE', () => {
    it('refuses a visitor, a group member who did not upload it (403) and an outsider (404)', async () => {
      expect((await del(`/api/trialRepo/${trialAlpha._id}`, null)).statusCode).toBe(401);
      const member = await del(`/api/trialRepo/${trialAlpha._id}`, memberAlpha);
      expect(member.statusCode).toBe(403);
      expect(member.json()).toMatchObject({ message: NOT_THE_UPLOADER, code: 'repositories.delete_uploader_only' });
      expect((await del(`/api/trialRepo/${trialAlpha._id}`, memberZeta)).statusCode).toBe(404);
      expect((await del(`/api/softwareRepo/${softwareAlpha._id}`, director)).statusCode).toBe(403);
      expect((await del('/api/trialRepo/not-an-id', adAlpha)).statusCode).toBe(400);
    });

    it('lets the uploader delete, taking the file and its row with it, and logs it', async () => {
      const fileName = softwareAlpha.filePath!.split('/').pop()!;
      expect(stored('software-repos')).toContain(fileName);
      const res = await del(`/api/softwareRepo/${softwareAlpha._id}`, adAlpha);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: 'Software repository deleted.' });
      expect(stored('software-repos')).not.toContain(fileName);
      expect(await app.db.select().from(files).where(eq(files.id, fileName))).toHaveLength(0);
      expect(ids(await get('/api/softwareRepo', memberAlpha))).toEqual([]);
      expect((await get(softwareAlpha.filePath!, adAlpha)).statusCode).toBe(404);
      const logs = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, softwareAlpha._id));
      expect(logs.map((l) => l.action)).toContain('Deleted software repository (ZIP File)');
      expect((await del(`/api/softwareRepo/${softwareAlpha._id}`, adAlpha)).statusCode).toBe(404);
    });

    it('lets an admin delete what someone else uploaded', async () => {
      expect((await del(`/api/trialRepo/${trialAlpha._id}`, admin)).statusCode).toBe(200);
      expect(ids(await get('/api/trialRepo', memberAlpha))).not.toContain(trialAlpha._id);
    });
  });
});

describe('the size limit', () => {
  it('answers 413 with the limit for a file over LARGE_UPLOAD_MAX_BYTES, leaving nothing behind', async () => {
    const small = await buildTestApp({ LARGE_UPLOAD_MAX_BYTES: String(64 * 1024) });
    const group = await createGroup(small);
    const ad = await createUser(small, 'associate_director', { groupId: group.id });
    const big = Buffer.concat([SAMPLE_FILES.zip, Buffer.alloc(100 * 1024)]);
    for (const url of ['/api/softwareRepo', '/api/trialRepo']) {
      const body = multipart({ group: group.id, type: 'ZIP File' }, zip('big.zip', big));
      const res = await small.inject({
        method: 'POST',
        url,
        payload: body.payload,
        headers: { ...body.headers, ...authHeaders(small, ad) },
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().message).toBe('The file is too large. The limit is 64 KB.');
    }
    for (const area of ['software-repos', 'trial-repos']) {
      const dir = path.join(small.config.dataDir, 'uploads', area);
      expect(existsSync(dir) ? readdirSync(dir) : []).toEqual([]);
    }
    expect(await small.db.select().from(files)).toHaveLength(0);
  });
});

describe('GET /api/repositories/upload-groups (issue 16 item 6)', () => {
  it('offers an associate director only their own group, even one who is named to lead another; an admin every group', async () => {
    const tag = randomUUID().slice(0, 6);
    const own = await createGroup(app, { name: `Own ${tag}` });
    const led = await createGroup(app, { name: `Led ${tag}` });
    const other = await createGroup(app, { name: `Other ${tag}` });
    const ad = await staff('associate_director', own);
    await app.db
      .insert(directorEntries)
      .values({ groupId: led.id, userId: ad.id, designation: 'Assistant Director', from: '2020-01-01' });
    const res = await get('/api/repositories/upload-groups', ad);
    expect(res.statusCode).toBe(200);
    // Named in another group's history without being in it: that group is not theirs (decision 030).
    expect(res.json()).toEqual([{ _id: own.id, name: `Own ${tag}` }]);
    const admin = await staff('admin', null);
    const all = (await get('/api/repositories/upload-groups', admin)).json() as { _id: string }[];
    expect(all.map((g) => g._id)).toEqual(expect.arrayContaining([own.id, led.id, other.id]));
    const lonely = await staff('associate_director', null);
    expect((await get('/api/repositories/upload-groups', lonely)).json()).toEqual([]);
  });

  it('refuses a visitor (401) and staff who may not upload (403)', async () => {
    expect((await get('/api/repositories/upload-groups', null)).statusCode).toBe(401);
    for (const role of ['employee', 'director'] as const) {
      expect((await get('/api/repositories/upload-groups', await staff(role, null))).statusCode).toBe(403);
    }
  });
});
