import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { MARK_END, MARK_START, type SearchAnswerJson } from '#shared/schemas/search.ts';

import { auditEvents } from '#server/db/schema/index.ts';
import { pdfWithText, uniqueWord } from '#server/test/documents.ts';
import { authHeaders, createUser, letterFields, tokenFor } from '#server/test/factories.ts';

import { admin, app, closeGroupWith2Members, extract, pdf, search, send, type Who } from './search.test-helpers.ts';

/**
 * The search and classified material (decisions 070, 072 and 095): a Confidential or Secret close-group
 * document is found only by the members who may see it (cleared, its uploader) and admins; a result that opens
 * classified material links with `from=search`, and its opening is recorded as a search hit opened; a Secret one is
 * linked to its close groups' page, and its text is not searched while the reader's session is stale; no classified
 * file's text is ever shown in a snippet.
 */

async function classifiedDocument(classification: string) {
  const word = uniqueWord();
  const { closeGroup, alice, bob } = await closeGroupWith2Members();
  const carol = await createUser(app, 'employee', { name: 'Carol Dsouza', classifiedClearance: true });
  // Carol joins the close group.
  const current = await app.inject({ url: `/admin/close-group/${closeGroup}`, headers: await authHeaders(app, admin) });
  const body = current.json();
  const joined = await app.inject({
    method: 'PUT',
    url: `/admin/close-group/${closeGroup}`,
    headers: await authHeaders(app, admin),
    payload: {
      groupName: body.groupName,
      groupPurpose: body.groupPurpose,
      groupDuration: body.groupDuration,
      requestedBy: [alice.id, bob.id, carol.id],
      adminRemarks: body.adminRemarks,
    },
  });
  expect(joined.statusCode, joined.body).toBe(200);
  const res = await send(
    alice,
    'POST',
    `/api/close-groups/${closeGroup}/upload`,
    { classification },
    { field: 'document', filename: `Magazine ${word}.pdf`, content: pdfWithText(`Survey ${word} of the magazine`) },
  );
  await extract();
  return { word, alice, bob, carol, closeGroup, document: res.document as { _id: string; url: string } };
}
const secretDocument = () => classifiedDocument('Secret');

const hitsOf = async (who: Who, q: string) =>
  (await search(who, q)).results.filter((r) => r.kind === 'close-group-document');

describe('GET /api/search and Secret close-group documents', () => {
  it('finds one only for its uploader, a cleared member and an admin; a member not cleared finds nothing', async () => {
    const { word, alice, bob, carol, document } = await secretDocument();
    for (const who of [alice, carol, admin]) {
      const [hit] = await hitsOf(who, word);
      expect(hit?._id).toBe(document._id);
      // Secret is guarded by the step-up (decision 095): the link is its close groups' page, where "View" asks
      // for the check before the viewer opens, never the file itself.
      expect(hit?.url).toBe('/closeGroup');
    }
    expect(await hitsOf(bob, word)).toEqual([]);
    // Nor by the words inside the file, nor in the counts.
    const answer = await search(bob, `Survey ${word}`);
    expect(answer.results).toEqual([]);
    expect(answer.counts).toEqual({});
  });

  it('records the opening of a search hit as search_hit_opened, with the download it was', async () => {
    const { word, carol, document } = await classifiedDocument('Confidential');
    const [hit] = await hitsOf(carol, word);
    // The link says it came from the search: the download is recorded so.
    expect(hit?.url).toBe(`${document.url}?from=search`);
    const res = await app.inject({ url: hit!.url, headers: await authHeaders(app, carol) });
    expect(res.statusCode).toBe(200);
    const events = await app.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.objectId, document._id))
      .orderBy(asc(auditEvents.seq));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      id: res.headers['x-download-id'],
      action: 'search_hit_opened',
      classification: 'Confidential',
      actorId: carol.id,
    });
    expect(JSON.parse(events[0]!.details!)).toEqual({ opened: 'document_downloaded', stamped: true });
  });
});

