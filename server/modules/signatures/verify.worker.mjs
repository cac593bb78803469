// Checks the signatures of a PDF (decision 118) in a worker thread (signing-thread.ts, decisions 091 and 096): the PDF
// and every CMS in it come from outside (an upload), so pdf-lib and pkijs read them here, never on the server's main
// thread, and a check past its time limit ends this thread. Plain JavaScript, as pades.worker.mjs.
import { createHash, verify, X509Certificate } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { constants as zlibConstants, inflateSync } from 'node:zlib';

import {
  PDFArray,
  PDFContext,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFObjectParser,
  PDFRef,
  PDFString,
} from '@cantoo/pdf-lib';
import * as pkijs from 'pkijs';

const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const DIGESTS = {
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
  '1.3.14.3.2.26': 'sha1',
};

/** The PDF cannot be checked (unreadable or encrypted). */
class Uncheckable extends Error {}

const text = (dict, key) => {
  const value = dict.lookup(PDFName.of(key));
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : null;
};
const nameOf = (dict, key) => {
  const value = dict.lookup(PDFName.of(key));
  return value instanceof PDFName ? value.decodeText() : null;
};

/** One certificate as the report shows it. */
function describe(x509) {
  return {
    subject: x509.subject.replace(/\n/g, ', '),
    commonName: /(?:^|\n)CN=([^\n]*)/.exec(x509.subject)?.[1] ?? x509.subject,
    issuer: x509.issuer.replace(/\n/g, ', '),
    serialNumber: x509.serialNumber,
    validFrom: new Date(x509.validFrom).toISOString(),
    validTo: new Date(x509.validTo).toISOString(),
    fingerprint256: x509.fingerprint256,
  };
}

/** The chain from the signer's certificate upwards, through the CMS's certificates then the trusted roots. */
function chainOf(signer, pool, roots) {
  const chain = [signer];
  let current = signer;
  for (let depth = 0; depth < 8; depth++) {
    const root = roots.find((r) => r.fingerprint256 === current.fingerprint256);
    if (root) return { chain, trusted: true };
    const issuer = [...roots, ...pool].find(
      (c) => c.fingerprint256 !== current.fingerprint256 && current.checkIssued(c) && current.verify(c.publicKey),
    );
    if (!issuer) break;
    chain.push(issuer);
    if (roots.some((r) => r.fingerprint256 === issuer.fingerprint256)) return { chain, trusted: true };
    current = issuer;
  }
  return { chain, trusted: false };
}

/** One signature's report: who signed, when, whether the bytes it covers are unchanged, and its chain. */
function check(pdf, dict, field, roots) {
  const range = dict.lookup(PDFName.of('ByteRange'));
  const contents = dict.lookup(PDFName.of('Contents'));
  const numbers =
    range instanceof PDFArray ? range.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : -1)) : [];
  const m = dict.lookup(PDFName.of('M'));
  const report = {
    field,
    name: text(dict, 'Name'),
    reason: text(dict, 'Reason'),
    location: text(dict, 'Location'),
    signingTime: m instanceof PDFString || m instanceof PDFHexString ? safeDate(m) : null,
    subFilter: nameOf(dict, 'SubFilter'),
    byteRange: numbers,
    coversWholeDocument: false,
    intact: false,
    signatureValid: false,
    trusted: false,
    signer: null,
    chain: [],
    problem: null,
  };
  const [a, b, c, d] = numbers;
  if (
    numbers.length !== 4 ||
    a !== 0 ||
    b < 0 ||
    c < b ||
    d < 0 ||
    c + d > pdf.length ||
    !(contents instanceof PDFHexString)
  ) {
    return { ...report, problem: 'byte_range' };
  }
  report.coversWholeDocument = c + d === pdf.length;
  let signed;
  try {
    const cms = pkijs.ContentInfo.fromBER(stripPadding(contents.asBytes()));
    signed = new pkijs.SignedData({ schema: cms.content });
  } catch {
    return { ...report, problem: 'cms' };
  }
  const info = signed.signerInfos[0];
  const certificates = (signed.certificates ?? [])
    .filter((x) => x instanceof pkijs.Certificate)
    .map((x) => new X509Certificate(Buffer.from(x.toSchema().toBER(false))));
  const sid = info?.sid;
  const serial =
    sid instanceof pkijs.IssuerAndSerialNumber
      ? Buffer.from(sid.serialNumber.valueBlock.valueHexView).toString('hex').toUpperCase().replace(/^0+/, '')
      : null;
  const signer = certificates.find((x) => x.serialNumber.replace(/^0+/, '') === serial) ?? null;
  if (!info || !signer) return { ...report, problem: 'signer_certificate' };
  const algorithm = DIGESTS[info.digestAlgorithm.algorithmId];
  if (!algorithm) return { ...report, signer: describe(signer), problem: 'digest_algorithm' };
  const digest = createHash(algorithm)
    .update(pdf.subarray(a, b))
    .update(pdf.subarray(c, c + d))
    .digest();
  const signature = Buffer.from(info.signature.valueBlock.valueHexView);
  if (info.signedAttrs) {
    const attribute = info.signedAttrs.attributes.find((x) => x.type === OID_MESSAGE_DIGEST);
    const stated = attribute ? Buffer.from(attribute.values[0].valueBlock.valueHexView) : Buffer.alloc(0);
    report.intact = stated.equals(digest);
    report.signatureValid = safeVerify(algorithm, Buffer.from(info.signedAttrs.encodedValue), signer, signature);
  } else {
    report.signatureValid = safeVerify(algorithm, pdf.subarray(a, b), signer, signature, pdf.subarray(c, c + d));
    report.intact = report.signatureValid;
  }
  const { chain, trusted } = chainOf(signer, certificates, roots);
  return { ...report, trusted, signer: describe(signer), chain: chain.map(describe) };
}

