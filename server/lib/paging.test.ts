import { randomUUID } from 'node:crypto';

import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';

import {
  activityLogs,
  groupItems,
  labPhotos,
  letters,
  softwareRepos,
  trialRepos,
  type UserRow,
} from '#server/db/schema/index.ts';
import { labChanged } from '#server/modules/labs/labs.cache.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, createGroup, createLab, createUser } from '#server/test/factories.ts';

import { nextPageUrl, totalFromLastPage } from './paging.ts';

// Every spec list that answers an array a page at a time says how many match (X-Total-Count) and
// where the next page is (Link rel="next", absent on the last page); the body stays exactly the array.

let app: FastifyInstance;
let admin: UserRow;
let adminHeaders: Record<string, string>;

beforeAll(async () => {
  app = await buildTestApp();
  admin = await createUser(app, 'admin');
  adminHeaders = await authHeaders(app, admin);
});

const get = (url: string, headers: Record<string, string> = adminHeaders) =>
  app.inject({ method: 'GET', url, headers });

/** The next page's address from a Link header, or undefined. */
function nextLink(res: LightMyRequestResponse): string | undefined {
  const link = res.headers.link;
  if (link === undefined) return undefined;
  const m = /^<([^>]+)>; rel="next"$/.exec(String(link));
  expect(m, `Link header ${String(link)}`).not.toBeNull();
  return m![1];
}

/** Follows Link rel="next" from `url` to the end: every page's array, and the X-Total-Count each page sent. */
async function walk(url: string, headers?: Record<string, string>) {
  const pages: unknown[][] = [];
  const totals: string[] = [];
  let next: string | undefined = url;
  while (next) {
    const res = await get(next, headers);
    expect(res.statusCode).toBe(200);
    const body = res.json() as unknown[];
    expect(Array.isArray(body)).toBe(true);
    pages.push(body);
    totals.push(String(res.headers['x-total-count']));
    next = nextLink(res);
    expect(pages.length).toBeLessThan(50);
  }
  return { pages, totals, items: pages.flat() };
}

let letterNumber = 0;
async function insertLetters(uploadedBy: string, n: number, values: Partial<typeof letters.$inferInsert> = {}) {
  const base = Date.now() - 1_000_000;
  await app.db.insert(letters).values(
    Array.from({ length: n }, () => {
      letterNumber += 1;
      return {
        letterId: `L-2026-${String(900000 + letterNumber).padStart(6, '0')}`,
        letterSub: `Subject ${letterNumber}`,
        letterNo: `No ${letterNumber}`,
        letterDate: '2026-01-01',
        docketNo: `D ${letterNumber}`,
        docketDate: '2026-01-01',
        category: 'General',
        establishment: 'HQ',
        letterLanguage: 'English',
        letterCommunBy: 'Post',
        letterUploadDate: new Date(base + letterNumber * 1000),
        uploadedBy,
        ...values,
      };
    }),
  );
}

describe('the paging helper', () => {
  it('keeps the other query parameters and sets the next limit and offset', () => {
    expect(nextPageUrl('/api/dac?q=fire%20safety&mine=true&offset=0', 20, 20)).toBe(
      '/api/dac?q=fire+safety&mine=true&offset=20&limit=20',
    );
    expect(nextPageUrl('/api/labs/x/photos?limit=3', 3, 3, 'skip')).toBe('/api/labs/x/photos?limit=3&skip=3');
  });

  it('knows the total from a last page without counting', () => {
    expect(totalFromLastPage({ limit: 20, offset: 40 }, 7)).toBe(47);
    expect(totalFromLastPage({ limit: 20, offset: 0 }, 0)).toBe(0);
    expect(totalFromLastPage({ limit: 20, offset: 0 }, 20)).toBeUndefined();
    expect(totalFromLastPage({ limit: 20, offset: 60 }, 0)).toBeUndefined(); // past the end: counted
  });
});

