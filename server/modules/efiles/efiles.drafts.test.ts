import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

import { auditEvents, efileDraftVersions } from '#server/db/schema/index.ts';
import { asDatabaseOwner } from '#server/test/app.ts';
import { docxWithText, pdfWithPages } from '#server/test/documents.ts';

import { body, codeOf, draftsWorld, ok, pdfsig, pdfText } from './efiles.drafts.test-helpers.ts';

// Drafts for approval (decision 122): a rich-text draft through put up, changes asked, a new version, the diff and
// approval, which the lab seal signs (and the approver's key at the signer helper, decision 119) as PAdES signatures
// that pdfsig reports valid; uploaded drafts; the audit trail of a classified file.

const w = await draftsWorld({ helper: true });
const { app, call, upload, cast, open, draft, drafts, receive, putUp, logsFor } = w;

const download = async (url: string, user: Parameters<typeof call>[1]) => {
  const res = ok(await call('GET', user, url));
  return new Uint8Array(res.rawPayload);
};

describe('a draft for approval', () => {
  it('goes up, comes back with changes asked, comes again as v2 and is approved with two valid signatures', async () => {
    const c = await cast();
    const file = await open(c.employee);
    const d = await draft(c.employee, file._id, 'अग्नि सुरक्षा ऑडिट भवन 4 का होगा। The audit is due on 15 December.');
    expect(d.ref).toBe('D/1');

    // v1 as a PDF: drawn with Devanagari.
    let pdf = await download(`/api/efiles/${file._id}/drafts/${d._id}/versions/1/pdf`, c.employee);
    expect(pdfText(pdf)).toContain('Letter to the fire officer');
    expect(pdfText(pdf)).toContain('The audit is due on 15 December.');

    ok(await putUp(c.employee, file._id, d._id, c.gh.id, 'Please see.'));
    let [listed] = await drafts(c.employee, file._id);
    expect(listed!.state).toBe('put_up');
    expect(listed!.can).toEqual({ newVersion: false, putUp: false, decide: false });
    ok(await receive(c.gh, file._id));
    [listed] = await drafts(c.gh, file._id);
    expect(listed!.can).toEqual({ newVersion: true, putUp: true, decide: true });

    // The group head asks for a change: the file goes back to the author with the note.
    ok(await call('POST', c.gh, `/api/efiles/${file._id}/drafts/${d._id}/ask-changes`, { note: 'Say 16 December.' }));
    let detail = ok(await call('GET', c.employee, `/api/efiles/${file._id}`)).json();
    expect(detail.holder._id).toBe(c.employee.id);
    ok(await receive(c.employee, file._id));
    [listed] = await drafts(c.employee, file._id);
    expect(listed).toMatchObject({ state: 'changes_asked', changesNote: 'Say 16 December.' });

    const v2 = ok(
      await call('POST', c.employee, `/api/efiles/${file._id}/drafts/${d._id}/versions`, {
        body: body('अग्नि सुरक्षा ऑडिट भवन 4 का होगा। The audit is due on 16 December.'),
      }),
      201,
    ).json();
    expect(v2.version).toBe(2);
    const diff = ok(await call('GET', c.employee, `/api/efiles/${file._id}/drafts/${d._id}/versions/2/diff`)).json();
    expect(diff).toMatchObject({ version: 2, against: 1, comparable: true });
    expect(diff.parts.filter((p: { removed: boolean }) => p.removed).map((p: { value: string }) => p.value)).toEqual([
      '15',
    ]);
    expect(diff.parts.filter((p: { added: boolean }) => p.added).map((p: { value: string }) => p.value)).toEqual([
      '16',
    ]);
    const first = ok(await call('GET', c.employee, `/api/efiles/${file._id}/drafts/${d._id}/versions/1/diff`)).json();
    expect(first).toMatchObject({ version: 1, against: null, comparable: true });

    // Up to the director, who approves and signs with the lab seal and his own key.
    ok(await putUp(c.employee, file._id, d._id, c.director.id));
    ok(await receive(c.director, file._id));
    const approved = ok(
      await call('POST', c.director, `/api/efiles/${file._id}/drafts/${d._id}/approve`, { personal: true }),
    ).json();
    expect(approved.message).toBe('C/1');
    expect(w.helper!.signed()).toBe(1);
    [listed] = await drafts(c.director, file._id);
    expect(listed).toMatchObject({ state: 'approved', item: { ref: 'C/1' } });
    expect(listed!.versions.map((v) => v.version)).toEqual([1, 2]);

    // The item on the correspondence side is the signed PDF: pdfsig reports both signatures valid.
    detail = ok(await call('GET', c.director, `/api/efiles/${file._id}`)).json();
    expect(detail.items.map((i: { ref: string }) => i.ref)).toEqual(['C/1']);
    pdf = await download(listed!.item!.fileUrl, c.employee);
    expect(pdfsig(pdf)).toEqual([
      { commonName: 'Test Lab Seal', type: 'ETSI.CAdES.detached', whole: false, validation: 'Signature is Valid.' },
      { commonName: 'Dr Rao DSC', type: 'ETSI.CAdES.detached', whole: true, validation: 'Signature is Valid.' },
    ]);
    expect(pdfText(pdf)).toContain('16 December');

    // An approved draft no longer changes.
    const res = await call('POST', c.director, `/api/efiles/${file._id}/drafts/${d._id}/versions`, { body: body('x') });
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'drafts.approved_already']);

    const actions = (await logsFor(file._id)).map((l) => l.code);
    for (const code of [
      'activity.efile_draft_added',
      'activity.efile_draft_put_up',
      'activity.efile_draft_changes_asked',
      'activity.efile_draft_version_added',
      'activity.efile_draft_approved',
    ]) {
      expect(actions).toContain(code);
    }
  });

  it('is sealed alone when the approver does not sign personally: pdfsig reports it valid and whole', async () => {
    const c = await cast();
    const file = await open(c.employee);
    const d = await draft(c.employee, file._id);
    ok(await putUp(c.employee, file._id, d._id, c.gh.id));
    ok(await receive(c.gh, file._id));
    ok(await call('POST', c.gh, `/api/efiles/${file._id}/drafts/${d._id}/approve`, {}));
    const [listed] = await drafts(c.gh, file._id);
    expect(pdfsig(await download(listed!.item!.fileUrl, c.gh))).toEqual([
      { commonName: 'Test Lab Seal', type: 'ETSI.CAdES.detached', whole: true, validation: 'Signature is Valid.' },
    ]);
  });

  it('keeps every version as written: the database refuses changing or removing one', async () => {
    const c = await cast();
    const file = await open(c.employee);
    const d = await draft(c.employee, file._id);
    const owner = asDatabaseOwner(app);
    const refusal = async (query: Promise<unknown>) => {
      const err = (await query.then(
        () => null,
        (e: unknown) => e,
      )) as { message?: string; cause?: { message?: string } } | null;
      return err ? (err.cause?.message ?? err.message ?? '') : 'not refused';
    };
    for (const db of [app.db, owner]) {
      const where = eq(efileDraftVersions.draftId, d._id);
      expect(await refusal(db.update(efileDraftVersions).set({ text: 'changed' }).where(where))).toMatch(
        /kept as written/,
      );
      expect(await refusal(db.delete(efileDraftVersions).where(where))).toMatch(/kept as written/);
    }
  });
});

