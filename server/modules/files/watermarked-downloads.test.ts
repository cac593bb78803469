import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';

import { auditEvents, type UserRow } from '#server/db/schema/index.ts';
import { asDatabaseOwner, buildTestApp } from '#server/test/app.ts';
import { docxWithText, pdfWithPages } from '#server/test/documents.ts';
import { authHeaders, createUser, letterFields, postLetter } from '#server/test/factories.ts';
import { multipart, type MultipartFile, SAMPLE_FILES } from '#server/test/multipart.ts';

/**
 * Traceable downloads (decisions 070-071): a classified letter's PDF is watermarked on every page with
 * the person's name, PIS number, the time and the download id (its audit event's id), checked with Debian's pdftotext;
 * the original bytes are never sent; a PDF that cannot be watermarked is refused; and when the audit trail cannot be
 * written, nothing classified is served (503).
 */

const app: FastifyInstance = await buildTestApp();
const work = mkdtempSync(path.join(os.tmpdir(), 'lp-stamp-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest();

/** The text of each page of a PDF, as Debian's pdftotext reads it. */
function pagesOf(pdf: Buffer): string[] {
  const file = path.join(work, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).split('\f').slice(0, -1);
}

async function uploadLetter(user: UserRow, classification: string, file: MultipartFile) {
  const res = await postLetter(app, user, letterFields({ classification }), file);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { _id: string; letterId: string; fileUrl: string };
}

const download = async (user: UserRow, url: string, headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { ...(await authHeaders(app, user)), ...headers } });

const eventById = async (id: string) => (await app.db.select().from(auditEvents).where(eq(auditEvents.id, id)))[0];
const eventsOf = (objectId: string) =>
  app.db.select().from(auditEvents).where(eq(auditEvents.objectId, objectId)).orderBy(asc(auditEvents.seq));

describe('a Secret letter downloaded by a cleared officer', () => {
  it('is stamped on every page with their name, PIS and the download id; the original is never sent', async () => {
    const director = await createUser(app, 'director');
    const officer = await createUser(app, 'employee', {
      name: 'Anjali Deshmukh',
      pis: '804512',
      classifiedClearance: true,
    });
    const original = pdfWithPages(['Minutes of the magazine survey', 'Storage of class 1.1 explosives', 'Annexure']);
    const letter = await uploadLetter(director, 'Secret', { field: 'file', filename: 'survey.pdf', content: original });
    const marked = await app.inject({
      method: 'POST',
      url: `/api/dac/${letter._id}/movements`,
      headers: await authHeaders(app, director),
      payload: { to: [officer.id] },
    });
    expect(marked.statusCode).toBe(201);

    const res = await download(officer, letter.fileUrl);
    expect(res.statusCode, res.body).toBe(200);
    const served = res.rawPayload;
    const downloadId = String(res.headers['x-download-id']);
    expect(downloadId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('private, no-store');
    for (const header of ['etag', 'last-modified', 'accept-ranges']) expect(res.headers[header]).toBeUndefined();

    // Every page carries the watermark, and the page's own text is still there.
    const pages = pagesOf(served);
    expect(pages).toHaveLength(3);
    pages.forEach((page, i) => {
      expect(page, `page ${i + 1}`).toContain('Downloaded by Anjali Deshmukh');
      expect(page, `page ${i + 1}`).toContain('PIS 804512');
      expect(page, `page ${i + 1}`).toContain(`Download id ${downloadId}`);
      expect(page, `page ${i + 1}`).toMatch(/\d{2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} (am|pm) IST/);
    });
    expect(pages[1]).toContain('Storage of class 1.1 explosives');

    // Not the original: neither its bytes nor its SHA-256 (raw or hex) anywhere in what was sent.
    const digest = sha256(original);
    expect(sha256(served).equals(digest)).toBe(false);
    expect(served.includes(original)).toBe(false);
    expect(served.includes(digest)).toBe(false);
    expect(served.includes(Buffer.from(digest.toString('hex')))).toBe(false);
    expect(JSON.stringify(res.headers)).not.toContain(digest.toString('hex'));
    expect(JSON.stringify(res.headers)).not.toContain(digest.toString('base64'));

    // The download id leads to its audit row.
    expect(await eventById(downloadId)).toMatchObject({
      action: 'letter_downloaded',
      outcome: 'success',
      actorId: officer.id,
      actorName: 'Anjali Deshmukh',
      objectId: letter._id,
      objectLabel: letter.letterId,
      classification: 'Secret',
      details: JSON.stringify({ stamped: true }),
    });

    // Each download is watermarked anew, under its own id: no range, no validator, no copy kept.
    const ranged = await download(officer, letter.fileUrl, { range: 'bytes=0-99', 'if-none-match': '*' });
    expect(ranged.statusCode).toBe(200);
    expect(ranged.headers['content-range']).toBeUndefined();
    expect(ranged.headers['x-download-id']).not.toBe(downloadId);
    expect(pagesOf(ranged.rawPayload)[0]).toContain(`Download id ${ranged.headers['x-download-id']}`);
  });

  it('draws a name in Devanagari with the font the portal ships', async () => {
    const director = await createUser(app, 'director', { name: 'राम कुमार', pis: '11223' });
    const letter = await uploadLetter(director, 'Confidential', {
      field: 'file',
      filename: 'note.pdf',
      content: pdfWithPages(['Note']),
    });
    const res = await download(director, letter.fileUrl);
    expect(res.statusCode).toBe(200);
    const [page] = pagesOf(res.rawPayload);
    expect(page).toContain('राम');
    expect(page).toContain('PIS 11223');
    // The Devanagari face is embedded as a subset, not whole.
    expect(res.rawPayload.length).toBeLessThan(60_000);
  });

  it('sends a classified file that is not a PDF as it is, recorded under its download id', async () => {
    const owner = await createUser(app, 'employee');
    const docx = docxWithText('Annual return of explosives');
    const letter = await uploadLetter(owner, 'Confidential', { field: 'file', filename: 'return.docx', content: docx });
    const res = await download(owner, letter.fileUrl);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(docx)).toBe(true);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const event = await eventById(String(res.headers['x-download-id']));
    expect(event).toMatchObject({ action: 'letter_downloaded', details: JSON.stringify({ stamped: false }) });
  });

  it('refuses a PDF that cannot be stamped (422 files.unstampable), recorded as a failure, never sending it', async () => {
    const owner = await createUser(app, 'employee');
    // A PDF without a page, then bytes that only start like one.
    for (const content of [SAMPLE_FILES.pdf, Buffer.from('%PDF-1.7\nnot really a PDF at all\n')]) {
      const letter = await uploadLetter(owner, 'Secret', { field: 'file', filename: 'broken.pdf', content });
      const res = await download(owner, letter.fileUrl);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'files.unstampable' });
      expect(res.headers['content-disposition']).toBeUndefined();
      expect(res.rawPayload.includes(content)).toBe(false);
      const [event] = await eventsOf(letter._id);
      expect(event).toMatchObject({ action: 'letter_downloaded', outcome: 'failure', classification: 'Secret' });
      expect(JSON.parse(event!.details!).code).toBe('files.unstampable');
    }
  });

  it('records the refusal of someone who may not open it (403 files.open_forbidden)', async () => {
    const owner = await createUser(app, 'director');
    const outsider = await createUser(app, 'employee', { classifiedClearance: true });
    const letter = await uploadLetter(owner, 'Secret', {
      field: 'file',
      filename: 'x.pdf',
      content: pdfWithPages(['x']),
    });
    const res = await download(outsider, letter.fileUrl);
    expect(res.statusCode).toBe(403);
    const [event] = await eventsOf(letter._id);
    expect(event).toMatchObject({ action: 'access_refused', outcome: 'refused', actorId: outsider.id });
    expect(JSON.parse(event!.details!)).toEqual({
      code: 'files.open_forbidden',
      status: 403,
      attempted: 'letter_downloaded',
    });
  });
});