/** Uploads a PDF to the close group as `who`, its text holding `word`, with a title that does not. */
async function uploadTo(closeGroup: string, who: Who, classification: string, word: string) {
  const res = await send(
    who!,
    'POST',
    `/api/close-groups/${closeGroup}/upload`,
    { classification },
    {
      field: 'document',
      filename: `${classification} notes.pdf`,
      content: pdfWithText(`Findings ${word} of the range`),
    },
  );
  return res.document as { _id: string; url: string };
}

describe('GET /api/search and the text inside classified files (decision 095)', () => {
  it('shows no snippet of a classified file to anyone, cleared or not: the title only; an Unclassified one keeps it', async () => {
    const { alice, bob, carol, closeGroup } = await secretDocument();
    const words = Object.fromEntries(
      ['Unclassified', 'Restricted', 'Confidential', 'Secret'].map((c) => [c, uniqueWord()]),
    );
    const docs: Record<string, { _id: string }> = {};
    for (const [classification, word] of Object.entries(words)) {
      docs[classification] = await uploadTo(closeGroup, alice, classification, word);
    }
    await extract();
    // Carol is cleared, the admin sees every close group, Bob sees what is below Confidential: each finds the file by
    // a word only its text holds, and sees its title without a word of the text.
    const readers: [Who, string[]][] = [
      [carol, ['Unclassified', 'Restricted', 'Confidential', 'Secret']],
      [admin, ['Unclassified', 'Restricted', 'Confidential', 'Secret']],
      [bob, ['Unclassified', 'Restricted']],
    ];
    for (const [who, classes] of readers) {
      for (const classification of classes) {
        const [hit, ...more] = await hitsOf(who, words[classification]!);
        expect(more).toEqual([]);
        expect(hit, `${who!.name} ${classification}`).toMatchObject({
          _id: docs[classification]!._id,
          title: `${classification} notes.pdf`,
        });
        if (classification === 'Unclassified') {
          expect(hit!.snippet).toContain(`Findings ${MARK_START}${words[classification]}${MARK_END} of the range`);
        } else {
          expect(hit!.snippet, `${who!.name} ${classification}`).toBe('');
        }
      }
    }
  });

  it('neither searches nor links the file of a Secret document while the session is stale; the title is still found', async () => {
    const { word, carol, closeGroup, document } = await secretDocument();
    const inText = uniqueWord();
    const confidential = await uploadTo(closeGroup, carol, 'Confidential', inText);
    const secret = await uploadTo(closeGroup, carol, 'Secret', inText);
    await extract();
    const stale = {
      authorization: `Bearer ${await tokenFor(app, carol, { verifiedAt: new Date(Date.now() - 16 * 60_000) })}`,
    };
    const searchStale = async (q: string) => {
      const res = await app.inject({ url: `/api/search?q=${encodeURIComponent(q)}`, headers: stale });
      expect(res.statusCode).toBe(200);
      return (res.json() as SearchAnswerJson).results.filter((r) => r.kind === 'close-group-document');
    };
    // The text inside: the Confidential file (not guarded) is found, the Secret one is not until the check.
    expect((await searchStale(inText)).map((r) => r._id)).toEqual([confidential._id]);
    expect((await hitsOf(carol, inText)).map((r) => r._id).sort()).toEqual([confidential._id, secret._id].sort());
    // Its title: found, linked to the close groups' page, without a snippet.
    const [byTitle] = await searchStale(word);
    expect(byTitle).toMatchObject({ _id: document._id, url: '/closeGroup', snippet: '' });
  });

  it('shows no snippet of a Confidential letter’s file either, to its uploader', async () => {
    const word = uniqueWord();
    const director = await createUser(app, 'director');
    await send(
      director,
      'POST',
      '/api/dac',
      letterFields({ letterSub: 'Range inspection', classification: 'Confidential' }),
      pdf(word),
    );
    await extract();
    const [hit] = (await search(director, word)).results;
    expect(hit).toMatchObject({ kind: 'letter', title: expect.stringContaining('Range inspection'), snippet: '' });
  });
});
