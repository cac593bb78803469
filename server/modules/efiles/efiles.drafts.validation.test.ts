import { describe, expect, it } from 'vitest';

import { SAMPLE_FILES } from '#server/test/multipart.ts';

import { body, draftsWorld, ok } from './efiles.drafts.test-helpers.ts';

// Each validation message and refusal of drafts for approval (decision 122), worded by its code.

const sealed = await draftsWorld();
const unsealed = await draftsWorld({ seal: false });
const { call, upload, cast, open, draft, receive, putUp } = sealed;

type Res = { statusCode: number; body: string; json: () => { code?: string; field?: string; message?: string } };
const expectCode = (res: Res, status: number, code: string, field?: string) => {
  expect([res.statusCode, res.json().code], res.body).toEqual([status, code]);
  if (field) expect(res.json().field).toBe(field);
};

describe('drafts for approval: validation', () => {
  it('a new draft needs a title of at most 300 characters and some text', async () => {
    const c = await cast();
    const file = await open(c.employee);
    const base = `/api/efiles/${file._id}/drafts`;
    expectCode(await call('POST', c.employee, base, { title: '', body: body('Text.') }), 400, 'drafts.title_required');
    const long = await call('POST', c.employee, base, { title: 'x'.repeat(301), body: body('Text.') });
    expectCode(long, 400, 'drafts.title_too_long');
    expect(long.json().message).toBe('The title must be at most 300 characters.');
    expectCode(await call('POST', c.employee, base, { title: 'T', body: { blocks: [] } }), 400, 'efiles.note_empty');
    expectCode(
      await call('POST', c.employee, base, { title: 'T', body: { blocks: [{ t: 'script', c: [] }] } }),
      400,
      'efiles.note_bad_block',
    );
    // Markup typed into a draft is kept as text, never as markup.
    ok(await call('POST', c.employee, base, { title: '<b>T</b>', body: body('<script>alert(1)</script>') }), 201);
    const [kept] = ok(await call('GET', c.employee, base)).json() as { title: string; versions: { body: unknown }[] }[];
    expect(kept!.title).toBe('<b>T</b>');
    expect(JSON.stringify(kept!.versions[0]!.body)).toContain('<script>alert(1)</script>');
  });

  it('an uploaded draft needs a title and a .docx or PDF file', async () => {
    const c = await cast();
    const file = await open(c.employee);
    const url = `/api/efiles/${file._id}/drafts/upload`;
    const pdf = { filename: 'a.pdf', content: SAMPLE_FILES.pdf };
    expectCode(await upload(c.employee, url, {}, pdf), 400, 'drafts.title_required');
    expectCode(await upload(c.employee, url, { title: 'Minutes' }), 400, 'drafts.document_required');
    expectCode(
      await upload(c.employee, url, { title: 'Minutes' }, { filename: 'a.png', content: SAMPLE_FILES.png }),
      400,
      'drafts.file_type',
    );
  });

  it('a draft and a version must exist', async () => {
    const c = await cast();
    const file = await open(c.employee);
    const d = await draft(c.employee, file._id);
    const base = `/api/efiles/${file._id}/drafts`;
    expectCode(
      await call('GET', c.employee, `${base}/00000000-0000-4000-8000-000000000000/versions/1/pdf`),
      404,
      'drafts.not_found',
    );
    expectCode(await call('GET', c.employee, `${base}/not-a-draft/versions/1/pdf`), 400, 'common.invalid_id');
    expectCode(await call('GET', c.employee, `${base}/${d._id}/versions/2/pdf`), 404, 'drafts.version_not_found');
    expectCode(await call('GET', c.employee, `${base}/${d._id}/versions/two/diff`), 400, 'drafts.version_not_found');
  });

  it('putting up needs an approver: a group head or a director, not oneself', async () => {
    const c = await cast();
    const file = await open(c.employee);
    const d = await draft(c.employee, file._id);
    const url = `/api/efiles/${file._id}/drafts/${d._id}/put-up`;
    expectCode(await call('POST', c.employee, url, {}), 400, 'efiles.choose_officer', 'to');
    expectCode(
      await call('POST', c.employee, url, { to: '00000000-0000-4000-8000-000000000000' }),
      400,
      'letters.officer_not_found',
    );
    const res = await putUp(c.employee, file._id, d._id, c.colleague.id);
    expectCode(res, 400, 'drafts.approver_role', 'to');
    expect(res.json().message).toBe('Ravi Kumar cannot approve drafts. Please choose a group head or a director.');
    const own = await open(c.gh);
    const mine = await draft(c.gh, own._id);
    expectCode(await putUp(c.gh, own._id, mine._id, c.gh.id), 400, 'efiles.send_to_self', 'to');
  });

  it('asking for changes needs a note, and a draft put up', async () => {
    const c = await cast();
    const file = await open(c.gh);
    const d = await draft(c.gh, file._id);
    const url = `/api/efiles/${file._id}/drafts/${d._id}/ask-changes`;
    expectCode(await call('POST', c.gh, url, { note: 'Shorter.' }), 409, 'drafts.not_put_up');
    expectCode(
      await call('POST', c.gh, `/api/efiles/${file._id}/drafts/${d._id}/approve`, {}),
      409,
      'drafts.not_put_up',
    );
    ok(await putUp(c.gh, file._id, d._id, c.director.id));
    ok(await receive(c.director, file._id));
    expectCode(await call('POST', c.director, url, { note: '  ' }), 400, 'drafts.changes_note_required', 'note');
    const long = await call('POST', c.director, url, { note: 'x'.repeat(2001) });
    expectCode(long, 400, 'drafts.changes_note_too_long', 'note');
    // Personal signatures need a signer helper (SIGNER_HELPER_URL).
    expectCode(
      await call('POST', c.director, `/api/efiles/${file._id}/drafts/${d._id}/approve`, { personal: true }),
      400,
      'drafts.no_helper',
    );
  });

  it('approving needs the lab seal installed', async () => {
    const c = await unsealed.cast();
    const file = await unsealed.open(c.employee);
    const d = await unsealed.draft(c.employee, file._id);
    ok(await unsealed.putUp(c.employee, file._id, d._id, c.gh.id));
    ok(await unsealed.receive(c.gh, file._id));
    const res = await unsealed.call('POST', c.gh, `/api/efiles/${file._id}/drafts/${d._id}/approve`, {});
    expectCode(res, 503, 'drafts.no_seal');
    const [still] = ok(await unsealed.call('GET', c.gh, `/api/efiles/${file._id}/drafts`)).json() as {
      state: string;
    }[];
    expect(still!.state).toBe('put_up');
  });
});