function safeDate(value) {
  try {
    return value.decodeDate().toISOString();
  } catch {
    return null;
  }
}

function safeVerify(algorithm, data, signer, signature, more) {
  try {
    return verify(algorithm, more ? Buffer.concat([data, more]) : data, signer.publicKey, signature);
  } catch {
    return false;
  }
}

/** The CMS without the zeros that fill the rest of /Contents: its DER length says where it ends. */
function stripPadding(bytes) {
  if (bytes[0] !== 0x30) return bytes;
  const first = bytes[1];
  if (first < 0x80) return bytes.subarray(0, 2 + first);
  const count = first & 0x7f;
  let length = 0;
  for (let i = 0; i < count; i++) length = length * 256 + bytes[2 + i];
  return bytes.subarray(0, 2 + count + length);
}

/**
 * The indirect objects holding `key` read without loading the document (decision 123): each occurrence's enclosing
 * `N G obj … endobj` parsed alone by pdf-lib's object parser, the latest definition of an object number winning (as
 * an incremental update's does). `strict`: null when one does not parse as a dictionary (for the full reading to
 * decide); otherwise such an object is passed over.
 */
function objectsWith(pdf, chars, key, strict) {
  const found = new Map();
  const context = PDFContext.create();
  for (let at = chars.indexOf(key); at >= 0; at = chars.indexOf(key, at + key.length)) {
    let head = null;
    for (let pos = chars.lastIndexOf('obj', at); pos > 0 && !head; pos = chars.lastIndexOf('obj', pos - 1)) {
      const m = /(\d+)\s+(\d+)\s+$/.exec(chars.slice(Math.max(0, pos - 24), pos));
      if (m && !/[A-Za-z]/.test(chars[pos + 3] ?? '')) head = { number: Number(m[1]), body: pos + 3 };
    }
    const end = chars.indexOf('endobj', at);
    let object = null;
    try {
      if (head && end > 0) object = PDFObjectParser.forBytes(pdf.subarray(head.body, end), context).parseObject();
    } catch {
      object = null;
    }
    if (head && object instanceof PDFDict) found.set(head.number, object);
    else if (strict) return null;
  }
  return found;
}

/**
 * Whether a compressed object stream holds a signature or a signature field (each inflated by zlib, natively: far
 * cheaper than parsing every object); null when one cannot be inflated.
 */
