import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';

import type { SearchAnswerJson } from '#shared/schemas/search.ts';

import { letters, searchDocuments, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { uniqueWord } from '#server/test/documents.ts';
import { authHeaders, createUser, letterFields, letterPdf, postLetter } from '#server/test/factories.ts';

// Letters marked to or by a reader, in the portal search (decision 015 with decision 020): each
// letter's entry names everyone it was marked to or by, so a search costs the same however many letters its reader
// handled, and finds them only for those the letters module lets see them.

let app: FastifyInstance;
let admin: UserRow;

beforeAll(async () => {
  app = await buildTestApp();
  admin = await createUser(app, 'admin');
});

type Who = UserRow | null;
const call = async (
  method: 'GET' | 'POST' | 'PUT',
  who: Who,
  url: string,
  payload?: object,
): Promise<LightMyRequestResponse> =>
  app.inject({ method, url, ...(payload ? { payload } : {}), headers: who ? await authHeaders(app, who) : {} });

async function search(who: Who, q: string, extra = ''): Promise<SearchAnswerJson> {
  const res = await call('GET', who, `/api/search?q=${encodeURIComponent(q)}&kinds=letter${extra}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const found = async (who: Who, q: string) => (await search(who, q)).results.map((r) => r._id);

async function upload(who: UserRow, letterSub: string, classification = 'Normal') {
  const res = await postLetter(app, who, letterFields({ letterSub, classification }), letterPdf());
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { _id: string; letterId: string };
}
async function ok(method: 'POST' | 'PUT', who: UserRow, url: string, payload: object = {}) {
  const res = await call(method, who, url, payload);
  expect(res.statusCode, res.body).toBeLessThan(300);
}
const clear = (who: UserRow, cleared: boolean) => ok('PUT', admin, `/admin/users/${who.id}/clearance`, { cleared });

describe('GET /api/search: a reader involved in thousands of letters (issue 28 item 1)', () => {
  it('an officer involved in 5,000 letters gets 200 with the letters they may see, and the process lives', async () => {
    const [busy, sender, bystander] = [await createUser(app), await createUser(app), await createUser(app)];
    const word = uniqueWord();
    const tag = word.slice(-6).toUpperCase();
    // 5,000 letters of `sender`, every fifth Confidential; half marked to the officer, half by the officer.
    await app.db.execute(sql`
      insert into letters (letter_id, letter_sub, letter_no, letter_date, docket_no, docket_date, category,
        establishment, letter_language, letter_commun_by, letter_upload_date, classification, uploaded_by)
      select 'L-' || ${tag} || '-' || lpad(i::text, 6, '0'), 'Dak ' || ${word} || ' number ' || i, 'No. ' || i,
        '2026-01-01', 'D-' || i, '2026-01-01', 'General', 'Lab', 'English', 'Post', now() - i * interval '1 minute',
        (case when i % 5 = 0 then 'Confidential' else 'Normal' end)::letter_classification, ${sender.id}::uuid
      from generate_series(1, 5000) i`);
    await app.db.execute(sql`
      insert into letter_movements (letter_id, from_user_id, to_user_id, classified, box, outcome, ended_at)
      select l.id, case when n % 2 = 0 then ${sender.id}::uuid else ${busy.id}::uuid end,
        case when n % 2 = 0 then ${busy.id}::uuid else ${sender.id}::uuid end,
        l.classification <> 'Normal', 'closed', 'closed', now()
      from (select id, classification, row_number() over (order by letter_id) as n from letters
            where letter_id like ${`L-${tag}-%`}) l`);

    const first = await search(busy, word, '&limit=50');
    expect(first.results).toHaveLength(50);
    expect(first.countsCapped).toBe(true);
    expect(first.next).not.toBeNull();
    const shown = await app.db
      .select({ id: letters.id, classification: letters.classification })
      .from(letters)
      .where(sql`${letters.id} in ${first.results.map((r) => r._id)}`);
    expect(shown).toHaveLength(50);
    expect(shown.every((l) => l.classification === 'Normal')).toBe(true);
    const second = await search(busy, word, `&limit=50&cursor=${first.next}`);
    expect(second.results).toHaveLength(50);
    expect(second.results.filter((r) => first.results.some((f) => f._id === r._id))).toEqual([]);

    // One letter each way: a Normal one (marked to them), one they marked, a Confidential one (not while uncleared).
    const id = async (n: number) =>
      (
        await app.db
          .select({ id: letters.id })
          .from(letters)
          .where(eq(letters.letterId, `L-${tag}-${String(n).padStart(6, '0')}`))
      )[0]!.id;
    const [toThem, byThem, confidential] = [await id(4998), await id(4999), await id(5000)];
    expect(await found(busy, `L-${tag}-004998`)).toEqual([toThem]);
    expect(await found(busy, `L-${tag}-004999`)).toEqual([byThem]);
    expect(await found(busy, `L-${tag}-005000`)).toEqual([]);
    expect(await found(bystander, word)).toEqual([]);
    expect(await found(null, word)).toEqual([]);
    await clear(busy, true);
    expect(await found(busy, `L-${tag}-005000`)).toEqual([confidential]);
    // The process still serves.
    expect((await app.inject({ url: '/api/health' })).statusCode).toBeLessThan(500);
  }, 60_000);
});

describe('GET /api/search: letters marked to or by a reader (the entry names them)', () => {
  it('marking adds the officer it is marked to and the one who marks on; never a bystander or a visitor', async () => {
    const [uploader, first, second, bystander] = await Promise.all([
      createUser(app),
      createUser(app),
      createUser(app),
      createUser(app),
    ]);
    const word = uniqueWord();
    const letter = await upload(uploader, `Stores audit ${word}`);
    expect(await found(first, word)).toEqual([]);
    await ok('POST', uploader, `/api/dac/${letter._id}/movements`, { to: [first.id], remarks: 'Please see' });
    expect(await found(first, word)).toEqual([letter._id]);
    expect(await found(second, word)).toEqual([]);
    await ok('POST', first, `/api/dac/${letter._id}/receive`);
    await ok('POST', first, `/api/dac/${letter._id}/movements`, { to: [second.id], remarks: 'For action' });
    // The one who marked it on keeps finding it (marked to and by them), as letters.policy lets them see it.
    expect(await found(first, word)).toEqual([letter._id]);
    expect(await found(second, word)).toEqual([letter._id]);
    expect(await found(bystander, word)).toEqual([]);
    expect(await found(null, word)).toEqual([]);
    const [entry] = await app.db
      .select({ markedAccess: searchDocuments.markedAccess })
      .from(searchDocuments)
      .where(and(eq(searchDocuments.kind, 'letter'), eq(searchDocuments.itemId, letter._id)));
    expect([...entry!.markedAccess].sort()).toEqual(
      [uploader.id, first.id, second.id].map((u) => `letter:marked:${u}`).sort(),
    );
  });

  it('a classified letter: an officer it was marked to finds it only while cleared, and not once it is raised', async () => {
    const [uploader, officer, clearedBystander] = await Promise.all([
      createUser(app),
      createUser(app),
      createUser(app),
    ]);
    await clear(officer, true);
    await clear(clearedBystander, true);
    const word = uniqueWord();
    const secret = await upload(uploader, `Trial plan ${word}`, 'Secret');
    await ok('POST', uploader, `/api/dac/${secret._id}/movements`, { to: [officer.id], remarks: 'Please see' });
    expect(await found(officer, word)).toEqual([secret._id]);
    expect(await found(clearedBystander, word)).toEqual([]);
    await ok('POST', officer, `/api/dac/${secret._id}/receive`);
    await ok('POST', officer, `/api/dac/${secret._id}/close`, { disposal: 'Filed' });
    expect(await found(officer, word)).toEqual([secret._id]);
    await clear(officer, false);
    expect(await found(officer, word)).toEqual([]);
    await clear(officer, true);
    expect(await found(officer, word)).toEqual([secret._id]);

    // A Normal letter once marked to an uncleared officer, raised to Confidential afterwards (any write path: the
    // database rebuilds the entry), is theirs no more; lowered again, it is.
    const plain = uniqueWord();
    const normal = await upload(uploader, `Stores list ${plain}`);
    const uncleared = await createUser(app);
    await ok('POST', uploader, `/api/dac/${normal._id}/movements`, { to: [uncleared.id], remarks: 'Please see' });
    expect(await found(uncleared, plain)).toEqual([normal._id]);
    await app.db.update(letters).set({ classification: 'Confidential' }).where(eq(letters.id, normal._id));
    expect(await found(uncleared, plain)).toEqual([]);
    expect(await found(officer, plain)).toEqual([]);
    await app.db.update(letters).set({ classification: 'Normal' }).where(eq(letters.id, normal._id));
    expect(await found(uncleared, plain)).toEqual([normal._id]);
  });
});

describe('GET /api/search: a cursor naming an impossible time (issue 28 item 5)', () => {
  const cursor = (at: string) =>
    Buffer.from(JSON.stringify([[at, 'letter', '00000000-0000-4000-8000-000000000001'], null])).toString('base64url');

  it.each(['0000-01-01T00:00:00.000000Z', '2026-01-01T99:99:99.000000Z', '2026-02-30T10:00:00.000000Z'])(
    'a window at %s is a 400 with search.bad_cursor, for a visitor and signed in',
    async (at) => {
      const reader = await createUser(app);
      for (const who of [null, reader, admin]) {
        const res = await call('GET', who, `/api/search?q=fire&cursor=${cursor(at)}`);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toEqual({
          error: 'This list has changed. Please search again.',
          message: 'This list has changed. Please search again.',
          field: 'cursor',
          code: 'search.bad_cursor',
        });
      }
    },
  );
});
