import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { activityLogs, signatureChecks } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { pdfWithPages } from '#server/test/documents.ts';
import {
  call,
  cast,
  type Kit,
  makeKit,
  ok,
  openFile,
  pdfsigValidations,
  putPdfIn,
  sealedPdf,
  tampered,
} from '#server/test/signed-letters.ts';

/**
 * The check of a stored signed PDF (decision 123), GET /api/signatures/{area}/{name}, against pdfsig's verdict, and
 * the admin's trusted roots, /admin/trusted-roots.
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

const checkUrl = (fileUrl: string) => fileUrl.replace('/uploads/', '/api/signatures/');
interface Report {
  signed: boolean;
  valid: boolean;
  changedAfterLastSignature: boolean;
  signatures: {
    status: string;
    trusted: boolean;
    changedAfter: boolean;
    signer: { commonName: string } | null;
    chain: unknown[];
    signingTime: string | null;
  }[];
}

describe('checking a stored PDF', () => {
  it("shows the signer, the chain and the time, valid as pdfsig says, untrusted until the root is the admin's", async () => {
    const file = await openFile(app, people.employee);
    const { fileUrl } = await putPdfIn(app, people.employee, file._id, signed);
    expect(pdfsigValidations(kit, signed)).toEqual(['Signature is Valid.']);
    const report = ok(await call(app, 'GET', people.employee, checkUrl(fileUrl))).json() as Report;
    expect(report).toMatchObject({ signed: true, valid: true, changedAfterLastSignature: false });
    expect(report.signatures).toHaveLength(1);
    expect(report.signatures[0]).toMatchObject({ status: 'valid', trusted: false, changedAfter: false });
    expect(report.signatures[0]!.signer!.commonName).toBe('Test Lab Seal');
    expect(report.signatures[0]!.signingTime).toMatch(/^\d{4}-\d\d-\d\dT/);

    // The admin trusts the seal's root: the kept check is made again under the new list.
    ok(
      await call(app, 'POST', people.admin, '/admin/trusted-roots', { label: 'Test root', pem: kit.certs.rootPem }),
      201,
    );
    const trusted = ok(await call(app, 'GET', people.employee, checkUrl(fileUrl))).json() as Report;
    expect(trusted.signatures[0]).toMatchObject({ status: 'valid', trusted: true });
    expect(trusted.signatures[0]!.chain).toHaveLength(2);
    const kept = await app.db.select().from(signatureChecks);
    expect(kept.length).toBeGreaterThan(0);
  });

  it('says invalid for a byte changed after signing, as pdfsig does', async () => {
    const file = await openFile(app, people.employee);
    const changed = tampered(signed);
    expect(pdfsigValidations(kit, changed)).toEqual(['Digest Mismatch.']);
    const { fileUrl } = await putPdfIn(app, people.employee, file._id, changed);
    const report = ok(await call(app, 'GET', people.employee, checkUrl(fileUrl))).json() as Report;
    expect(report).toMatchObject({ signed: true, valid: false });
    expect(report.signatures[0]!.status).toBe('invalid');
  });

  it('answers an unsigned PDF with no signatures', async () => {
    const file = await openFile(app, people.employee);
    const { fileUrl } = await putPdfIn(app, people.employee, file._id, pdfWithPages(['No signature here']));
    const report = ok(await call(app, 'GET', people.employee, checkUrl(fileUrl))).json() as Report;
    expect(report).toMatchObject({ signed: false, valid: false, signatures: [] });
  });

  it('is for whoever may open the file, as its download is', async () => {
    const file = await openFile(app, people.employee);
    const { fileUrl } = await putPdfIn(app, people.employee, file._id, signed);
    const url = checkUrl(fileUrl);
    expect((await call(app, 'GET', null, url)).statusCode).toBe(401);
    for (const who of [people.outsider, people.colleague, people.director, people.admin, people.employee]) {
      const download = await call(app, 'GET', who, fileUrl);
      const check = await call(app, 'GET', who, url);
      expect(check.statusCode, `${who.name}: ${check.body}`).toBe(download.statusCode);
    }
    expect((await call(app, 'GET', people.outsider, url)).statusCode).not.toBe(200);
    expect((await call(app, 'GET', people.director, url)).statusCode).toBe(200);
  });

  it('answers a missing file 404 and a bad name 400', async () => {
    const missing = await call(app, 'GET', people.admin, '/api/signatures/efiles/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('files.not_found');
    const bad = await call(app, 'GET', people.admin, '/api/signatures/efiles/not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('common.invalid_id');
  });
});

describe('the trusted roots', () => {
  it('are listed, added and removed by admins, each in the activity log', async () => {
    const other = makeKit(app);
    try {
      const added = ok(
        await call(app, 'POST', people.admin, '/admin/trusted-roots', {
          label: 'CCA India 2022',
          pem: other.certs.rootPem,
        }),
        201,
      ).json() as { _id: string; subject: string; fingerprint256: string };
      expect(added.subject).toContain('CN=');
      const list = ok(await call(app, 'GET', people.admin, '/admin/trusted-roots')).json() as { _id: string }[];
      expect(list.map((r) => r._id)).toContain(added._id);
      const again = await call(app, 'POST', people.admin, '/admin/trusted-roots', {
        label: 'Again',
        pem: other.certs.rootPem,
      });
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('signatures.root_exists');
      ok(await call(app, 'DELETE', people.admin, `/admin/trusted-roots/${added._id}`));
      const gone = await call(app, 'DELETE', people.admin, `/admin/trusted-roots/${added._id}`);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().code).toBe('signatures.root_not_found');
      const logs = await app.db.select().from(activityLogs).where(eq(activityLogs.targetId, added._id));
      expect(logs.map((l) => l.code).sort()).toEqual(['activity.trusted_root_added', 'activity.trusted_root_removed']);
    } finally {
      other.close();
    }
  });

  it.each([
    [{ pem: 'x' }, 'signatures.label_required', 'label'],
    [{ label: 'Root' }, 'signatures.pem_required', 'pem'],
    [{ label: 'Root', pem: '' }, 'signatures.pem_required', 'pem'],
    [{ label: 'Root', pem: 'not a certificate' }, 'signatures.pem_invalid', 'pem'],
    [
      { label: 'Root', pem: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' },
      'signatures.pem_invalid',
      'pem',
    ],
  ])('refuse %j with %s', async (body, code, field) => {
    const res = await call(app, 'POST', people.admin, '/admin/trusted-roots', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code, field });
  });

  it('are refused to everyone but admins', async () => {
    for (const url of ['/admin/trusted-roots']) {
      expect((await call(app, 'GET', null, url)).statusCode).toBe(401);
      for (const who of [people.employee, people.director, people.gh]) {
        expect((await call(app, 'GET', who, url)).statusCode).toBe(403);
        const post = await call(app, 'POST', who, url, { label: 'x', pem: kit.certs.rootPem });
        expect(post.statusCode).toBe(403);
      }
    }
    const del = await call(app, 'DELETE', people.director, '/admin/trusted-roots/00000000-0000-4000-8000-000000000000');
    expect(del.statusCode).toBe(403);
  });
});