describe('GET /api/dac', () => {
  it('sends X-Total-Count and Link on the first page, no Link on the last, the body the same array', async () => {
    const uploader = await createUser(app, 'employee');
    await insertLetters(uploader.id, 45);
    const headers = await authHeaders(app, uploader);
    const first = await get('/api/dac', headers);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toHaveLength(20);
    expect(first.headers['x-total-count']).toBe('45');
    expect(first.headers['x-total-count-capped']).toBeUndefined();
    expect(nextLink(first)).toBe('/api/dac?limit=20&offset=20');
    const last = await get('/api/dac?limit=20&offset=40', headers);
    expect(last.json()).toHaveLength(5);
    expect(last.headers['x-total-count']).toBe('45');
    expect(last.headers.link).toBeUndefined();
    const { items, totals } = await walk('/api/dac?limit=20', headers);
    expect(items).toHaveLength(45);
    expect(new Set(items.map((l) => (l as { _id: string })._id)).size).toBe(45);
    expect(new Set(totals)).toEqual(new Set(['45']));
    // Past the end: an empty array, the total still counted.
    const past = await get('/api/dac?offset=100', headers);
    expect(past.json()).toEqual([]);
    expect(past.headers['x-total-count']).toBe('45');
    expect(past.headers.link).toBeUndefined();
  });

  it('counts only what the search and the caller may see, and keeps the search in Link', async () => {
    const uploader = await createUser(app, 'employee');
    await insertLetters(uploader.id, 12, { letterSub: 'Kiln maintenance schedule' });
    await insertLetters(uploader.id, 3, { letterSub: 'Canteen menu' });
    const headers = await authHeaders(app, uploader);
    const res = await get('/api/dac?q=kiln&limit=5', headers);
    expect(res.json()).toHaveLength(5);
    expect(res.headers['x-total-count']).toBe('12');
    expect(nextLink(res)).toBe('/api/dac?q=kiln&limit=5&offset=5');
    const { items } = await walk('/api/dac?q=kiln&limit=5', headers);
    expect(items).toHaveLength(12);
    // Another employee sees none of them; `mine` counts only the caller's letters.
    const other = await get('/api/dac?q=kiln', await authHeaders(app, await createUser(app, 'employee')));
    expect(other.json()).toEqual([]);
    expect(other.headers['x-total-count']).toBe('0');
    expect(other.headers.link).toBeUndefined();
    const mine = await get('/api/dac?mine=true&limit=10', headers);
    expect(mine.headers['x-total-count']).toBe('15');
    expect(nextLink(mine)).toBe('/api/dac?mine=true&limit=10&offset=10');
    // A complete Letter ID: that letter alone.
    const [one] = (await get('/api/dac?q=kiln&limit=1', headers)).json() as { letterId: string }[];
    const byId = await get(`/api/dac?q=${one!.letterId}`, headers);
    expect(byId.headers['x-total-count']).toBe('1');
  });
});

describe('GET /api/dac/recycle-bin', () => {
  it('pages the recycle bin with its total', async () => {
    const before = Number((await get('/api/dac/recycle-bin?limit=1')).headers['x-total-count']);
    await insertLetters(admin.id, 4, { deletedAt: new Date(), deletedBy: admin.id });
    const first = await get('/api/dac/recycle-bin?limit=2');
    expect(first.json()).toHaveLength(2);
    expect(first.headers['x-total-count']).toBe(String(before + 4));
    expect(nextLink(first)).toBe('/api/dac/recycle-bin?limit=2&offset=2');
    const { items } = await walk('/api/dac/recycle-bin?limit=2');
    expect(items).toHaveLength(before + 4);
  });
});