describe('when the audit trail cannot be written, nothing classified is served (fail closed)', () => {
  it('answers 503 audit.unavailable for a Secret letter card and file and a close-group document', async () => {
    const director = await createUser(app, 'director');
    const admin = await createUser(app, 'admin');
    const secret = await uploadLetter(director, 'Secret', {
      field: 'file',
      filename: 's.pdf',
      content: pdfWithPages(['s']),
    });
    const normal = await uploadLetter(director, 'Normal', {
      field: 'file',
      filename: 'n.pdf',
      content: pdfWithPages(['n']),
    });
    const group = await app.inject({
      method: 'POST',
      url: '/admin/close-group',
      headers: await authHeaders(app, admin),
      payload: {
        groupName: 'Fail closed',
        groupPurpose: 'Test',
        groupDuration: { from: '2020-01-01', to: '2099-12-31' },
        requestedBy: [director.id],
      },
    });
    expect(group.statusCode).toBe(201);
    const body = multipart({}, { field: 'document', filename: 'minutes.txt', content: SAMPLE_FILES.txt });
    const doc = await app.inject({
      method: 'POST',
      url: `/api/close-groups/${group.json()._id}/upload`,
      payload: body.payload,
      headers: { ...body.headers, ...(await authHeaders(app, director)) },
    });
    expect(doc.statusCode).toBe(201);

    // A trigger that raises stops every write, added by the database's owner (the portal's role may not, decision 093).
    const dbOwner = asDatabaseOwner(app);
    await dbOwner.execute(sql`create function audit_writes_stopped() returns trigger language plpgsql as $$
      begin raise exception 'audit writes stopped by the test'; end $$`);
    await dbOwner.execute(sql`create trigger audit_writes_stopped before insert on audit_events
      for each row execute function audit_writes_stopped()`);
    try {
      for (const url of [`/api/dac/${secret._id}`, secret.fileUrl, doc.json().document.url]) {
        const res = await download(director, url);
        expect(res.statusCode, url).toBe(503);
        expect(res.json(), url).toMatchObject({ code: 'audit.unavailable' });
        expect(res.headers['content-disposition'], url).toBeUndefined();
      }
      // What is not classified is served as ever.
      expect((await download(director, `/api/dac/${normal._id}`)).statusCode).toBe(200);
      expect((await download(director, normal.fileUrl)).statusCode).toBe(200);
    } finally {
      await dbOwner.execute(sql`drop trigger audit_writes_stopped on audit_events`);
      await dbOwner.execute(sql`drop function audit_writes_stopped()`);
    }
    expect((await download(director, secret.fileUrl)).statusCode).toBe(200);
  });
});
