import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { auditEvents, users } from '#server/db/schema/index.ts';
import { pdfWithPages } from '#server/test/documents.ts';
import { createUser, letterFields, postLetter, tokenFor } from '#server/test/factories.ts';

import { app, call, cast, ok, open, pagesOf, receive, send, uploadDocument, type Who } from './efiles.test-helpers.ts';

// The export of an e-file as one PDF (decision 111): the noting pages, then the correspondence, page-numbered;
// watermarked and recorded for a classified file; 404 to those who may not see the file; the step-up of its opening.

const exportOf = (user: Who, id: string) => call('GET', user, `/api/efiles/${id}/export.pdf`);
const eventsOf = (objectId: string) =>
  app.db.select().from(auditEvents).where(eq(auditEvents.objectId, objectId)).orderBy(asc(auditEvents.seq));

describe('the export of an e-file', () => {
  it('holds the noting pages, then each item under its C/n, page-numbered, with Hindi drawn', async () => {
    const c = await cast();
    const letter = await postLetter(app, c.employee, letterFields({ letterSub: 'Fire NOC from the state' }), {
      field: 'file',
      filename: 'noc.pdf',
      content: pdfWithPages(['State fire NOC first page', 'State fire NOC second page']),
    });
    expect(letter.statusCode, letter.body).toBe(201);
    const file = await open(c.employee, { letterId: letter.json()._id, ownerGroupId: c.group.id });
    const uploaded = await uploadDocument(
      c.employee,
      file._id,
      'site-plan.pdf',
      pdfWithPages(['Site plan of Building 4']),
    );
    expect([uploaded.statusCode, uploaded.json().message]).toEqual([201, 'C/2']);
    ok(
      await call('POST', c.employee, `/api/efiles/${file._id}/notes`, {
        body: {
          blocks: [
            { t: 'p', c: [{ text: 'The state has issued the NOC at ' }, { ref: 'C/1' }, { text: '.' }] },
            { t: 'p', c: [{ text: 'Approval sought', b: true }, { text: ' for the items below:' }] },
            { t: 'ul', items: [[{ text: 'Sprinklers in the store' }], [{ text: 'Two extinguishers' }]] },
            {
              t: 'table',
              rows: [
                [[{ text: 'Item' }], [{ text: 'Cost' }]],
                [[{ text: 'Sprinklers' }], [{ text: 'Rs 4,000' }]],
              ],
            },
            { t: 'p', c: [{ text: 'अग्निशमन यंत्र' }] },
          ],
        },
      }),
      201,
    );
    ok(await send(c.employee, file._id, c.gh.id));
    ok(await receive(c.gh, file._id));
    ok(
      await call('POST', c.gh, `/api/efiles/${file._id}/notes`, {
        body: { blocks: [{ t: 'p', c: [{ text: 'Agreed.' }] }] },
      }),
      201,
    );

    const res = await exportOf(c.gh, file._id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['x-download-id']).toBeUndefined();
    const pages = pagesOf(res.rawPayload);
    expect(pages).toHaveLength(4);
    const [noting, ...rest] = pages;
    // The noting: N/1 before N/2, numbered paragraphs, each note's author, designation and date.
    expect(noting).toContain(file.number);
    expect(noting!.indexOf('N/1')).toBeLessThan(noting!.indexOf('N/2'));
    expect(noting).toMatch(/1\.\s+The state has issued the NOC at C\/1\.\s+2\.\s+Approval sought for the items below:/);
    expect(noting).toContain('Sprinklers in the store');
    expect(noting).toContain('Rs 4,000');
    // Devanagari drawn with the portal's font (a text reader gives the reordered vowel sign ि in the order drawn).
    expect(noting).toContain('यंत्र');
    expect(noting).toContain('शमन');
    expect(noting).toContain('Asha Verma');
    expect(noting).toContain('Scientist B');
    expect(noting).toContain('Dr Mehta');
    expect(noting).toMatch(/\d{1,2} [A-Z][a-z]{2} \d{4}/);
    // Then the correspondence in order, each page under its C/n, and every page numbered.
    expect(rest[0]).toContain('State fire NOC first page');
    expect(rest[0]).toMatch(/C\/1 · .*Fire NOC from the state · page 1 of 2/);
    expect(rest[1]).toContain('State fire NOC second page');
    expect(rest[2]).toContain('Site plan of Building 4');
    expect(rest[2]).toContain('C/2 · site-plan.pdf · page 1 of 1');
    pages.forEach((page, i) => expect(page).toContain(`${file.number} · Page ${i + 1} of 4`));
    // Unclassified: nothing in the audit trail.
    expect(await eventsOf(file._id)).toEqual([]);
  });

  // Four exports: more than the default 30 s on a busy two-core machine.
  it(
    'draws a stand-in page for a stored PDF it cannot read whole, and the export still answers',
    { timeout: 120_000 },
    async () => {
      const c = await cast();
      // A PDF by its signature and trailer, but its catalogue has no page tree: pdf-lib loads it and fails on its pages.
      const noPageTree = Buffer.from(
        '%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
      );
      const letter = await postLetter(app, c.employee, letterFields({ letterSub: 'A scan gone wrong' }), {
        field: 'file',
        filename: 'broken.pdf',
        content: noPageTree,
      });
      expect(letter.statusCode, letter.body).toBe(201);
      const file = await open(c.employee, { letterId: letter.json()._id, ownerGroupId: c.group.id });
      const res = await exportOf(c.employee, file._id);
      expect(res.statusCode, res.body).toBe(200);
      const pages = pagesOf(res.rawPayload);
      expect(pages).toHaveLength(2);
      expect(pages[1]).toContain('C/1');
      expect(pages[1]).toContain('its PDF is damaged, encrypted or has no page');
      // In the reader's language (decision 121): the screen's, else the account's.
      const hindi = pagesOf(ok(await call('GET', c.employee, `/api/efiles/${file._id}/export.pdf?lang=hi`)).rawPayload);
      expect(hindi[1]).toContain('PDF');
      expect(hindi[1]).toContain('खोलें');
      expect(hindi[1]).not.toContain('its PDF is damaged');
      await app.db.update(users).set({ language: 'hi' }).where(eq(users.id, c.employee.id));
      expect(pagesOf(ok(await exportOf(c.employee, file._id)).rawPayload)[1]).toContain('खोलें');
      const english = await call('GET', c.employee, `/api/efiles/${file._id}/export.pdf?lang=en`);
      expect(pagesOf(ok(english).rawPayload)[1]).toContain('its PDF is damaged');
      const bad = await call('GET', c.employee, `/api/efiles/${file._id}/export.pdf?lang=fr`);
      expect(bad.statusCode).toBe(400);
    },
  );

  it('is watermarked for a classified file as downloads are, under the id of its audit event', async () => {
    const c = await cast();
    await app.db.update(users).set({ pis: '774411' }).where(eq(users.id, c.director.id));
    const file = await open(c.director, { classification: 'Restricted', ownerGroupId: c.group.id });
    ok(
      await call('POST', c.director, `/api/efiles/${file._id}/notes`, {
        body: { blocks: [{ t: 'p', c: [{ text: 'Noted.' }] }] },
      }),
      201,
    );
    const res = await exportOf(c.director, file._id);
    expect(res.statusCode, res.body).toBe(200);
    const id = String(res.headers['x-download-id']);
    const [page] = pagesOf(res.rawPayload);
    expect(page).toContain('Downloaded by Dr Rao · PIS 774411');
    expect(page).toContain(`Download id ${id}`);
    const events = await eventsOf(file._id);
    expect(events.map((e) => [e.id, e.action, e.outcome, e.classification])).toEqual([
      [id, 'efile_exported', 'success', 'Restricted'],
    ]);
  });

  it('is refused as the file is: 404 to those who may not see it, the step-up for Secret, each refusal recorded', async () => {
    const c = await cast();
    const file = await open(c.director, { classification: 'Secret', ownerGroupId: c.group.id });
    const outsider = await exportOf(c.outsider, file._id);
    expect([outsider.statusCode, outsider.json().code]).toEqual([404, 'efiles.not_found']);
    expect((await exportOf(null, file._id)).statusCode).toBe(401);
    const stale = await tokenFor(app, c.director, { verifiedAt: new Date(Date.now() - 30 * 60_000) });
    const res = await app.inject({
      url: `/api/efiles/${file._id}/export.pdf`,
      headers: { authorization: `Bearer ${stale}` },
    });
    expect([res.statusCode, res.json().code]).toEqual([401, 'auth.step_up_required']);
    // A note's history needs the same step-up.
    const history = await app.inject({
      url: `/api/efiles/${file._id}/notes/00000000-0000-4000-8000-000000000000/history`,
      headers: { authorization: `Bearer ${stale}` },
    });
    expect([history.statusCode, history.json().code]).toEqual([401, 'auth.step_up_required']);
    const unknown = await exportOf(c.director, '00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    const events = await eventsOf(file._id);
    expect(events.map((e) => [e.action, JSON.parse(e.details ?? '{}').code])).toEqual([
      ['access_refused', 'efiles.not_found'],
      ['access_refused', 'auth.step_up_required'],
    ]);
    // An Unclassified file: 404 to an outsider too, and to the head of another group.
    const plain = await open(c.employee, { ownerGroupId: c.group.id });
    expect((await exportOf(c.outsider, plain._id)).statusCode).toBe(404);
    const otherHead = await createUser(app, 'associate_director');
    expect((await exportOf(otherHead, plain._id)).statusCode).toBe(404);
    ok(await exportOf(c.gh, plain._id));
    ok(await exportOf(c.admin, plain._id));
  });
});