describe('GET /admin/pending-users', () => {
  it('pages the people waiting for approval, counting only them', async () => {
    for (let i = 0; i < 3; i++) await createUser(app, 'employee', { status: 'pending' });
    await createUser(app, 'employee'); // approved: not counted
    const total = (await walk('/admin/pending-users?limit=100')).items.length;
    expect(total).toBeGreaterThanOrEqual(3);
    const first = await get('/admin/pending-users?limit=2');
    expect(first.json()).toHaveLength(2);
    expect(first.headers['x-total-count']).toBe(String(total));
    expect(nextLink(first)).toBe('/admin/pending-users?limit=2&offset=2');
    const last = await get(`/admin/pending-users?limit=2&offset=${total - 1}`);
    expect(last.json()).toHaveLength(1);
    expect(last.headers.link).toBeUndefined();
    expect((await get('/admin/pending-users', await authHeaders(app, await createUser(app)))).statusCode).toBe(403);
  });
});

describe('GET /api/softwareRepo and /api/trialRepo', () => {
  it("count the repositories the caller may see: their group's, not another's", async () => {
    const mine = await createGroup(app);
    const theirs = await createGroup(app);
    const member = await createUser(app, 'employee', { groupId: mine.id });
    for (const groupId of [mine.id, mine.id, mine.id, theirs.id]) {
      await app.db.insert(softwareRepos).values({ groupId, type: 'Code', githubUrl: 'https://example.org/r.git' });
      await app.db.insert(trialRepos).values({ groupId, type: 'Trial', githubUrl: 'https://example.org/t.git' });
    }
    const headers = await authHeaders(app, member);
    for (const url of ['/api/softwareRepo', '/api/trialRepo', '/api/trialRepo/']) {
      const first = await get(`${url}?limit=2`, headers);
      expect(first.json()).toHaveLength(2);
      expect(first.headers['x-total-count']).toBe('3');
      expect(nextLink(first)).toBe(`${url}?limit=2&offset=2`);
      const last = await get(`${url}?limit=2&offset=2`, headers);
      expect(last.json()).toHaveLength(1);
      expect(last.headers['x-total-count']).toBe('3');
      expect(last.headers.link).toBeUndefined();
    }
    // An admin sees every group's.
    const all = await get('/api/softwareRepo?limit=1');
    expect(Number(all.headers['x-total-count'])).toBeGreaterThanOrEqual(4);
  });
});

describe('GET /api/labs/{id}/photos', () => {
  it('pages with ?skip&limit, Link carrying skip', async () => {
    const lab = await createLab(app);
    const before = Number((await get(`/api/labs/${lab.id}/photos`, {})).headers['x-total-count']);
    await app.db.insert(labPhotos).values(Array.from({ length: 4 }, (_, i) => ({ labId: lab.id, name: `P${i}` })));
    labChanged(app.db); // rows written behind the app's back: forget the cached lab reads, as a lab write does
    const first = await get(`/api/labs/${lab.id}/photos`, {});
    expect(first.json()).toHaveLength(3); // the spec's page of 3
    expect(first.headers['x-total-count']).toBe(String(before + 4));
    expect(nextLink(first)).toBe(`/api/labs/${lab.id}/photos?limit=3&skip=3`);
    const { items } = await walk(`/api/labs/${lab.id}/photos`, {});
    expect(items).toHaveLength(before + 4);
  });
});

describe('GET /api/group-files/{groupId}/{field} and GET /api/group-files', () => {
  it("pages one group's list, counting that list only", async () => {
    const group = await createGroup(app);
    const other = await createGroup(app);
    await app.db
      .insert(groupItems)
      .values([
        ...Array.from({ length: 5 }, (_, i) => ({ groupId: group.id, kind: 'project' as const, name: `Project ${i}` })),
        { groupId: group.id, kind: 'patent' as const, name: 'A patent' },
        { groupId: other.id, kind: 'project' as const, name: 'Not ours' },
      ]);
    const first = await get(`/api/group-files/${group.id}/projects?limit=2`);
    expect(first.json()).toHaveLength(2);
    expect(first.headers['x-total-count']).toBe('5');
    expect(nextLink(first)).toBe(`/api/group-files/${group.id}/projects?limit=2&offset=2`);
    const { items } = await walk(`/api/group-files/${group.id}/projects?limit=2`);
    expect(items).toHaveLength(5);
    const patents = await get(`/api/group-files/${group.id}/patents`);
    expect(patents.headers['x-total-count']).toBe('1');
    expect(patents.headers.link).toBeUndefined();
  });

  it('pages the groups of the achievements list', async () => {
    await createGroup(app);
    await createGroup(app);
    const total = (await walk('/api/group-files?limit=100', {})).items.length;
    const first = await get('/api/group-files?limit=1', {});
    expect(first.json()).toHaveLength(1);
    expect(first.headers['x-total-count']).toBe(String(total));
    expect(nextLink(first)).toBe('/api/group-files?limit=1&offset=1');
    expect((await walk('/api/group-files?limit=1', {})).items).toHaveLength(total);
  });
});

