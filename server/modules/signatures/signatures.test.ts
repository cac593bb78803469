import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { PDFArray, PDFDict, PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ConfigError, type Seal } from '#server/config.ts';
import { signingConfig } from '#server/config/signing.ts';
import { pdfWithPages } from '#server/test/documents.ts';
import { makeTestCertificates, startSignerHelper, type TestCertificates } from '#server/test/signer-helper.ts';

import { helperSigner, SignerHelperFailed } from './helper-signer.ts';
import { sealSigner } from './seal.ts';
import { type Signatory, signPdf } from './sign-pdf.ts';
import { SigningLimitExceeded, SigningThread, UnsignablePdf } from './signing-thread.ts';

/**
 * PAdES signatures (decision 118) checked by poppler's pdfsig, as any reader would check them: the lab's seal, a
 * person's key through the signer helper's HTTP contract (decision 119), several signatures on one document, and a
 * document changed after signing.
 */

const work = mkdtempSync(path.join(os.tmpdir(), 'lp-signatures-'));
let sealCerts: TestCertificates;
let personCerts: TestCertificates;
let seal: Seal;
let helper: Awaited<ReturnType<typeof startSignerHelper>>;
const thread = new SigningThread({ timeoutMs: 60_000, memoryMb: 1024, idleMs: 60_000 });

beforeAll(async () => {
  sealCerts = makeTestCertificates('Test Lab Seal');
  personCerts = makeTestCertificates('Asha Rao');
  seal = signingConfig({ SIGNING_P12: sealCerts.p12Path, SIGNING_P12_PASSWORD: sealCerts.p12Password })!;
  helper = await startSignerHelper(personCerts);
  // The thread's start (pdf-lib and the fonts loaded) belongs to the set-up, not to the first signature.
  await thread.ready();
});
afterAll(async () => {
  await thread.close();
  await helper.close();
  sealCerts.remove();
  personCerts.remove();
  rmSync(work, { recursive: true, force: true });
});

const director: Signatory = {
  name: 'राम कुमार',
  designation: 'Director',
  reason: 'Approved',
  location: 'Test Lab',
  contactInfo: 'director@lab.example',
};
const officer: Signatory = { ...director, name: 'Asha Rao', designation: 'Scientist F' };

interface PdfsigSignature {
  commonName: string;
  type: string;
  whole: boolean;
  validation: string;
}

