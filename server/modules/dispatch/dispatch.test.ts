import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { activityLogs, auditEvents } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { pdfWithPages } from '#server/test/documents.ts';
import {
  byPost,
  call,
  cast,
  type Kit,
  makeKit,
  ok,
  openFile,
  putPdfIn,
  sealedPdf,
  tampered,
} from '#server/test/signed-letters.ts';

/**
 * The dispatch register (decision 120): a signed correspondence item of an e-file dispatched with the next outward
 * number of the lab and year, by its file's holder; the register, its search and CSV; refusals.
 */
const app = await buildTestApp();
let kit: Kit;
let people: Awaited<ReturnType<typeof cast>>;
let signed: Buffer;
beforeAll(async () => {
  kit = makeKit(app);
  people = await cast(app);
  signed = await sealedPdf(kit);
}, 60_000);
afterAll(() => kit.close());

interface Dispatch {
  _id: string;
  outwardNumber: string;
  serial: number;
  year: number;
  mode: string;
  efile: { _id: string; number: string };
  itemSeq: number;
  recipients: { name: string; address: string; delivery: string | null }[];
}

/** A file of the employee's with one sealed letter in it. */
async function fileWithLetter(pdf = signed, over: Record<string, unknown> = {}) {
  const file = await openFile(app, people.employee, over);
  const item = await putPdfIn(app, people.employee, file._id, pdf);
  return { file, item, url: `/api/efiles/${file._id}/items/${item.itemId}/dispatch` };
}

describe('dispatching a signed letter', () => {
  it('gives it the next outward number, files it on its e-file and in the register, and logs it', async () => {
    const { file, item, url } = await fileWithLetter();
    const made = ok(
      await call(app, 'POST', people.employee, url, byPost({ date: '2026-12-01' })),
      201,
    ).json() as Dispatch;
    expect(made.outwardNumber).toMatch(/^[A-Z]+\/OUT\/2026\/\d{4}$/);
    expect(made).toMatchObject({ year: 2026, mode: 'post', itemSeq: item.seq, efile: { _id: file._id } });
    expect(made.recipients).toEqual([
      expect.objectContaining({ name: 'The Chief Controller of Explosives', delivery: null }),
    ]);

    const ofFile = ok(
      await call(app, 'GET', people.employee, `/api/efiles/${file._id}/dispatches`),
    ).json() as Dispatch[];
    expect(ofFile.map((d) => d.outwardNumber)).toEqual([made.outwardNumber]);

    const page = ok(
      await call(app, 'GET', people.colleague, `/api/dispatches?q=${encodeURIComponent(made.outwardNumber)}`),
    );
    expect(page.headers['x-total-count']).toBe('1');
    expect((page.json() as Dispatch[])[0]!._id).toBe(made._id);
    const byRecipient = ok(await call(app, 'GET', people.colleague, '/api/dispatches?q=cgo%20complex&limit=100'));
    expect((byRecipient.json() as Dispatch[]).map((d) => d._id)).toContain(made._id);

    const csv = ok(await call(app, 'GET', people.colleague, `/api/dispatches/export.csv?q=${made.outwardNumber}`));
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toContain(made.outwardNumber);
    expect(csv.body).toContain('01 Dec 2026');

    // The portal search finds it too, for any signed-in reader.
    const found = ok(
      await call(app, 'GET', people.outsider, `/api/search?q=${encodeURIComponent(made.outwardNumber)}`),
    ).json() as { results: { kind: string; title: string; url: string }[] };
    expect(found.results.find((r) => r.kind === 'dispatch')?.title).toContain(made.outwardNumber);

    const logs = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, made._id));
    expect(logs.map((l) => l.code)).toEqual(['activity.dispatch_sent']);
    expect(logs[0]!.action).toBe(`Dispatched C/${item.seq} of file ${file.number} as ${made.outwardNumber}`);
  });

  it('gives 20 dispatches at once 20 consecutive numbers', async () => {
    const letters = [];
    for (let i = 0; i < 20; i++) letters.push(await fileWithLetter());
    const answers = await Promise.all(letters.map((l) => call(app, 'POST', people.employee, l.url, byPost())));
    const serials = answers.map((a) => (ok(a, 201).json() as Dispatch).serial).sort((a, b) => a - b);
    expect(new Set(serials).size).toBe(20);
    expect(serials.at(-1)! - serials[0]!).toBe(19);
  }, 120_000);

  it("records a classified file's dispatch in the audit trail, and hides it from those not cleared", async () => {
    const { file, url } = await fileWithLetter(signed, { classification: 'Confidential' });
    const made = ok(await call(app, 'POST', people.employee, url, byPost()), 201).json() as Dispatch;
    const events = await app.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'letter_dispatched'), eq(auditEvents.objectId, file._id)));
    expect(events).toHaveLength(1);
    expect(events[0]!.classification).toBe('Confidential');
    expect((await call(app, 'GET', people.colleague, `/api/dispatches/${made._id}`)).statusCode).toBe(404);
    ok(await call(app, 'GET', people.director, `/api/dispatches/${made._id}`));
  });
});

