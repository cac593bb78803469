import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { auditEvents, type UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { pdfWithText } from '#server/test/documents.ts';
import { authHeaders, createUser, TEST_PASSWORD, tokenFor } from '#server/test/factories.ts';
import { multipart } from '#server/test/multipart.ts';

import { type Cast, cast } from './close-groups.test-helpers.ts';

/**
 * The step-up before classified close-group documents (decision 095): a document of a classification
 * STEP_UP_CLASSIFICATIONS guards (Secret by default) opens only within STEP_UP_MINUTES of a sign-in or a check, as a
 * Secret letter does (decision 066): its file, its PDF, its preview's state and its thumbnail. Sessions are aged by
 * their row's verified_at, as a person 16 minutes after signing in would have it (as step-up.test.ts does).
 */

const MINUTE = 60_000;
const aged = (minutes: number) => ({ verifiedAt: new Date(Date.now() - minutes * MINUTE) });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const REQUIRED = { code: 'auth.step_up_required', methods: ['password'] };

interface Doc {
  _id: string;
  url: string;
  classification: string;
}

/** A close group of Alice and Bob (not cleared) and Carol (cleared), with the admin and an outsider. */
async function setting() {
  const c = await cast();
  const carol = await createUser(c.app, 'employee', { name: 'Carol Dsouza', classifiedClearance: true, pis: '5150' });
  const res = await c.app.inject({
    method: 'POST',
    url: '/admin/close-group',
    headers: await c.as(c.admin),
    payload: {
      groupName: 'Magazine audit',
      groupPurpose: 'Audit the explosives magazine.',
      groupDuration: { from: '2020-01-01', to: '2099-12-31' },
      requestedBy: [c.alice.id, c.bob.id, carol.id],
    },
  });
  expect(res.statusCode).toBe(201);
  return { c, carol, groupId: res.json()._id as string };
}

async function uploadPdf(c: Cast, user: UserRow, groupId: string, classification: string): Promise<Doc> {
  const body = multipart(
    { classification },
    { field: 'document', filename: 'survey.pdf', content: pdfWithText('Magazine survey') },
  );
  const res = await c.app.inject({
    method: 'POST',
    url: `/api/close-groups/${groupId}/upload`,
    payload: body.payload,
    headers: { ...body.headers, ...(await c.as(user)) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().document as Doc;
}

/** The four ways a document is read: its file, its PDF, its preview's state and its thumbnail. */
const readsOf = (doc: Doc) => {
  const name = doc.url.split('/').pop()!;
  return {
    download: doc.url,
    pdf: `${doc.url}/pdf`,
    preview: `/api/previews/close-groups/${name}`,
    thumbnail: `${doc.url}/thumbnail`,
  };
};

const eventsOf = (c: Cast, objectId: string) =>
  c.app.db.select().from(auditEvents).where(eq(auditEvents.objectId, objectId)).orderBy(asc(auditEvents.seq));

describe('a Secret close-group document needs a sign-in or a check within STEP_UP_MINUTES (decision 095)', () => {
  it('refuses a stale session its file, PDF, preview and thumbnail with the step-up code, then opens after the check', async () => {
    const { c, carol, groupId } = await setting();
    const doc = await uploadPdf(c, carol, groupId, 'Secret');
    const stale = await tokenFor(c.app, carol, aged(16));
    for (const [what, url] of Object.entries(readsOf(doc))) {
      // By bearer (the viewer, the preview's state) and by the download cookie (a link opened in a new tab).
      for (const auth of [{ headers: bearer(stale) }, { cookies: { lp_token: stale } }]) {
        const res = await c.app.inject({ url, ...auth });
        expect(res.statusCode, what).toBe(401);
        expect(res.json(), what).toMatchObject(REQUIRED);
        expect(res.headers['content-disposition'], what).toBeUndefined();
      }
    }
    // The refused openings (the file and its PDF) are in the audit trail, with the document's own classification.
    const refused = await c.app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.objectId, doc._id), eq(auditEvents.action, 'access_refused')));
    expect(refused).toHaveLength(4);
    for (const event of refused) {
      expect(event).toMatchObject({ actorId: carol.id, classification: 'Secret', outcome: 'refused' });
      expect(JSON.parse(event.details!)).toMatchObject({ code: 'auth.step_up_required', status: 401 });
    }

    // A wrong password changes nothing; the right one opens the document in the same session.
    const check = (password: string) =>
      c.app.inject({ method: 'POST', url: '/api/auth/step-up', headers: bearer(stale), payload: { password } });
    expect((await check('not-my-password')).statusCode).toBe(400);
    expect((await c.app.inject({ url: doc.url, headers: bearer(stale) })).statusCode).toBe(401);
    expect((await check(TEST_PASSWORD)).statusCode).toBe(200);
    const reads = readsOf(doc);
    const file = await c.app.inject({ url: reads.download, headers: bearer(stale) });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    const pdf = await c.app.inject({ url: reads.pdf, cookies: { lp_token: stale } });
    expect(pdf.statusCode).toBe(200);
    const preview = await c.app.inject({ url: reads.preview, headers: bearer(stale) });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().thumbnailUrl).toBeNull();
    // Classified material never has a thumbnail (decision 084): allowed past the check, there is none to send.
    const thumbnail = await c.app.inject({ url: reads.thumbnail, headers: bearer(stale) });
    expect(thumbnail.statusCode).toBe(404);
    expect(thumbnail.json().code).toBe('files.not_found');

    // Both reads are recorded as Secret downloads, under the ids their watermarked copies carry.
    const downloads = (await eventsOf(c, doc._id)).filter((e) => e.action === 'document_downloaded');
    expect(downloads.map((e) => [e.id, e.actorId, e.classification, e.outcome])).toEqual([
      [file.headers['x-download-id'], carol.id, 'Secret', 'success'],
      [pdf.headers['x-download-id'], carol.id, 'Secret', 'success'],
    ]);
  });

  it('asks an admin and the document’s own uploader too, and opens within the window', async () => {
    const { c, groupId } = await setting();
    // Alice is not cleared: she sees her own Secret document as its uploader, and is asked as anyone is.
    const doc = await uploadPdf(c, c.alice, groupId, 'Secret');
    for (const who of [c.admin, c.alice]) {
      const stale = await tokenFor(c.app, who, aged(20));
      const fresh = await tokenFor(c.app, who, aged(14));
      for (const [what, url] of Object.entries(readsOf(doc))) {
        expect((await c.app.inject({ url, headers: bearer(stale) })).statusCode, `${who.name} ${what}`).toBe(401);
        const open = (await c.app.inject({ url, headers: bearer(fresh) })).statusCode;
        expect(open, `${who.name} ${what}`).toBe(what === 'thumbnail' ? 404 : 200);
      }
    }
  });

  it('does not tell whoever may not see the document that it is Secret: 403 as before, whatever the session', async () => {
    const { c, groupId, carol } = await setting();
    const doc = await uploadPdf(c, carol, groupId, 'Secret');
    // Bob is a member not cleared; the outsider (a director) is no member.
    for (const who of [c.bob, c.outsider]) {
      for (const [what, url] of Object.entries(readsOf(doc))) {
        for (const minutes of [1, 30]) {
          const res = await c.app.inject({ url, headers: bearer(await tokenFor(c.app, who, aged(minutes))) });
          expect(res.statusCode, `${who.name} ${what}`).toBe(403);
          expect(res.json().code).toBe('files.open_forbidden');
        }
      }
    }
    // A visitor is asked to sign in.
    for (const url of Object.values(readsOf(doc))) expect((await c.app.inject({ url })).statusCode).toBe(401);
  });

  it('leaves documents of the classes it does not guard as they were: Unclassified to Confidential open stale', async () => {
    const { c, carol, groupId } = await setting();
    const stale = await tokenFor(c.app, carol, aged(60));
    for (const classification of ['Unclassified', 'Restricted', 'Confidential']) {
      const doc = await uploadPdf(c, carol, groupId, classification);
      const reads = readsOf(doc);
      for (const url of [reads.download, reads.pdf, reads.preview]) {
        expect((await c.app.inject({ url, headers: bearer(stale) })).statusCode, `${classification} ${url}`).toBe(200);
      }
      const [event] = await eventsOf(c, doc._id);
      expect(event).toMatchObject({ action: 'document_downloaded', classification });
    }
  });

  it('guards Confidential documents too when STEP_UP_CLASSIFICATIONS names them, within its own STEP_UP_MINUTES', async () => {
    const app = await buildTestApp({ STEP_UP_CLASSIFICATIONS: 'Confidential,Secret', STEP_UP_MINUTES: '5' });
    const [admin, carol] = await Promise.all([
      createUser(app, 'admin'),
      createUser(app, 'employee', { classifiedClearance: true }),
    ]);
    const c: Cast = { app, admin, alice: carol, bob: carol, outsider: admin, as: (u) => authHeaders(app, u) };
    const group = await app.inject({
      method: 'POST',
      url: '/admin/close-group',
      headers: await c.as(admin),
      payload: {
        groupName: 'Range review',
        groupPurpose: 'Review the range.',
        groupDuration: { from: '2020-01-01', to: '2099-12-31' },
        requestedBy: [carol.id],
      },
    });
    expect(group.statusCode).toBe(201);
    const doc = await uploadPdf(c, carol, group.json()._id, 'Confidential');
    const restricted = await uploadPdf(c, carol, group.json()._id, 'Restricted');
    const [stale, fresh] = [await tokenFor(app, carol, aged(6)), await tokenFor(app, carol, aged(4))];
    const refused = await app.inject({ url: doc.url, headers: bearer(stale) });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject(REQUIRED);
    expect((await app.inject({ url: doc.url, headers: bearer(fresh) })).statusCode).toBe(200);
    // Restricted is never guarded (STEP_UP_CLASSIFICATIONS takes Confidential and Secret only).
    expect((await app.inject({ url: restricted.url, headers: bearer(stale) })).statusCode).toBe(200);
  });
});