function signaturesCompressed(pdf, chars) {
  for (let at = chars.indexOf('/ObjStm'); at >= 0; at = chars.indexOf('/ObjStm', at + 7)) {
    const keyword = chars.indexOf('stream', at);
    const end = chars.indexOf('endstream', keyword + 6);
    if (keyword < 0 || end < 0) return null;
    let start = keyword + 6;
    if (chars[start] === '\r') start++;
    if (chars[start] === '\n') start++;
    let inflated;
    try {
      inflated = inflateSync(pdf.subarray(start, end), { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString('latin1');
    } catch {
      return null;
    }
    if (inflated.includes('/ByteRange') || /\/FT\s*\/Sig\b/.test(inflated)) return true;
  }
  return false;
}

/**
 * The signature dictionaries and their fields as written in the file's bytes (what signers write, the portal's
 * included: uncompressed objects), found without pdf-lib reading the whole document, so that a 50-page PDF's check
 * costs its hashes, not its parsing. Null when it cannot be sure (encryption, a signature or field inside a compressed
 * object stream, a value given by reference, a signature dictionary that does not parse): the full reading decides.
 */
function quickSignatures(pdf) {
  const chars = pdf.toString('latin1');
  if (!chars.startsWith('%PDF-') || chars.includes('/Encrypt')) return null;
  if (signaturesCompressed(pdf, chars) !== false) return null;
  const dicts = objectsWith(pdf, chars, '/ByteRange', true);
  if (!dicts) return null;
  const fields = new Map();
  for (const object of objectsWith(pdf, chars, '/Sig', false).values()) {
    const v = object.get(PDFName.of('V'));
    if (object.get(PDFName.of('FT')) === PDFName.of('Sig') && v instanceof PDFRef) {
      fields.set(v.objectNumber, text(object, 'T'));
    }
  }
  const signatures = [];
  for (const [number, dict] of dicts) {
    if (!dict.has(PDFName.of('Contents'))) continue;
    for (const key of ['ByteRange', 'Contents', 'M', 'Name', 'Reason', 'Location', 'SubFilter']) {
      if (dict.get(PDFName.of(key)) instanceof PDFRef) return null;
    }
    signatures.push([number, dict]);
  }
  return { signatures, fields };
}

/** Every signature in the PDF, first signed first, and whether anything was written after the last. */
async function verifyPdf(original, { roots }) {
  const pdf = Buffer.from(original.buffer, original.byteOffset, original.byteLength);
  const trustedRoots = roots.map((pem) => new X509Certificate(pem));
  // The quick reading when it finds signatures; an unsigned (or unreadable) PDF is read in full, so that one that
  // cannot be read is still refused as such.
  const quick = quickSignatures(pdf);
  if (quick?.signatures.length) {
    const reports = quick.signatures.map(([number, dict]) =>
      check(pdf, dict, quick.fields.get(number) ?? null, trustedRoots),
    );
    return summed(reports);
  }
  let doc;
  try {
    // No yielding between objects: this thread has nothing else to do (pdf-lib's default pauses every 100).
    doc = await PDFDocument.load(original, { updateMetadata: false, ignoreEncryption: true, parseSpeed: Infinity });
  } catch (err) {
    throw new Uncheckable('it cannot be read', { cause: err });
  }
  const fields = new Map();
  const signatures = [];
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    const v = object.get(PDFName.of('V'));
    if (object.lookup(PDFName.of('FT')) === PDFName.of('Sig') && v instanceof PDFRef)
      fields.set(v.tag, text(object, 'T'));
    if (object.has(PDFName.of('ByteRange')) && object.has(PDFName.of('Contents'))) signatures.push([ref, object]);
  }
  return summed(signatures.map(([ref, dict]) => check(pdf, dict, fields.get(ref.tag) ?? null, trustedRoots)));
}

/** The reports, first signed first, and whether anything was written after the last signature. */
function summed(reports) {
  reports.sort(
    (x, y) => (x.byteRange[2] ?? 0) + (x.byteRange[3] ?? 0) - ((y.byteRange[2] ?? 0) + (y.byteRange[3] ?? 0)),
  );
  const last = reports[reports.length - 1];
  return { signatures: reports, changedAfterLastSignature: last ? !last.coversWholeDocument : false };
}

// Ready once pdf-lib and pkijs are loaded.
parentPort?.postMessage({ ready: true });

parentPort?.on('message', async ({ id, original, details }) => {
  try {
    parentPort.postMessage({ id, result: await verifyPdf(new Uint8Array(original), details) });
  } catch (err) {
    if (err instanceof Uncheckable) parentPort.postMessage({ id, unsignable: err.message });
    else parentPort.postMessage({ id, error: String(err?.stack ?? err) });
  }
});
