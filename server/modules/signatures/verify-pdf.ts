import { DEFAULT_SIGNING_LIMITS } from './sign-pdf.ts';
import { SigningThread } from './signing-thread.ts';

/**
 * Checking the signatures of a stored PDF (decision 118): every signature, its signer and chain, when it was signed,
 * whether the bytes it covers are unchanged, and whether anything was written after the last one. The PDF and its
 * CMS are read in a worker thread (verify.worker.mjs), never on the main thread.
 */
export interface CertificateJson {
  subject: string;
  commonName: string;
  issuer: string;
  serialNumber: string;
  validFrom: string;
  validTo: string;
  fingerprint256: string;
}

export interface SignatureReport {
  /** The signature field's name (/T), e.g. Signature1. */
  field: string | null;
  /** The signature dictionary's /Name, /Reason, /Location, as the signer wrote them. */
  name: string | null;
  reason: string | null;
  location: string | null;
  /** /M, the signing time the signer states (no timestamp authority vouches for it). */
  signingTime: string | null;
  subFilter: string | null;
  byteRange: number[];
  /** The signature covers the whole file: nothing was written after it. */
  coversWholeDocument: boolean;
  /** The bytes it covers hash to what was signed: not changed since. */
  intact: boolean;
  /** The signer's key made the signature. */
  signatureValid: boolean;
  /** The chain ends at one of the trusted roots the admin keeps. */
  trusted: boolean;
  signer: CertificateJson | null;
  /** Signer first, then each issuer found (in the CMS or among the trusted roots). */
  chain: CertificateJson[];
  /** Why the signature could not be checked at all: 'byte_range', 'cms', 'signer_certificate', 'digest_algorithm'. */
  problem: string | null;
}

export interface VerificationReport {
  signatures: SignatureReport[];
  /** Something was written after the last signature (or, with none, false). */
  changedAfterLastSignature: boolean;
}

let shared: SigningThread | undefined;
/** The process's checking thread, made at the first check. */
export function sharedVerifyThread(): SigningThread {
  shared ??= new SigningThread(DEFAULT_SIGNING_LIMITS, 'verify.worker.mjs');
  return shared;
}

/**
 * The signatures of `pdf` checked against `roots` (PEM certificates). Rejects with UnsignablePdf ('it cannot be
 * read') or SigningLimitExceeded (the thread's time or memory).
 */
export function verifyPdf(
  pdf: Uint8Array,
  roots: string[],
  thread: SigningThread = sharedVerifyThread(),
): Promise<VerificationReport> {
  return thread.submit<VerificationReport>(pdf, { roots });
}
