import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Seal } from '#server/config.ts';
import { signingConfig } from '#server/config/signing.ts';
import { pdfWithPages } from '#server/test/documents.ts';
import { makeTestCertificates, startSignerHelper, type TestCertificates } from '#server/test/signer-helper.ts';

import { helperSigner } from './helper-signer.ts';
import { sealSigner } from './seal.ts';
import { type Signatory, signPdf } from './sign-pdf.ts';
import { SigningThread, UnsignablePdf } from './signing-thread.ts';
import { verifyPdf } from './verify-pdf.ts';

/**
 * Checking signatures (decision 118): what the portal says of a signed PDF agrees with pdfsig (signatures.test.ts):
 * valid, changed after, several signers, and a chain ending at a trusted root or not.
 */

let sealCerts: TestCertificates;
let personCerts: TestCertificates;
let seal: Seal;
let helper: Awaited<ReturnType<typeof startSignerHelper>>;
const signing = new SigningThread({ timeoutMs: 60_000, memoryMb: 1024, idleMs: 60_000 });
const checking = new SigningThread({ timeoutMs: 60_000, memoryMb: 1024, idleMs: 60_000 }, 'verify.worker.mjs');
const signatory: Signatory = {
  name: 'Asha Rao',
  designation: 'Director',
  reason: 'Approved',
  location: 'Test Lab',
  contactInfo: 'director@lab.example',
};

beforeAll(async () => {
  sealCerts = makeTestCertificates('Test Lab Seal');
  personCerts = makeTestCertificates('Asha Rao');
  seal = signingConfig({ SIGNING_P12: sealCerts.p12Path, SIGNING_P12_PASSWORD: sealCerts.p12Password })!;
  helper = await startSignerHelper(personCerts);
  // The threads' start (pdf-lib, pkijs and the fonts loaded) belongs to the set-up, not to the first check.
  await Promise.all([signing.ready(), checking.ready()]);
});
afterAll(async () => {
  await Promise.all([signing.close(), checking.close(), helper.close()]);
  sealCerts.remove();
  personCerts.remove();
});

describe('checking a signed PDF', () => {
  it('reports the signer, the chain to a trusted root, the signing time, and nothing changed after', async () => {
    const at = new Date('2026-12-07T06:30:00Z');
    const signed = await signPdf(pdfWithPages(['a letter']), sealSigner(seal), signatory, { at, thread: signing });
    const report = await verifyPdf(signed, [sealCerts.rootPem], checking);
    expect(report.changedAfterLastSignature).toBe(false);
    expect(report.signatures).toHaveLength(1);
    const [one] = report.signatures;
    expect(one).toMatchObject({
      field: 'Signature1',
      name: 'Asha Rao',
      reason: 'Approved',
      location: 'Test Lab',
      signingTime: at.toISOString(),
      subFilter: 'ETSI.CAdES.detached',
      coversWholeDocument: true,
      intact: true,
      signatureValid: true,
      trusted: true,
      problem: null,
    });
    expect(one?.signer?.commonName).toBe('Test Lab Seal');
    expect(one?.chain.map((c) => c.commonName)).toEqual(['Test Lab Seal', 'Test Root CA']);
  });

  it('says untrusted when the chain ends at no root on the list', async () => {
    const signed = await signPdf(pdfWithPages(['a letter']), sealSigner(seal), signatory, { thread: signing });
    const [one] = (await verifyPdf(signed, [personCerts.rootPem], checking)).signatures;
    expect(one).toMatchObject({ intact: true, signatureValid: true, trusted: false });
  });

  it('reports each of several signatures valid, the earlier one covering its own revision', async () => {
    const once = await signPdf(pdfWithPages(['minutes']), sealSigner(seal), signatory, { thread: signing });
    const twice = await signPdf(once, helperSigner(helper.url), signatory, { thread: signing });
    const report = await verifyPdf(twice, [sealCerts.rootPem, personCerts.rootPem], checking);
    expect(report.changedAfterLastSignature).toBe(false);
    expect(
      report.signatures.map((s) => [s.field, s.signer?.commonName, s.coversWholeDocument, s.intact, s.trusted]),
    ).toEqual([
      ['Signature1', 'Test Lab Seal', false, true, true],
      ['Signature2', 'Asha Rao', true, true, true],
    ]);
  });

  it('reports a byte changed after signing as not intact, as pdfsig does', async () => {
    const signed = await signPdf(pdfWithPages(['the original text']), sealSigner(seal), signatory, { thread: signing });
    const changed = Buffer.from(signed);
    changed[signed.indexOf('the original text')] = 'T'.charCodeAt(0);
    const [one] = (await verifyPdf(changed, [sealCerts.rootPem], checking)).signatures;
    expect(one).toMatchObject({ intact: false, coversWholeDocument: true });
  });

  it('reports an update written after the last signature', async () => {
    const signed = await signPdf(pdfWithPages(['a letter']), sealSigner(seal), signatory, { thread: signing });
    const appended = Buffer.concat([signed, Buffer.from('\n% written after signing\n')]);
    const report = await verifyPdf(appended, [sealCerts.rootPem], checking);
    expect(report.changedAfterLastSignature).toBe(true);
    expect(report.signatures[0]).toMatchObject({ intact: true, coversWholeDocument: false });
  });

  it('reports an unsigned PDF as having no signature, and refuses a file that is no PDF', async () => {
    expect(await verifyPdf(pdfWithPages(['plain']), [], checking)).toEqual({
      signatures: [],
      changedAfterLastSignature: false,
    });
    await expect(verifyPdf(Buffer.from('not a pdf'), [], checking)).rejects.toThrow(UnsignablePdf);
  });
});
