import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { auditEvents, efileItems, users } from '#server/db/schema/index.ts';
import { pdfWithPages } from '#server/test/documents.ts';
import { tokenFor } from '#server/test/factories.ts';

import { app, call, cast, ok, open, pagesOf, uploadDocument, type Who } from './efiles.test-helpers.ts';

// A document of an e-file read on its own (decision 121): above Unclassified, it is read as the file is — the
// step-up of its classification, the watermark for the reader and the audit trail — for its file, its viewer's PDF
// and its preview state; no thumbnail; refused to those who may not see the file, the refusal recorded.

const eventsOf = (objectId: string) =>
  app.db.select().from(auditEvents).where(eq(auditEvents.objectId, objectId)).orderBy(asc(auditEvents.seq));
const detailsOf = (e: { details: string | null }) => (e.details ? JSON.parse(e.details) : null);

/** A file of `classification` opened by the director of a cast, with one uploaded PDF (C/1); its document's link. */
async function fileWithDocument(classification: string) {
  const c = await cast();
  await app.db.update(users).set({ pis: '774411' }).where(eq(users.id, c.director.id));
  const file = await open(c.director, { classification, ownerGroupId: c.group.id });
  const up = await uploadDocument(c.director, file._id, 'fire-drill.pdf', pdfWithPages(['Fire drill report']));
  expect([up.statusCode, up.json().message]).toEqual([201, 'C/1']);
  // Its link as the file's screen gives it (not read through the screen: that opening is recorded too).
  const [item] = await app.db.select().from(efileItems).where(eq(efileItems.efileId, file._id));
  return { c, file, url: `/uploads/efiles/${item!.fileId}` };
}

const get = (user: Who, url: string) => call('GET', user, url);

describe("a classified e-file's document", () => {
  it('is watermarked for the reader, under the id of its audit event, as the file and as its PDF', async () => {
    const { c, file, url } = await fileWithDocument('Confidential');
    for (const link of [url, `${url}/pdf`]) {
      const res = await get(c.director, link);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['cache-control']).toBe('private, no-store');
      const id = String(res.headers['x-download-id']);
      const [page] = pagesOf(res.rawPayload);
      expect(page).toContain('Fire drill report');
      expect(page).toContain('Downloaded by Dr Rao · PIS 774411');
      expect(page).toContain(`Download id ${id}`);
    }
    const events = await eventsOf(file._id);
    expect(events.map((e) => [e.action, e.outcome, e.classification, e.objectType, e.objectLabel])).toEqual([
      ['document_downloaded', 'success', 'Confidential', 'efile', `${file.number} · C/1 · fire-drill.pdf`],
      ['document_downloaded', 'success', 'Confidential', 'efile', `${file.number} · C/1 · fire-drill.pdf`],
    ]);
    expect(events.map((e) => detailsOf(e))).toEqual([{ stamped: true }, { stamped: true }]);
    // Never a thumbnail of a classified page.
    expect((await get(c.director, `${url}/thumbnail`)).statusCode).toBe(404);
    const state = ok(await get(c.director, `/api/previews${url.slice('/uploads'.length)}`)).json();
    expect(state.thumbnailUrl).toBeNull();
  });

  it('needs a fresh check for a Secret file, the refusal recorded; then opens', async () => {
    const { c, file, url } = await fileWithDocument('Secret');
    const stale = await tokenFor(app, c.director, { verifiedAt: new Date(Date.now() - 30 * 60_000) });
    for (const link of [url, `${url}/pdf`, `/api/previews${url.slice('/uploads'.length)}`]) {
      const res = await app.inject({ url: link, headers: { authorization: `Bearer ${stale}` } });
      expect([link, res.statusCode, res.json().code]).toEqual([link, 401, 'auth.step_up_required']);
    }
    ok(await get(c.director, url));
    const events = await eventsOf(file._id);
    expect(events.map((e) => [e.action, e.outcome, e.classification, detailsOf(e)?.code ?? null])).toEqual([
      ['access_refused', 'refused', 'Secret', 'auth.step_up_required'],
      ['access_refused', 'refused', 'Secret', 'auth.step_up_required'],
      ['document_downloaded', 'success', 'Secret', null],
    ]);
    // An admin is asked too.
    const admin = await tokenFor(app, c.admin, { verifiedAt: new Date(Date.now() - 30 * 60_000) });
    const res = await app.inject({ url, headers: { authorization: `Bearer ${admin}` } });
    expect([res.statusCode, res.json().code]).toEqual([401, 'auth.step_up_required']);
  });

  it('is refused to an outsider, an uncleared head and a visitor, each refusal of a signed-in person recorded', async () => {
    const { c, file, url } = await fileWithDocument('Confidential');
    for (const who of [c.outsider, c.gh, c.employee]) {
      const res = await get(who, url);
      expect([res.statusCode, res.json().code]).toEqual([403, 'files.open_forbidden']);
    }
    expect((await get(null, url)).statusCode).toBe(401);
    const events = await eventsOf(file._id);
    expect(events.map((e) => [e.action, e.outcome, detailsOf(e)?.code])).toEqual([
      ['access_refused', 'refused', 'files.open_forbidden'],
      ['access_refused', 'refused', 'files.open_forbidden'],
      ['access_refused', 'refused', 'files.open_forbidden'],
    ]);
    // The owner group's head once cleared, and an admin, read it (watermarked, recorded).
    await app.db.update(users).set({ classifiedClearance: true }).where(eq(users.id, c.gh.id));
    expect(ok(await get(c.gh, url)).headers['x-download-id']).toBeTruthy();
    expect(ok(await get(c.admin, url)).headers['x-download-id']).toBeTruthy();
  });

  it('of an Unclassified file is sent as stored, with nothing recorded', async () => {
    const { c, file, url } = await fileWithDocument('Unclassified');
    const res = ok(await get(c.director, url));
    expect(res.headers['x-download-id']).toBeUndefined();
    expect(pagesOf(res.rawPayload)[0]).not.toContain('Downloaded by');
    expect((await get(c.outsider, url)).statusCode).toBe(403);
    expect(await eventsOf(file._id)).toEqual([]);
  });
});
