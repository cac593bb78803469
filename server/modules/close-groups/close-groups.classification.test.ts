import { execFileSync } from 'node:child_process';

import { asc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { activityLogs, auditEvents, type UserRow } from '#server/db/schema/index.ts';
import { pdfWithPages } from '#server/test/documents.ts';
import { createUser } from '#server/test/factories.ts';
import { multipart, SAMPLE_FILES } from '#server/test/multipart.ts';

import { type Cast, cast, createCloseGroup, fileIdOf } from './close-groups.test-helpers.ts';

/**
 * Close-group documents' classification (decision 072): chosen at upload (Unclassified by default),
 * changed by the uploader or an admin, shown in the list; Confidential and Secret ones seen only by members cleared
 * for them (the letters' rule) and by their uploader and admins; every download and refusal in the audit trail, and
 * a PDF Restricted or above watermarked.
 */

interface Doc {
  _id: string;
  filename: string;
  url: string;
  classification: string;
}

async function uploadAs(
  c: Cast,
  user: UserRow | null,
  groupId: string,
  classification?: string,
  file: { filename: string; content: Buffer } = { filename: 'minutes.txt', content: SAMPLE_FILES.txt },
): Promise<LightMyRequestResponse> {
  const body = multipart(classification === undefined ? {} : { classification }, { field: 'document', ...file });
  return c.app.inject({
    method: 'POST',
    url: `/api/close-groups/${groupId}/upload`,
    payload: body.payload,
    headers: { ...body.headers, ...(user ? await c.as(user) : {}) },
  });
}

async function uploadedAs(c: Cast, user: UserRow, groupId: string, classification?: string) {
  const res = await uploadAs(c, user, groupId, classification);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().document as Doc;
}

const classify = async (c: Cast, user: UserRow | null, groupId: string, docId: string, payload: unknown) =>
  c.app.inject({
    method: 'PUT',
    url: `/api/close-groups/${groupId}/documents/${docId}/classification`,
    headers: user ? await c.as(user) : {},
    payload: payload as object,
  });

const documentsSeenBy = async (c: Cast, user: UserRow, groupId: string) => {
  const res = await c.app.inject({ url: `/api/close-groups/${groupId}`, headers: await c.as(user) });
  expect(res.statusCode).toBe(200);
  return (res.json().documents as Doc[]).map((d) => `${d.filename}:${d.classification}`);
};

const download = async (c: Cast, user: UserRow | null, url: string) =>
  c.app.inject({ url, headers: user ? await c.as(user) : {} });

const eventsOf = (c: Cast, objectId: string) =>
  c.app.db.select().from(auditEvents).where(eq(auditEvents.objectId, objectId)).orderBy(asc(auditEvents.seq));

/** A close group of Alice (not cleared), Bob (not cleared) and Carol (cleared), with the admin and an outsider. */
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

describe('POST /api/close-groups/{id}/upload with a classification', () => {
  it('is Unclassified unless chosen, takes each of the four, and refuses anything else', async () => {
    const c = await cast();
    const group = await createCloseGroup(c);
    expect((await uploadedAs(c, c.alice, group._id)).classification).toBe('Unclassified');
    for (const classification of ['Unclassified', 'Restricted', 'Confidential', 'Secret']) {
      expect((await uploadedAs(c, c.alice, group._id, classification)).classification).toBe(classification);
    }
    const bad = await uploadAs(c, c.alice, group._id, 'Top Secret');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'close_groups.choose_classification',
      message: 'Please choose a classification: Unclassified, Restricted, Confidential or Secret.',
      field: 'classification',
    });
    // A visitor is refused before the upload is read.
    expect((await uploadAs(c, null, group._id, 'Secret')).statusCode).toBe(401);
  });
});