describe('an uploaded draft', () => {
  it('as a PDF is approved as it is; a .docx waits for its PDF copy', async () => {
    const c = await cast();
    const file = await open(c.employee);
    let res = await upload(
      c.employee,
      `/api/efiles/${file._id}/drafts/upload`,
      { title: 'Minutes' },
      {
        filename: 'minutes.pdf',
        content: pdfWithPages(['Minutes of the fire committee']),
      },
    );
    const pdfDraft = ok(res, 201).json();
    res = await upload(
      c.employee,
      `/api/efiles/${file._id}/drafts/upload`,
      { title: 'Reply' },
      {
        filename: 'reply.docx',
        content: docxWithText('A reply to the fire officer'),
      },
    );
    const docxDraft = ok(res, 201).json();
    const listed = await drafts(c.employee, file._id);
    expect(listed.map((d) => d.versions[0])).toMatchObject([
      { kind: 'pdf', fileName: 'minutes.pdf' },
      { kind: 'docx', fileName: 'reply.docx' },
    ]);
    // The uploaded version downloads under the file's rule; its diff is not a word diff.
    const fileUrl = (listed[0]!.versions[0] as unknown as { fileUrl: string }).fileUrl;
    ok(await call('GET', c.employee, fileUrl));
    expect((await call('GET', c.outsider, fileUrl)).statusCode).toBe(403);
    res = await upload(
      c.employee,
      `/api/efiles/${file._id}/drafts/${pdfDraft._id}/versions/upload`,
      {},
      {
        filename: 'minutes-2.pdf',
        content: pdfWithPages(['Minutes of the fire committee, corrected']),
      },
    );
    ok(res, 201);
    const diff = ok(await call('GET', c.employee, `/api/efiles/${file._id}/drafts/${pdfDraft._id}/versions/2/diff`));
    expect(diff.json()).toMatchObject({ comparable: false, parts: [] });

    ok(await putUp(c.employee, file._id, docxDraft._id, c.gh.id));
    ok(await receive(c.gh, file._id));
    res = await call('POST', c.gh, `/api/efiles/${file._id}/drafts/${docxDraft._id}/approve`, {});
    expect([res.statusCode, codeOf(res)]).toEqual([409, 'drafts.pdf_not_ready']);
    // The group head puts the PDF draft up to the director, who approves it.
    ok(await putUp(c.gh, file._id, pdfDraft._id, c.director.id));
    ok(await receive(c.director, file._id));
    ok(await call('POST', c.director, `/api/efiles/${file._id}/drafts/${pdfDraft._id}/approve`, {}));
    const [signed] = await drafts(c.director, file._id);
    expect(pdfsig(await download(signed!.item!.fileUrl, c.director))).toEqual([
      { commonName: 'Test Lab Seal', type: 'ETSI.CAdES.detached', whole: true, validation: 'Signature is Valid.' },
    ]);
    expect(pdfText(await download(signed!.item!.fileUrl, c.director))).toContain('corrected');
  });
});

describe('a draft of a classified file', () => {
  it('is read and approved in the audit trail', async () => {
    const c = await cast();
    const file = await open(c.director, { classification: 'Restricted', ownerGroupId: c.group.id });
    const d = await draft(c.director, file._id);
    ok(await call('GET', c.director, `/api/efiles/${file._id}/drafts/${d._id}/versions/1/pdf`));
    ok(await putUp(c.director, file._id, d._id, c.gh.id));
    ok(await receive(c.gh, file._id));
    ok(await call('POST', c.gh, `/api/efiles/${file._id}/drafts/${d._id}/approve`, {}));
    const events = await app.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.objectId, file._id))
      .orderBy(asc(auditEvents.seq));
    const drafted = events.filter((e) => e.action.startsWith('efile_draft'));
    expect(drafted.map((e) => [e.action, e.classification])).toEqual([
      ['efile_draft_viewed', 'Restricted'],
      ['efile_draft_approved', 'Restricted'],
    ]);
  });
});
