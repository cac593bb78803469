import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { SEARCH_COUNT_CAP, SEARCH_KINDS, type SearchAnswerJson } from '#shared/schemas/search.ts';

import { groups, labItems, letters, users } from '#server/db/schema/index.ts';
import { uniqueWord } from '#server/test/documents.ts';
import { authHeaders, createUser, letterFields } from '#server/test/factories.ts';

import { RANK_WINDOW } from './search.service.ts';
import {
  admin,
  app,
  closeGroupWith2Members,
  extract,
  finds,
  group,
  lab,
  member,
  pdf,
  search,
  secondMember,
  send,
  type Who,
} from './search.test-helpers.ts';

// Results that follow memberships, deletions and edits at once; paging and counts.

describe('GET /api/search: results follow memberships and deletions at once', () => {
  it('removal from a group removes its results immediately', async () => {
    const word = uniqueWord();
    await send(admin, 'POST', `/api/groups/${group.id}/notices`, { name: 'Drill', description: 'Drill' }, pdf(word));
    await extract();
    expect(await finds(secondMember, word, 'group-notice')).toBe(true);
    const res = await app.inject({
      method: 'DELETE',
      url: `/api/groups/${group.id}/members/${secondMember.id}`,
      headers: await authHeaders(app, admin),
    });
    expect(res.statusCode).toBe(200);
    expect(await finds(secondMember, word, 'group-notice')).toBe(false);
  });

  it('removal from a close group removes its documents immediately', async () => {
    const word = uniqueWord();
    const { closeGroup, alice, bob } = await closeGroupWith2Members();
    await send(alice, 'POST', `/api/close-groups/${closeGroup}/upload`, {}, pdf(word, 'document'));
    await extract();
    expect(await finds(bob, word, 'close-group-document')).toBe(true);
    const res = await app.inject({
      method: 'PUT',
      url: `/admin/close-group/${closeGroup}`,
      headers: await authHeaders(app, admin),
      payload: {
        groupName: 'Blast wall review',
        groupPurpose: 'Review the blast wall design.',
        groupDuration: { from: '2020-01-01', to: '2099-12-31' },
        requestedBy: [alice.id],
        adminRemarks: '',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await finds(bob, word, 'close-group-document')).toBe(false);
    expect(await finds(alice, word, 'close-group-document')).toBe(true);
  });

  it('a deleted item disappears: close-group document, group notice, letter (recycle bin)', async () => {
    const [a, b, c] = [uniqueWord(), uniqueWord(), uniqueWord()];
    const { closeGroup, alice } = await closeGroupWith2Members();
    const upload = await send(alice, 'POST', `/api/close-groups/${closeGroup}/upload`, {}, pdf(a, 'document'));
    const notice = await send(
      admin,
      'POST',
      `/api/groups/${group.id}/notices`,
      { name: 'Old', description: 'Old' },
      pdf(b),
    );
    const letter = await send(admin, 'POST', '/api/dac', letterFields({ letterSub: 'Old letter' }), pdf(c));
    await extract();
    expect(await finds(admin, a, 'close-group-document')).toBe(true);
    expect(await finds(admin, b, 'group-notice')).toBe(true);
    expect(await finds(admin, c, 'letter')).toBe(true);
    const del = async (url: string): Promise<LightMyRequestResponse> =>
      app.inject({ method: 'DELETE', url, headers: await authHeaders(app, admin) });
    expect((await del(`/api/close-groups/${closeGroup}/documents/${upload.document._id}`)).statusCode).toBe(200);
    expect((await del(`/api/groups/${group.id}/notices/${notice._id}`)).statusCode).toBe(200);
    expect((await del(`/api/dac/${letter._id}`)).statusCode).toBe(200);
    for (const word of [a, b, c]) expect(await search(admin, word)).toMatchObject({ results: [], counts: {} });
  });
});

describe('the index: an entry is written again only when what it holds changed (issue 12)', () => {
  /** The row version of an entry: a re-index deletes and inserts it, so a new one means it was written. */
  const entry = async (kind: string, id: string) =>
    (
      await app.db.execute<{ version: string }>(
        sql`select xmin::text as version from search_documents where kind = ${kind} and item_id = ${id}`,
      )
    ).rows[0]?.version;
  const kindsFound = async (who: Who, word: string) => (await search(who, word)).results.map((r) => r.kind);

  it('a person: not for their "about", password or sign-outs; a new designation is found at once', async () => {
    const person = await createUser(app, 'employee', { name: 'Ravi Indexed', groupId: group.id });
    const before = await entry('person', person.id);
    expect(before).toBeDefined();
    await app.db
      .update(users)
      .set({ about: 'Studies smoke.', passwordHash: 'not-a-hash', sessionsValidAfter: new Date() })
      .where(eq(users.id, person.id));
    expect(await entry('person', person.id)).toBe(before);
    const word = uniqueWord();
    await app.db
      .update(users)
      .set({ designation: `Scientist ${word}` })
      .where(eq(users.id, person.id));
    expect(await entry('person', person.id)).not.toBe(before);
    expect(await kindsFound(member, word)).toEqual(['person']);
  });

  it('a group: not for a new version of its page; a new vision is found at once', async () => {
    const before = await entry('group', group.id);
    expect(before).toBeDefined();
    await app.db
      .update(groups)
      .set({ contentVersion: sql`${groups.contentVersion} + 1` })
      .where(eq(groups.id, group.id));
    expect(await entry('group', group.id)).toBe(before);
    const word = uniqueWord();
    await app.db
      .update(groups)
      .set({ vision: `Safer ${word}` })
      .where(eq(groups.id, group.id));
    expect(await kindsFound(member, word)).toEqual(['group']);
  });

  it("a letter: not for a touch that changes none of its fields; its uploader's new name is found at once", async () => {
    const uploader = await createUser(app, 'admin', { name: 'Usha Uploader' });
    const letter = await send(
      uploader,
      'POST',
      '/api/dac',
      {
        letterSub: 'Indexed letter',
        letterNo: '7',
        letterDate: '2026-03-01',
        docketNo: '8',
        docketDate: '2026-03-03',
        category: 'C',
        establishment: 'E',
        letterLanguage: 'English',
        letterCommunBy: 'Post',
      },
      pdf(uniqueWord()),
    );
    await extract();
    const before = await entry('letter', letter._id);
    expect(before).toBeDefined();
    await app.db.update(letters).set({ updatedAt: new Date() }).where(eq(letters.id, letter._id));
    expect(await entry('letter', letter._id)).toBe(before);
    const word = uniqueWord();
    await app.db
      .update(users)
      .set({ name: `Usha ${word}` })
      .where(eq(users.id, uploader.id));
    expect(await kindsFound(uploader, word)).toEqual(expect.arrayContaining(['letter', 'person']));
  });
});

describe('GET /api/search: paging, kinds and counts', () => {
  it('pages by cursor without repeats, filters by kind, and counts every kind', async () => {
    const word = uniqueWord();
    for (const name of ['One', 'Two', 'Three']) {
      await send(admin, 'POST', `/api/labs/${lab.id}/products`, { name: `${name} ${word}`, description: 'Kit' });
    }
    await send(admin, 'POST', `/api/labs/${lab.id}/advertisements`, { name: `Ad ${word}`, description: 'Sale' });
    const first = await search(null, word, '&limit=2');
    expect(first.results).toHaveLength(2);
    expect(first.counts).toEqual({ product: 3, advertisement: 1 });
    const second = await search(null, word, `&limit=2&cursor=${first.next}`);
    expect(second.results).toHaveLength(2);
    expect(second.next).toBeNull();
    const ids = [...first.results, ...second.results].map((r) => r._id);
    expect(new Set(ids).size).toBe(4);
    const onlyAds = await search(null, word, '&kinds=advertisement');
    expect(onlyAds.results.map((r) => r.kind)).toEqual(['advertisement']);
    expect(onlyAds.counts).toEqual({ product: 3, advertisement: 1 });
    expect(first.countsCapped).toBe(false);
    expect(SEARCH_KINDS).toHaveLength(19); // the dispatched letter is a kind of its own (decision 120)
  });

  it('a word in more documents than the cap: counts of the newest matches, marked capped; paging crosses ranking windows', async () => {
    const word = uniqueWord();
    const many = SEARCH_COUNT_CAP + 30; // more than the count cap and the ranking window (RANK_WINDOW)
    expect(many).toBeGreaterThan(RANK_WINDOW);
    await app.db.insert(labItems).values(
      Array.from({ length: many }, (_, i) => ({
        labId: lab.id,
        kind: i % 3 ? ('notice' as const) : ('product' as const),
        name: `Item ${i} ${word}`,
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      })),
    );
    const first = await search(null, word, '&limit=50');
    expect(first.countsCapped).toBe(true);
    expect(Object.values(first.counts).reduce((sum, n) => sum + (n ?? 0), 0)).toBe(SEARCH_COUNT_CAP);
    expect(first.counts.notice).toBeGreaterThan(0);
    expect(first.counts.product).toBeGreaterThan(0);
    // Every match is reached by paging, once.
    const seen = new Set<string>();
    let page: SearchAnswerJson = first;
    for (;;) {
      for (const r of page.results) seen.add(r._id);
      if (!page.next) break;
      page = await search(null, word, `&limit=50&cursor=${page.next}`);
    }
    expect(seen.size).toBe(many);
    // A few matches are counted exactly.
    const few = await search(null, `Item 7 ${word}`);
    expect(few.countsCapped).toBe(false);
  });
});
