import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';

import type { SoftwareRepoJson, TrialRepoJson } from '#shared/schemas/repository.ts';

import { activityLogs, directorEntries, files, type GroupRow, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createGroup, createUser } from '#server/test/factories.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';

import { app, staff, stored, upload, zip } from './repositories.test-helpers.ts';

// Who sees which repository and downloads or deletes it, the size limit, and the groups one may upload to.

// The refusal's English (spec §8): the catalogue's sentence of repositories.delete_uploader_only.
const NOT_THE_UPLOADER = 'Only the person who uploaded this repository or an administrator may delete it.';

const get = async (url: string, user: UserRow | null): Promise<LightMyRequestResponse> =>
  app.inject({ method: 'GET', url, headers: user ? await authHeaders(app, user) : {} });
const del = async (url: string, user: UserRow | null): Promise<LightMyRequestResponse> =>
  app.inject({ method: 'DELETE', url, headers: user ? await authHeaders(app, user) : {} });

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
        headers: { ...body.headers, ...(await authHeaders(small, ad)) },
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
