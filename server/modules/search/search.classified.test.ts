import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { auditEvents } from '#server/db/schema/index.ts';
import { pdfWithText, uniqueWord } from '#server/test/documents.ts';
import { authHeaders, createUser } from '#server/test/factories.ts';

import { admin, app, closeGroupWith2Members, extract, search, send, type Who } from './search.test-helpers.ts';

/**
 * The search and classified material (issue 31, decisions 070 and 072): a Confidential or Secret close-group document
 * is found only by the members who may see it (cleared, its uploader) and admins; a result that opens classified
 * material links with `from=search`, and its opening is recorded as a search hit opened.
 */

async function secretDocument() {
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
    { classification: 'Secret' },
    { field: 'document', filename: `Magazine ${word}.pdf`, content: pdfWithText(`Survey ${word} of the magazine`) },
  );
  await extract();
  return { word, alice, bob, carol, document: res.document as { _id: string; url: string } };
}

const hitsOf = async (who: Who, q: string) =>
  (await search(who, q)).results.filter((r) => r.kind === 'close-group-document');

describe('GET /api/search and Secret close-group documents', () => {
  it('finds one only for its uploader, a cleared member and an admin; a member not cleared finds nothing', async () => {
    const { word, alice, bob, carol, document } = await secretDocument();
    for (const who of [alice, carol, admin]) {
      const [hit] = await hitsOf(who, word);
      expect(hit?._id).toBe(document._id);
      // The link says it came from the search: the download is recorded so.
      expect(hit?.url).toBe(`${document.url}?from=search`);
    }
    expect(await hitsOf(bob, word)).toEqual([]);
    // Nor by the words inside the file, nor in the counts.
    const answer = await search(bob, `Survey ${word}`);
    expect(answer.results).toEqual([]);
    expect(answer.counts).toEqual({});
  });

  it('records the opening of a search hit as search_hit_opened, with the download it was', async () => {
    const { word, carol, document } = await secretDocument();
    const [hit] = await hitsOf(carol, word);
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
      classification: 'Secret',
      actorId: carol.id,
    });
    expect(JSON.parse(events[0]!.details!)).toEqual({ opened: 'document_downloaded', stamped: true });
  });
});