describe('who sees a Confidential or Secret document', () => {
  it('in the list: cleared members, its uploader and admins; a member not cleared does not learn of it', async () => {
    const { c, carol, groupId } = await setting();
    await uploadedAs(c, carol, groupId, 'Secret');
    await uploadedAs(c, c.alice, groupId, 'Confidential');
    await uploadedAs(c, carol, groupId, 'Restricted');
    const all = ['minutes.txt:Restricted', 'minutes.txt:Confidential', 'minutes.txt:Secret'];
    expect(await documentsSeenBy(c, carol, groupId)).toEqual(all);
    expect(await documentsSeenBy(c, c.admin, groupId)).toEqual(all);
    expect(await documentsSeenBy(c, c.alice, groupId)).toEqual(['minutes.txt:Restricted', 'minutes.txt:Confidential']);
    expect(await documentsSeenBy(c, c.bob, groupId)).toEqual(['minutes.txt:Restricted']);
    const mine = await c.app.inject({ url: '/api/close-groups/mine', headers: await c.as(c.bob) });
    expect(mine.json()[0].documents).toHaveLength(1);
  });

  it('by its link: visitor 401, outsider 403, member not cleared 403, cleared member, uploader and admin 200', async () => {
    const { c, carol, groupId } = await setting();
    const secret = await uploadedAs(c, c.alice, groupId, 'Secret');
    expect((await download(c, null, secret.url)).statusCode).toBe(401);
    expect((await download(c, c.outsider, secret.url)).statusCode).toBe(403);
    expect((await download(c, c.bob, secret.url)).statusCode).toBe(403);
    for (const who of [carol, c.alice, c.admin]) expect((await download(c, who, secret.url)).statusCode).toBe(200);
    const events = (await eventsOf(c, secret._id)).map((e) => [e.actorId, e.action, e.outcome]);
    expect(events).toEqual([
      [c.outsider.id, 'access_refused', 'refused'],
      [c.bob.id, 'access_refused', 'refused'],
      [carol.id, 'document_downloaded', 'success'],
      [c.alice.id, 'document_downloaded', 'success'],
      [c.admin.id, 'document_downloaded', 'success'],
    ]);
  });

  it('rename and delete by a member not cleared answer 404, as for a document that does not exist', async () => {
    const { c, carol, groupId } = await setting();
    const secret = await uploadedAs(c, carol, groupId, 'Secret');
    const rename = await c.app.inject({
      method: 'PUT',
      url: `/api/close-groups/${groupId}/documents/${secret._id}`,
      headers: await c.as(c.bob),
      payload: { newFilename: 'mine' },
    });
    expect(rename.statusCode).toBe(404);
    expect(rename.json().code).toBe('close_groups.document_not_found');
    const del = await c.app.inject({
      method: 'DELETE',
      url: `/api/close-groups/${groupId}/documents/${secret._id}`,
      headers: await c.as(c.bob),
    });
    expect(del.statusCode).toBe(404);
  });
});