describe('refusals', () => {
  it.each([
    [{ mode: 'post', recipients: [] }, 'dispatch.recipients_required'],
    [{ mode: 'post' }, 'dispatch.recipients_required'],
    [{ mode: 'pigeon', recipients: [{ name: 'A', address: 'B' }] }, 'dispatch.mode_invalid'],
    [{ mode: 'post', recipients: [{ name: '', address: 'B' }] }, 'dispatch.recipient_name_required'],
    [{ mode: 'speed_post', recipients: [{ name: 'A', address: '' }] }, 'dispatch.address_required'],
    [{ mode: 'email', recipients: [{ name: 'A', address: 'B' }] }, 'dispatch.email_required'],
    [{ mode: 'email', recipients: [{ name: 'A', email: 'not-an-address' }] }, 'dispatch.email_invalid'],
    [{ mode: 'hand', date: '2026-13-01', recipients: [{ name: 'A', address: 'B' }] }, 'common.date_invalid'],
  ])('%j: 400 %s', async (body, code) => {
    const { url } = await fileWithLetter();
    const res = await call(app, 'POST', people.employee, url, body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe(code);
  });

  it('refuses a date to come, a second dispatch, email without a relay, an unsigned PDF and a changed one', async () => {
    const { url } = await fileWithLetter();
    const future = await call(app, 'POST', people.employee, url, byPost({ date: '2099-01-01' }));
    expect([future.statusCode, future.json().code]).toEqual([400, 'dispatch.date_future']);
    const email = await call(app, 'POST', people.employee, url, {
      mode: 'email',
      recipients: [{ name: 'A', email: 'a@b.example' }],
    });
    expect([email.statusCode, email.json().code]).toEqual([409, 'dispatch.mail_off']);
    const first = ok(await call(app, 'POST', people.employee, url, byPost()), 201).json() as Dispatch;
    const second = await call(app, 'POST', people.employee, url, byPost());
    expect([second.statusCode, second.json().code]).toEqual([409, 'dispatch.already_dispatched']);
    expect(second.json().message).toContain(first.outwardNumber);

    const unsigned = await fileWithLetter(pdfWithPages(['An unsigned letter']));
    const u = await call(app, 'POST', people.employee, unsigned.url, byPost());
    expect([u.statusCode, u.json().code]).toEqual([422, 'dispatch.not_signed_pdf']);
    const changed = await fileWithLetter(tampered(signed));
    const c = await call(app, 'POST', people.employee, changed.url, byPost());
    expect([c.statusCode, c.json().code]).toEqual([422, 'dispatch.signature_invalid']);
    const missing = await call(
      app,
      'POST',
      people.employee,
      `/api/efiles/${unsigned.file._id}/items/00000000-0000-4000-8000-000000000000/dispatch`,
      byPost(),
    );
    expect([missing.statusCode, missing.json().code]).toEqual([404, 'dispatch.item_not_found']);
  });

  it('lets only the holder dispatch: a visitor, an outsider, a colleague, the director and an admin are refused', async () => {
    const { url } = await fileWithLetter();
    expect((await call(app, 'POST', null, url, byPost())).statusCode).toBe(401);
    expect((await call(app, 'POST', people.outsider, url, byPost())).statusCode).toBe(404);
    expect((await call(app, 'POST', people.colleague, url, byPost())).statusCode).toBe(404);
    for (const who of [people.director, people.admin]) {
      const res = await call(app, 'POST', who, url, byPost());
      expect([res.statusCode, res.json().code]).toEqual([403, 'dispatch.not_holder']);
    }
    ok(await call(app, 'POST', people.employee, url, byPost()), 201);
  });

  it('keeps the register for signed-in staff, paged on the server', async () => {
    expect((await call(app, 'GET', null, '/api/dispatches')).statusCode).toBe(401);
    const page = ok(await call(app, 'GET', people.outsider, '/api/dispatches?limit=2'));
    expect(page.json()).toHaveLength(2);
    expect(page.headers.link).toContain('offset=2');
    const bad = await call(app, 'GET', people.outsider, '/api/dispatches?mode=pigeon');
    expect([bad.statusCode, bad.json().code]).toEqual([400, 'dispatch.mode_invalid']);
    expect(
      (await call(app, 'GET', people.outsider, '/api/dispatches/00000000-0000-4000-8000-000000000000')).statusCode,
    ).toBe(404);
  });
});
