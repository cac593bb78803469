import { randomBytes, randomUUID } from 'node:crypto';

import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';

import { REPOSITORY_MESSAGES as M, type SoftwareRepoJson } from '#shared/schemas/repository.ts';

import { activityLogs, files, type GroupRow, type UserRow } from '#server/db/schema/index.ts';
import { authHeaders, createGroup } from '#server/test/factories.ts';
import { type MultipartFile, SAMPLE_FILES } from '#server/test/multipart.ts';

import {
  app,
  type Fields,
  leavesNothing,
  NOT_YOUR_GROUP,
  staff,
  stored,
  upload,
  zip,
} from './repositories.test-helpers.ts';

// POST /api/softwareRepo: who may upload, what the form takes and what it refuses.

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
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...(await authHeaders(app, user)) },
  });
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

  it('takes the type written "ZIP" (spec §3) as "ZIP File" (§2, §9), stored and answered in one spelling', async () => {
    const group = await createGroup(app);
    const ad = await staff('associate_director', group);
    const res = await upload('/api/softwareRepo', ad, { group: group.id, type: 'ZIP' }, zip('spelled.zip'));
    expect(res.statusCode).toBe(201);
    expect(res.json<SoftwareRepoJson>().type).toBe('ZIP File');
    const list = await app.inject({ url: '/api/softwareRepo', headers: await authHeaders(app, ad) });
    expect(list.json<SoftwareRepoJson[]>().find((r) => r.originalName === 'spelled.zip')?.type).toBe('ZIP File');
    const wrong = await upload('/api/softwareRepo', ad, { group: group.id, type: 'Zip file' }, zip());
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ message: M.softwareGroupAndType });
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
