import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { type UserRow, users } from '#server/db/schema/index.ts';
import { toActor } from '#server/plugins/auth.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';

import { loadViews } from './letters.register.views.ts';
import { searchLetterIds } from './letters.search.ts';
import { app, del, get, search, upload, word } from './letters.test-helpers.ts';

// GET /api/dac: who sees which letters, paging and search.

describe('GET /api/dac: who sees what', () => {
  it('refuses a visitor who is not signed in', async () => {
    expect((await get(null, '/api/dac')).statusCode).toBe(401);
    expect((await get(null, '/api/dac/page')).statusCode).toBe(401);
  });

  it('shows an employee only their own letters, and directors and admins every letter', async () => {
    const tag = word();
    const owner = await createUser(app, 'employee');
    const other = await createUser(app, 'employee');
    const associate = await createUser(app, 'associate_director');
    const director = await createUser(app, 'director');
    const admin = await createUser(app, 'admin');
    const normal = await upload(owner, { letterSub: `${tag} normal` });
    const secret = await upload(owner, { letterSub: `${tag} secret`, classification: 'Secret' });
    const confidential = await upload(other, { letterSub: `${tag} confidential`, classification: 'Confidential' });
    const ids = async (u: UserRow) => (await search(u, tag)).map((l) => l._id).sort();
    expect(await ids(owner)).toEqual([normal._id, secret._id].sort());
    expect(await ids(other)).toEqual([confidential._id]);
    expect(await ids(associate)).toEqual([]);
    expect(await ids(director)).toEqual([normal._id, secret._id, confidential._id].sort());
    expect(await ids(admin)).toEqual([normal._id, secret._id, confidential._id].sort());
    // One letter: the same rule; a letter one may not see is "not found", not "forbidden".
    expect((await get(other, `/api/dac/${secret._id}`)).statusCode).toBe(404);
    expect((await get(associate, `/api/dac/${normal._id}`)).statusCode).toBe(404);
    expect((await get(director, `/api/dac/${secret._id}`)).json()).toMatchObject({
      classification: 'Secret',
      canEdit: false,
    });
    expect((await get(admin, `/api/dac/${confidential._id}`)).json()).toMatchObject({ canEdit: true });
    expect((await get(owner, `/api/dac/${secret._id}`)).json()).toMatchObject({ canEdit: true });
  });

  it('answers an array, newest upload first, with limit and offset', async () => {
    const owner = await createUser(app, 'employee');
    const made = [];
    for (let i = 0; i < 4; i++) made.push(await upload(owner));
    const all = (await get(owner, '/api/dac')).json();
    expect(Array.isArray(all)).toBe(true);
    expect(all.map((l: { _id: string }) => l._id)).toEqual(made.map((l) => l._id).reverse());
    const page = (await get(owner, '/api/dac?limit=2&offset=1')).json();
    expect(page.map((l: { _id: string }) => l._id)).toEqual([made[2]._id, made[1]._id]);
    expect((await get(owner, '/api/dac?limit=0')).statusCode).toBe(400);
    expect((await get(owner, '/api/dac?limit=1000')).statusCode).toBe(400);
  });

  it('pages with a cursor until the end, and refuses a tampered cursor', async () => {
    const tag = word();
    const owner = await createUser(app, 'employee');
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await upload(owner, { letterSub: `${tag} ${i}` }));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(owner, `/api/dac/page?q=${tag}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      const body: { letters: { _id: string }[]; nextCursor: string | null } = res.json();
      seen.push(...body.letters.map((l) => l._id));
      cursor = body.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(made.map((l) => l._id).reverse());
    const bad = await get(owner, '/api/dac/page?cursor=bm90LWEtY3Vyc29y');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'cursor' });
  });

  it('pages the same way when the rare-text path is taken', async () => {
    const { searchLetters } = await import('./letters.register.views.ts');
    const tag = word();
    const owner = await createUser(app, 'employee');
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await upload(owner, { letterSub: `${tag} ${i}` }));
    const director = toActor(await createUser(app, 'director'));
    const seen: string[] = [];
    let after;
    do {
      // A one-row window never fills a page, so every page goes to the trigram index (step 2).
      const { views, next } = await searchLetters(app.db, director, {
        q: tag.toUpperCase(),
        limit: 2,
        after,
        probeWindow: 1,
      });
      seen.push(...views.map((v) => v.letter.id));
      after = next ?? undefined;
    } while (after);
    expect(seen).toEqual(made.map((l) => l._id).reverse());
  });
});

describe('GET /api/dac?q=: search', () => {
  it('finds a letter by part of any listed field, in any case, with spaces around', async () => {
    const tag = word();
    const owner = await createUser(app, 'employee', { name: `Kavita ${tag}name Rao` });
    const director = await createUser(app, 'director');
    const letter = await upload(owner, {
      letterSub: `Annual ${tag}sub fire audit`,
      docketNo: `DK/${tag}dkt/7`,
      letterNo: `LN-${tag}lno`,
      category: `${tag}cat Circular`,
      establishment: `${tag}est Pune`,
      letterLanguage: `${tag}lang Hindi`,
      letterCommunBy: `${tag}com Courier`,
    });
    const parts = [
      `${tag}SUB FIRE`,
      `dk/${tag}DKT`,
      `ln-${tag}lno`,
      `${tag}cat`,
      `${tag}EST pune`,
      `${tag}lang`,
      `${tag}com courier`,
      `${tag}name rao`,
    ];
    for (const part of parts) {
      const found = await search(director, `  ${part.toUpperCase()}  `);
      expect(
        found.map((l) => l._id),
        part,
      ).toEqual([letter._id]);
    }
    const byId = await search(director, ` ${letter.letterId.toLowerCase()} `);
    expect(byId.map((l) => l._id)).toEqual([letter._id]);
    expect(await search(director, `${tag} nothing like this`)).toEqual([]);
  });

  it('gives the same newest-first pages whichever way it searches (window, trigram index, mine)', async () => {
    const tag = word();
    const owner = await createUser(app, 'employee');
    const made = [];
    for (let i = 0; i < 7; i++) made.push(await upload(owner, { letterSub: i % 2 ? `plain ${i}` : `${tag} ${i}` }));
    const expected = [made[6]._id, made[4]._id, made[2]._id, made[0]._id];
    const actor = toActor(owner);
    // 1, 3, 5: the window fills before the page, so step 2 (the trigram index) finds the rest; 10: the window holds the
    // owner's whole register (7), so step 1 alone is the answer.
    for (const probeWindow of [undefined, 1, 3, 5, 10]) {
      const first = await searchLetterIds(app.db, actor, { q: tag, limit: 3, probeWindow, mine: true });
      expect(first.ids, `window ${probeWindow}`).toEqual(expected.slice(0, 3));
      const rest = await searchLetterIds(app.db, actor, { q: tag, limit: 3, probeWindow, after: first.next! });
      expect(rest).toEqual({ ids: expected.slice(3), next: null });
      const offset = await searchLetterIds(app.db, actor, { q: tag, limit: 2, offset: 1, probeWindow });
      expect(offset.ids).toEqual(expected.slice(1, 3));
    }
  });

  it('finds a letter by part of its Letter ID, and by the whole ID', async () => {
    const owner = await createUser(app, 'employee');
    const letter = await upload(owner);
    const digits = letter.letterId.slice(-6);
    expect((await search(owner, digits)).map((l) => l._id)).toContain(letter._id);
    expect((await search(owner, letter.letterId.slice(0, 9))).map((l) => l._id)).toContain(letter._id);
    expect((await search(owner, ` ${letter.letterId.toLowerCase()} `)).map((l) => l._id)).toEqual([letter._id]);
    const other = await createUser(app, 'employee');
    expect(await search(other, letter.letterId)).toEqual([]); // the rule of who sees what holds here too
  });

  it('finds letters by the uploader’s new name after a name change', async () => {
    const owner = await createUser(app, 'employee', { name: 'Old Name' });
    const letter = await upload(owner);
    const fresh = word();
    await app.db
      .update(users)
      .set({ name: `Renamed ${fresh}` })
      .where(eq(users.id, owner.id));
    expect((await search(owner, fresh)).map((l) => l._id)).toEqual([letter._id]);
  });

  it('takes % and _ literally', async () => {
    const tag = word();
    const owner = await createUser(app, 'employee');
    const literal = await upload(owner, { letterSub: `${tag} 100% done_now` });
    await upload(owner, { letterSub: `${tag} 100 done now` });
    expect((await search(owner, '100% done_')).map((l) => l._id)).toEqual([literal._id]);
    expect(await search(owner, `${tag}%`)).toEqual([]);
  });

  it('keeps only my letters with mine=true, and refuses an over-long search', async () => {
    const tag = word();
    const director = await createUser(app, 'director');
    const owner = await createUser(app, 'employee');
    const mine = await upload(director, { letterSub: tag });
    await upload(owner, { letterSub: tag });
    expect(await search(director, tag)).toHaveLength(2);
    expect((await search(director, tag, '&mine=true')).map((l) => l._id)).toEqual([mine._id]);
    const res = await get(director, `/api/dac?q=${'x'.repeat(201)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: 'Search text must be at most 200 characters.', field: 'q' });
  });
});