describe('GET /api/groups/staff', () => {
  it('pages the search, Link keeping q', async () => {
    const tag = randomUUID().slice(0, 8);
    for (let i = 0; i < 3; i++) await createUser(app, 'employee', { name: `Staff ${tag} ${i}` });
    const first = await get(`/api/groups/staff?q=${tag}&limit=2`);
    expect(first.json()).toHaveLength(2);
    expect(first.headers['x-total-count']).toBe('3');
    expect(nextLink(first)).toBe(`/api/groups/staff?q=${tag}&limit=2&offset=2`);
    const last = await get(`/api/groups/staff?q=${tag}&limit=2&offset=2`);
    expect(last.headers.link).toBeUndefined();
  });
});

describe('GET /admin/logs', () => {
  it('tells the array form how many match and where the page form goes on', async () => {
    const actor = await createUser(app, 'employee');
    await app.db
      .insert(activityLogs)
      .values(Array.from({ length: 105 }, (_, i) => ({ userId: actor.id, action: `Paging check ${i}` })));
    const array = await get(`/admin/logs?userId=${actor.id}`);
    expect(array.json()).toHaveLength(100);
    expect(array.headers['x-total-count']).toBe('105');
    expect(nextLink(array)).toBe(`/admin/logs?userId=${actor.id}&limit=100&offset=100`);
    const page = await get(nextLink(array)!);
    expect(page.json()).toMatchObject({ total: 105, capped: false });
    expect((page.json() as { items: unknown[] }).items).toHaveLength(5);
    expect(page.headers['x-total-count']).toBe('105');
    expect(page.headers.link).toBeUndefined();
  });

  it('says when the count stopped at its cap', async () => {
    const actor = await createUser(app, 'employee');
    await app.db
      .insert(activityLogs)
      .values(Array.from({ length: 1001 }, (_, i) => ({ userId: actor.id, action: `Capped ${i}` })));
    const res = await get(`/admin/logs?userId=${actor.id}&limit=10`);
    expect(res.headers['x-total-count']).toBe('1000');
    expect(res.headers['x-total-count-capped']).toBe('true');
    expect(nextLink(res)).toBe(`/admin/logs?userId=${actor.id}&limit=10&offset=10`);
  });
});

describe('the API docs', () => {
  it('name the paging headers on every paged list', async () => {
    const doc = (await get('/api/docs/json')).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>;
    };
    for (const path of [
      '/api/dac',
      '/api/dac/recycle-bin',
      '/admin/pending-users',
      '/admin/logs',
      '/api/softwareRepo',
      '/api/trialRepo',
      '/api/labs/{id}/photos',
      '/api/group-files/{groupId}/projects',
      '/api/group-files',
      '/api/groups/staff',
    ]) {
      const headers = doc.paths[path]!.get!.responses['200']!.headers;
      expect(Object.keys(headers ?? {}), path).toEqual(['X-Total-Count', 'X-Total-Count-Capped', 'Link']);
    }
    expect(doc.paths['/api/dac/{id}']!.get!.responses['200']!.headers).toBeUndefined();
  });
});