/** pdfsig's report, one entry per signature. */
function pdfsig(pdf: Uint8Array): PdfsigSignature[] {
  const file = path.join(work, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, pdf);
  const out = execFileSync('pdfsig', [file], { encoding: 'utf8' });
  return out
    .split(/^Signature #\d+:$/m)
    .slice(1)
    .map((part) => ({
      commonName: /Signer Certificate Common Name: (.*)/.exec(part)?.[1] ?? '',
      type: /Signature Type: (.*)/.exec(part)?.[1] ?? '',
      whole: /^\s*- Total document signed$/m.test(part),
      validation: /Signature Validation: (.*)/.exec(part)?.[1] ?? '',
    }));
}

describe('the lab seal', () => {
  it('signs a PDF that pdfsig reports valid, fully signed, ETSI.CAdES.detached, with a block on the last page', async () => {
    const original = pdfWithPages(['first page', 'second page', 'last page']);
    const signed = await signPdf(original, sealSigner(seal), director, { thread });

    expect(pdfsig(signed)).toEqual([
      { commonName: 'Test Lab Seal', type: 'ETSI.CAdES.detached', whole: true, validation: 'Signature is Valid.' },
    ]);
    // An incremental update: the original bytes are the signed document's first part.
    expect(Buffer.compare(signed.subarray(0, original.length), original.subarray(0, original.length))).toBe(0);
    const doc = await PDFDocument.load(signed);
    expect(doc.getPageCount()).toBe(3);
    const annots = doc.getPages()[2]!.node.lookup(PDFName.of('Annots'), PDFArray);
    const widget = annots.lookup(0, PDFDict);
    expect(widget.lookup(PDFName.of('FT'))).toBe(PDFName.of('Sig'));
    expect(doc.getPages()[0]!.node.lookupMaybe(PDFName.of('Annots'), PDFArray)).toBeUndefined();
  });

  it('opens only with its password, and is off without SIGNING_P12', () => {
    expect(() => signingConfig({ SIGNING_P12: sealCerts.p12Path, SIGNING_P12_PASSWORD: 'wrong' })).toThrow(
      'SIGNING_P12 cannot be opened: the password does not open it.',
    );
    expect(() => signingConfig({ SIGNING_P12: path.join(work, 'missing.p12'), SIGNING_P12_PASSWORD: 'x' })).toThrow(
      ConfigError,
    );
    expect(() => signingConfig({ SIGNING_P12: undefined, SIGNING_P12_PASSWORD: 'x' })).toThrow(
      'SIGNING_P12_PASSWORD set without SIGNING_P12: set SIGNING_P12 too, or unset it.',
    );
    expect(signingConfig({ SIGNING_P12: undefined, SIGNING_P12_PASSWORD: undefined })).toBeNull();
    expect(seal.commonName).toBe('Test Lab Seal');
    expect(seal.chain).toHaveLength(2); // the seal, then the root in the same file
  });
});

describe('a personal signature through the signer helper', () => {
  it('signs through the HTTP contract with a key the portal never holds, and the result verifies', async () => {
    const before = helper.signed();
    const signed = await signPdf(pdfWithPages(['a letter']), helperSigner(helper.url), officer, { thread });
    expect(helper.signed()).toBe(before + 1);
    expect(pdfsig(signed)).toEqual([
      { commonName: 'Asha Rao', type: 'ETSI.CAdES.detached', whole: true, validation: 'Signature is Valid.' },
    ]);
  });

  it('adds a second signature as an incremental update, the first still valid', async () => {
    const once = await signPdf(pdfWithPages(['minutes', 'decisions']), sealSigner(seal), director, { thread });
    const twice = await signPdf(once, helperSigner(helper.url), officer, { thread });
    expect(Buffer.compare(twice.subarray(0, once.length), once)).toBe(0);
    expect(pdfsig(twice)).toEqual([
      // the first covers the document as it was when signed, the second all of it
      { commonName: 'Test Lab Seal', type: 'ETSI.CAdES.detached', whole: false, validation: 'Signature is Valid.' },
      { commonName: 'Asha Rao', type: 'ETSI.CAdES.detached', whole: true, validation: 'Signature is Valid.' },
    ]);
  });

  it('says why when the helper refuses or is not there', async () => {
    const refusing = await startSignerHelper(personCerts);
    const url = `${refusing.url}/missing`;
    await expect(signPdf(pdfWithPages(['x']), helperSigner(url), officer, { thread })).rejects.toThrow(
      'The signer refused (404: No such request.).',
    );
    await refusing.close();
    await expect(signPdf(pdfWithPages(['x']), helperSigner(refusing.url), officer, { thread })).rejects.toThrow(
      SignerHelperFailed,
    );
  });
});

describe('a signed PDF changed afterwards', () => {
  it('is reported by pdfsig as not matching its signature', async () => {
    const signed = await signPdf(pdfWithPages(['the original text']), sealSigner(seal), director, { thread });
    const at = signed.indexOf('the original text');
    expect(at).toBeGreaterThan(0);
    const changed = Buffer.from(signed);
    changed[at] = 'T'.charCodeAt(0);
    expect(pdfsig(changed)).toEqual([
      { commonName: 'Test Lab Seal', type: 'ETSI.CAdES.detached', whole: true, validation: 'Digest Mismatch.' },
    ]);
  });
});

describe('what cannot be signed', () => {
  it('refuses a file that is no PDF, and one that carries a signature placeholder of its own', async () => {
    await expect(signPdf(Buffer.from('not a pdf at all'), sealSigner(seal), director, { thread })).rejects.toThrow(
      new UnsignablePdf('it cannot be read'),
    );
    const planted = Buffer.concat([
      pdfWithPages(['x']),
      Buffer.from('\n% /ByteRange [0 /********** /********** /**********]\n'),
    ]);
    await expect(signPdf(planted, sealSigner(seal), director, { thread })).rejects.toThrow(
      new UnsignablePdf('it holds a signature placeholder'),
    );
  });

  it('stops a preparation past the time limit, off the main thread, and signs the next one in a new thread', async () => {
    const hurried = new SigningThread({ timeoutMs: 1, memoryMb: 1024, idleMs: 60_000 });
    try {
      const long = pdfWithPages(Array.from({ length: 400 }, (_, i) => `page ${i}`));
      // The event loop goes on while the thread works: a timer fires before the refusal.
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 0);
      await expect(signPdf(long, sealSigner(seal), director, { thread: hurried })).rejects.toThrow(
        SigningLimitExceeded,
      );
      clearInterval(ticker);
      expect(ticks).toBeGreaterThan(0);
      const slower = new SigningThread({ timeoutMs: 60_000, memoryMb: 1024, idleMs: 60_000 });
      const signed = await signPdf(pdfWithPages(['next']), sealSigner(seal), director, { thread: slower });
      await slower.close();
      expect(pdfsig(signed)[0]?.validation).toBe('Signature is Valid.');
    } finally {
      await hurried.close();
    }
  });
});