describe("a letter's card for its viewer (letter_views_for_viewer, migration 0035)", () => {
  it('has every column of the letter but its search text, of the same types, then what the card adds', async () => {
    const table = await app.pgPool.query<{ name: string; type: number }>(
      `select attname as name, atttypid::int as type from pg_attribute
        where attrelid = 'letters'::regclass and attnum > 0 and not attisdropped and attname <> 'search_text'
        order by attnum`,
    );
    const { fields } = await app.pgPool.query(`select * from letter_views_for_viewer('{}', null)`);
    const adds = ['uploader_name', 'deleter_name', 'original_name', 'frozen', 'involved', 'holds'];
    expect(fields.map((f) => f.name)).toEqual([...table.rows.map((c) => c.name), ...adds]);
    expect(fields.slice(0, table.rows.length).map((f) => f.dataTypeID)).toEqual(table.rows.map((c) => c.type));
  });

  it('reads the card as the table holds it, and the viewer part each viewer has in it', async () => {
    const owner = await createUser(app, 'employee');
    const officer = await createUser(app, 'associate_director');
    const stranger = await createUser(app, 'director');
    const marked = await upload(owner, { letterSub: `${word()} marked` });
    const deleted = await upload(owner, { letterSub: `${word()} deleted` });
    const headers = await authHeaders(app, owner);
    const mark = await app.inject({
      method: 'POST',
      url: `/api/dac/${marked._id}/movements`,
      headers,
      payload: { to: [officer.id] },
    });
    expect(mark.statusCode, mark.body).toBe(201);
    expect((await del(owner, `/api/dac/${deleted._id}`)).statusCode).toBe(200);
    const ids = [deleted._id, marked._id];
    const fromTable = await loadViews(app.db, ids); // the table itself, nobody's part
    expect(fromTable.map((v) => v.letter.id)).toEqual(ids);
    expect(fromTable[0]!.deleter).toEqual({ id: owner.id, name: owner.name });
    const cardOf = ({ involved: _involved, holds: _holds, ...card }: (typeof fromTable)[number]) => card;
    // [involved, holds] in the marked letter: the owner marked it, the officer holds it, the director only sees it
    for (const [viewer, involved, holds] of [
      [owner, true, false],
      [officer, true, true],
      [stranger, false, false],
    ] as const) {
      const views = await loadViews(app.db, ids, viewer.id);
      expect(views.map(cardOf)).toEqual(fromTable.map(cardOf));
      expect(views.map((v) => [v.involved, v.holds])).toEqual([
        [false, false],
        [involved, holds],
      ]);
    }
    expect(fromTable.map((v) => v.frozen)).toEqual([false, true]);
  });
});
