import { z } from 'zod';

import { msg } from '../messages/index.ts';
import { plainText } from './common.ts';

/** One certificate of a signer's chain, as the signature panel shows it (decision 123). */
export const certificateJson = z.object({
  subject: z.string(),
  commonName: z.string(),
  issuer: z.string(),
  serialNumber: z.string(),
  validFrom: z.string(),
  validTo: z.string(),
  fingerprint256: z.string(),
});
export type CertificateJson = z.infer<typeof certificateJson>;

/**
 * One signature of a stored PDF: `status` sums it up as pdfsig would — `valid` (the signer's key made it and the
 * bytes it covers are unchanged), `invalid` (not so, or it could not be read) — and `trusted` says whether its chain
 * ends at one of the admin's roots.
 */
export const signatureJson = z.object({
  field: z.string().nullable(),
  signer: certificateJson.nullable(),
  chain: z.array(certificateJson),
  signingTime: z.string().nullable(),
  reason: z.string().nullable(),
  location: z.string().nullable(),
  subFilter: z.string().nullable(),
  status: z.enum(['valid', 'invalid']),
  intact: z.boolean(),
  signatureValid: z.boolean(),
  trusted: z.boolean(),
  /** Something was written after this signature (a later signature, or a change). */
  changedAfter: z.boolean(),
  problem: z.string().nullable(),
});
export const verificationJson = z.object({
  signed: z.boolean(),
  /** Every signature valid and nothing written after the last one. */
  valid: z.boolean(),
  /** Something other than a signature was written after the last one. */
  changedAfterLastSignature: z.boolean(),
  signatures: z.array(signatureJson),
  checkedAt: z.string(),
});
export type VerificationJson = z.infer<typeof verificationJson>;

export const storedFileParams = z.object({
  area: z.string().min(1).max(40),
  name: z.uuid(msg('common.invalid_id')),
});

/** A root the admin adds: a PEM certificate and a name for it. */
export const trustedRootInput = z.object({
  label: plainText({ error: msg('signatures.label_required') })
    .min(1, msg('signatures.label_required'))
    .max(200),
  pem: z
    .string({ error: msg('signatures.pem_required') })
    .trim()
    .min(1, msg('signatures.pem_required'))
    .max(20_000, msg('signatures.pem_invalid'))
    .regex(/^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----$/, msg('signatures.pem_invalid')),
});
export type TrustedRootInput = z.infer<typeof trustedRootInput>;

export const trustedRootJson = z.object({
  _id: z.string(),
  label: z.string(),
  subject: z.string(),
  fingerprint256: z.string(),
  validTo: z.string(),
  createdAt: z.string(),
});
export type TrustedRootJson = z.infer<typeof trustedRootJson>;