describe('PUT /api/close-groups/{id}/documents/{docId}/classification', () => {
  it('the uploader and an admin change it, with an activity row; nobody else may', async () => {
    const { c, carol, groupId } = await setting();
    const doc = await uploadedAs(c, c.alice, groupId);
    expect((await classify(c, null, groupId, doc._id, { classification: 'Secret' })).statusCode).toBe(401);
    expect((await classify(c, c.outsider, groupId, doc._id, { classification: 'Secret' })).statusCode).toBe(403);
    const byMember = await classify(c, carol, groupId, doc._id, { classification: 'Secret' });
    expect(byMember.statusCode).toBe(403);
    expect(byMember.json()).toMatchObject({
      code: 'close_groups.classify_uploader_only',
      message: 'Only the person who uploaded this document or an administrator can change its classification.',
    });
    const byUploader = await classify(c, c.alice, groupId, doc._id, { classification: 'Restricted' });
    expect(byUploader.statusCode, byUploader.body).toBe(200);
    expect(byUploader.json().document).toMatchObject({ _id: doc._id, classification: 'Restricted' });
    const byAdmin = await classify(c, c.admin, groupId, doc._id, { classification: 'Confidential' });
    expect(byAdmin.json().document.classification).toBe('Confidential');
    // The same again writes nothing.
    expect((await classify(c, c.admin, groupId, doc._id, { classification: 'Confidential' })).statusCode).toBe(200);
    const logs = await c.app.db.select().from(activityLogs).where(eq(activityLogs.targetId, doc._id));
    expect(logs.map((l) => l.action).filter((a) => a.startsWith('Marked'))).toEqual([
      'Marked minutes.txt Restricted in close group Magazine audit',
      'Marked minutes.txt Confidential in close group Magazine audit',
    ]);
    // Now Confidential, Bob (not cleared) no longer sees it: changing it is a 404 to him.
    expect((await classify(c, c.bob, groupId, doc._id, { classification: 'Secret' })).statusCode).toBe(404);
    // Each change is in the audit trail too, with the class before and after (decision 069); refusals and the same
    // class again are not changes.
    const events = await c.app.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.objectId, doc._id))
      .orderBy(asc(auditEvents.seq));
    expect(
      events
        .filter((e) => e.action === 'classification_changed')
        .map((e) => [e.actorId, e.classification, JSON.parse(e.details!)]),
    ).toEqual([
      [c.alice.id, 'Restricted', { from: 'Unclassified', to: 'Restricted', closeGroup: 'Magazine audit' }],
      [c.admin.id, 'Confidential', { from: 'Restricted', to: 'Confidential', closeGroup: 'Magazine audit' }],
    ]);
  });

  it("records who a close group's writes give or take its documents from (decision 069)", async () => {
    const { c, carol, groupId } = await setting();
    const dave = await createUser(c.app, 'employee', { name: 'Dave Menon' });
    const membersEvents = async () =>
      (await c.app.db.select().from(auditEvents).where(eq(auditEvents.objectId, groupId)).orderBy(asc(auditEvents.seq)))
        .filter((e) => e.action === 'close_group_members_changed')
        .map((e) => ({ actor: e.actorId, label: e.objectLabel, ...JSON.parse(e.details!) }));
    const body = (requestedBy: string[]) => ({
      groupName: 'Magazine audit',
      groupPurpose: 'Audit the explosives magazine.',
      groupDuration: { from: '2020-01-01', to: '2099-12-31' },
      requestedBy,
    });
    const edit = async (requestedBy: string[]) => {
      const res = await c.app.inject({
        method: 'PUT',
        url: `/admin/close-group/${groupId}`,
        headers: await c.as(c.admin),
        payload: body(requestedBy),
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await edit([c.alice.id, carol.id, dave.id]); // Bob out, Dave in
    await edit([c.alice.id, carol.id, dave.id]); // no one changes: nothing recorded
    const gone = await c.app.inject({
      method: 'DELETE',
      url: `/admin/close-group/${groupId}`,
      headers: await c.as(c.admin),
    });
    expect(gone.statusCode, gone.body).toBe(200);
    const who = (u: UserRow) => ({ _id: u.id, name: u.name });
    const sorted = (list: { _id: string }[]) => [...list].sort((a, b) => a._id.localeCompare(b._id));
    const events = await membersEvents();
    expect(events).toHaveLength(3);
    expect(events.map((e) => e.actor)).toEqual([c.admin.id, c.admin.id, c.admin.id]);
    expect(sorted(events[0].added)).toEqual(sorted([who(c.alice), who(c.bob), who(carol)]));
    expect(events[0]).toMatchObject({ label: 'Magazine audit', removed: [] });
    expect(events[1]).toMatchObject({ added: [who(dave)], removed: [who(c.bob)] });
    expect(events[2].added).toEqual([]);
    expect(sorted(events[2].removed)).toEqual(sorted([who(c.alice), who(carol), who(dave)]));
  });

  it.each([
    [{}, 'Please choose a classification: Unclassified, Restricted, Confidential or Secret.'],
    [{ classification: 'Normal' }, 'Please choose a classification: Unclassified, Restricted, Confidential or Secret.'],
  ])('says why %j is refused', async (payload, message) => {
    const { c, groupId } = await setting();
    const doc = await uploadedAs(c, c.alice, groupId);
    const res = await classify(c, c.alice, groupId, doc._id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message, field: 'classification' });
  });

  it('keeps the spec rename route to the letter: {newFilename} alone still renames', async () => {
    const { c, groupId } = await setting();
    const doc = await uploadedAs(c, c.alice, groupId, 'Restricted');
    const res = await c.app.inject({
      method: 'PUT',
      url: `/api/close-groups/${groupId}/documents/${doc._id}`,
      headers: await c.as(c.alice),
      payload: { newFilename: 'final' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().document).toMatchObject({ filename: 'final.txt', classification: 'Restricted' });
  });
});

describe('downloads of close-group documents', () => {
  it('records every class with its classification; an Unclassified PDF is sent as it is', async () => {
    const { c, groupId } = await setting();
    const plain = await uploadedAs(c, c.alice, groupId);
    const pdf = pdfWithPages(['Unclassified minutes']);
    const res = await uploadAs(c, c.alice, groupId, 'Unclassified', { filename: 'u.pdf', content: pdf });
    const unclassifiedPdf = res.json().document as Doc;
    expect((await download(c, c.bob, plain.url)).statusCode).toBe(200);
    const sent = await download(c, c.bob, unclassifiedPdf.url);
    expect(sent.rawPayload.equals(pdf)).toBe(true);
    const [event] = await eventsOf(c, unclassifiedPdf._id);
    expect(event).toMatchObject({
      action: 'document_downloaded',
      classification: 'Unclassified',
      objectType: 'close_group_document',
      objectLabel: 'u.pdf',
      id: sent.headers['x-download-id'],
    });
    expect((await eventsOf(c, plain._id))[0]).toMatchObject({ classification: 'Unclassified', actorId: c.bob.id });
  });

  it('stamps a Restricted PDF for the member who downloads it', async () => {
    const { c, carol, groupId } = await setting();
    const body = multipart(
      { classification: 'Restricted' },
      { field: 'document', filename: 'r.pdf', content: pdfWithPages(['one', 'two']) },
    );
    const up = await c.app.inject({
      method: 'POST',
      url: `/api/close-groups/${groupId}/upload`,
      payload: body.payload,
      headers: { ...body.headers, ...(await c.as(c.alice)) },
    });
    const doc = up.json().document as Doc;
    const res = await download(c, carol, doc.url);
    expect(res.statusCode).toBe(200);
    const text = execFileSync('pdftotext', ['-', '-'], { input: res.rawPayload, encoding: 'utf8' });
    const id = String(res.headers['x-download-id']);
    expect(
      text.split('\f').filter((p) => p.includes(`Download id ${id}`) && p.includes('Carol Dsouza · PIS 5150')),
    ).toHaveLength(2);
    expect((await eventsOf(c, doc._id))[0]).toMatchObject({ id, classification: 'Restricted' });
    expect(fileIdOf(doc.url)).toBeTruthy();
  });
});
