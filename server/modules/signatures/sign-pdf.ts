import { SignPdf } from '@signpdf/signpdf';

import { formatDateTime } from '#shared/format.ts';

import type { CadesSigner } from './cms.ts';
import { type SignatureDetails, SigningThread, type SigningThreadLimits } from './signing-thread.ts';

/**
 * PAdES signatures on PDFs (decision 118): the document is prepared in the signing thread (a visible block on its
 * last page, a signature field and an empty /Contents, as an incremental update), then @signpdf/signpdf fills the
 * byte range and has the CMS made by the signer: the lab's seal (seal.ts) or a person's key at a signer helper
 * (helper-signer.ts, decision 119). Signing a signed PDF again adds a signature and keeps every earlier one valid.
 */
export interface Signatory {
  /** The person the signature is for, as the block shows them (Devanagari drawn as it is). */
  name: string;
  designation: string;
  /** Why they sign (/Reason), e.g. "Approved". */
  reason: string;
  /** The lab (/Location) and how to reach it (/ContactInfo). */
  location: string;
  contactInfo: string;
}

/** Bytes kept in /Contents for the CMS: an RSA-4096 signature and a chain of five certificates fit. */
export const SIGNATURE_LENGTH = 16_384;

export const DEFAULT_SIGNING_LIMITS: SigningThreadLimits = { timeoutMs: 30_000, memoryMb: 1024, idleMs: 5 * 60_000 };

/** The visible block's three lines (English: the record's language, whatever the signer's screen). */
export function signatureBlockLines(signatory: Signatory, at: Date): string[] {
  return [`Digitally signed by ${signatory.name}`, signatory.designation, `Date: ${formatDateTime(at)} IST`];
}

let shared: SigningThread | undefined;
/** The process's signing thread, made at the first signature. */
export function sharedSigningThread(limits: SigningThreadLimits = DEFAULT_SIGNING_LIMITS): SigningThread {
  shared ??= new SigningThread(limits);
  return shared;
}

/**
 * `pdf` with one more PAdES signature (SubFilter ETSI.CAdES.detached) by `signer` for `signatory`, signed at `at`.
 * Rejects with UnsignablePdf (unreadable, encrypted, no page), SigningLimitExceeded (the thread's time or memory),
 * SignerHelperFailed (a helper's refusal) or UnsupportedCertificate.
 */
export async function signPdf(
  pdf: Uint8Array,
  signer: CadesSigner,
  signatory: Signatory,
  { at = new Date(), thread = sharedSigningThread() }: { at?: Date; thread?: SigningThread } = {},
): Promise<Buffer> {
  const details: SignatureDetails = {
    lines: signatureBlockLines(signatory, at),
    name: signatory.name,
    reason: signatory.reason,
    location: signatory.location,
    contactInfo: signatory.contactInfo,
    signingTime: at.getTime(),
    signatureLength: SIGNATURE_LENGTH,
  };
  const prepared = await thread.prepare(pdf, details);
  return new SignPdf().sign(Buffer.from(prepared.buffer, prepared.byteOffset, prepared.byteLength), signer, at);
}
