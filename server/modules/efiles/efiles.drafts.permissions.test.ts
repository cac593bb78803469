import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';

import { pdfWithPages } from '#server/test/documents.ts';

import { body, codeOf, draftsWorld, ok, type Who } from './efiles.drafts.test-helpers.ts';

// Who may do what with drafts for approval (efiles.policy.ts, decision 122), route by route: a visitor, an outsider,
// the wrong role, the holder, a director who does not hold the file, an admin.

const { call, upload, cast, open, draft, receive, putUp } = await draftsWorld();

type Route = (who: Who) => Promise<LightMyRequestResponse>;
const expectRefused = async (route: Route, who: Who, status: number, code: string) => {
  const res = await route(who);
  expect([res.statusCode, codeOf(res)], res.body).toEqual([status, code]);
};

/** A file held by its author with draft D/1, and the routes of that draft. */
async function world() {
  const c = await cast();
  const file = await open(c.employee);
  const d = await draft(c.employee, file._id);
  const base = `/api/efiles/${file._id}/drafts`;
  const routes: Record<string, Route> = {
    list: (who) => call('GET', who, base),
    pdf: (who) => call('GET', who, `${base}/${d._id}/versions/1/pdf`),
    diff: (who) => call('GET', who, `${base}/${d._id}/versions/1/diff`),
    add: (who) => call('POST', who, base, { title: 'Another letter', body: body('Text.') }),
    addUpload: (who) =>
      upload(who, `${base}/upload`, { title: 'Minutes' }, { filename: 'm.pdf', content: pdfWithPages(['m']) }),
    version: (who) => call('POST', who, `${base}/${d._id}/versions`, { body: body('Text again.') }),
    versionUpload: (who) =>
      upload(who, `${base}/${d._id}/versions/upload`, {}, { filename: 'm.pdf', content: pdfWithPages(['m']) }),
    putUp: (who) => putUp(who, file._id, d._id, c.gh.id),
    askChanges: (who) => call('POST', who, `${base}/${d._id}/ask-changes`, { note: 'Shorter.' }),
    approve: (who) => call('POST', who, `${base}/${d._id}/approve`, {}),
  };
  return { c, file, d, routes };
}

const reads = ['list', 'pdf', 'diff'];
const writes = ['add', 'addUpload', 'version', 'versionUpload', 'putUp', 'askChanges', 'approve'];

describe('drafts for approval: who may', () => {
  it('refuses a visitor (401) and an outsider (404: the file is not disclosed) on every route', async () => {
    const { c, routes } = await world();
    for (const [name, route] of Object.entries(routes)) {
      const res = await route(null);
      expect(res.statusCode, name).toBe(401);
      await expectRefused(route, c.outsider, 404, 'efiles.not_found');
    }
  });

  it('lets a director and an admin read, but not write while the file is not with them', async () => {
    const { c, routes } = await world();
    for (const who of [c.director, c.admin]) {
      for (const name of reads) ok(await routes[name]!(who));
      for (const name of writes) await expectRefused(routes[name]!, who, 403, 'efiles.not_holder');
    }
  });

  it('lets the holder write, put up and upload; an employee may not approve nor ask for changes', async () => {
    const { c, routes } = await world();
    for (const name of reads) ok(await routes[name]!(c.employee));
    ok(await routes.add!(c.employee), 201);
    ok(await routes.addUpload!(c.employee), 201);
    ok(await routes.version!(c.employee), 201);
    ok(await routes.versionUpload!(c.employee), 201);
    // An employee is the wrong role to decide, even on a draft of a file they hold.
    for (const name of ['askChanges', 'approve'] as const) {
      await expectRefused(routes[name]!, c.employee, 403, 'drafts.approve_forbidden');
    }
    ok(await routes.putUp!(c.employee));
  });

  it('refuses the wrong role: an employee holding a put-up draft may not approve nor ask for changes', async () => {
    const { c, file, d, routes } = await world();
    ok(await putUp(c.employee, file._id, d._id, c.gh.id));
    ok(await receive(c.gh, file._id));
    ok(await call('POST', c.gh, `/api/efiles/${file._id}/send`, { to: c.colleague.id }));
    ok(await receive(c.colleague, file._id));
    await expectRefused(routes.approve!, c.colleague, 403, 'drafts.approve_forbidden');
    await expectRefused(routes.askChanges!, c.colleague, 403, 'drafts.approve_forbidden');
    // The author, no longer holding it, may not write to it.
    await expectRefused(routes.version!, c.employee, 403, 'efiles.not_holder');
    await expectRefused(routes.putUp!, c.employee, 403, 'efiles.not_holder');
  });

  it('lets the approver holding the file edit, ask for changes and approve; the file must be received first', async () => {
    const { c, file, d, routes } = await world();
    ok(await putUp(c.employee, file._id, d._id, c.gh.id));
    await expectRefused(routes.approve!, c.gh, 409, 'efiles.receive_first');
    ok(await receive(c.gh, file._id));
    ok(await routes.version!(c.gh), 201);
    ok(await routes.askChanges!(c.gh));
    ok(await receive(c.employee, file._id));
    ok(await putUp(c.employee, file._id, d._id, c.gh.id));
    ok(await receive(c.gh, file._id));
    ok(await routes.approve!(c.gh));
    await expectRefused(routes.approve!, c.gh, 409, 'drafts.approved_already');
    await expectRefused(routes.putUp!, c.gh, 409, 'drafts.approved_already');
  });
});
