import { z } from 'zod';

import { CadesSigner } from './cms.ts';

/**
 * The portal's side of the signer helper's HTTP contract (decision 119): a helper holds a key the portal never sees
 * (a DSC token through PKCS11, a lab's signing service) and answers two requests. The portal reads the helper's
 * certificate chain, makes the signed attributes for the document's byte-range hash, and the helper returns their
 * signature; the portal assembles the CMS and embeds it.
 *
 *   GET  <helper>/certificates  → 200 { "certificates": ["<base64 DER>", …] }       signer first, then its issuers
 *   POST <helper>/sign  { "toSign": "<base64 DER>", "digestAlgorithm": "SHA-256",
 *                         "signatureAlgorithm": "RSASSA-PKCS1-v1_5" }
 *                       → 200 { "signature": "<base64>" }
 *   any refusal         → 4xx/5xx { "error": "<why, for a person>" }
 */
export const helperCertificates = z.object({ certificates: z.array(z.base64()).min(1) });
export const helperSignRequest = z.object({
  toSign: z.base64(),
  digestAlgorithm: z.literal('SHA-256'),
  signatureAlgorithm: z.literal('RSASSA-PKCS1-v1_5'),
});
export const helperSignature = z.object({ signature: z.base64().min(1) });

/** The helper did not answer as the contract says, or refused. */
export class SignerHelperFailed extends Error {}

const HELPER_TIMEOUT_MS = 120_000; // a person types the token's PIN at the helper

async function call<T>(url: URL, schema: z.ZodType<T>, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(HELPER_TIMEOUT_MS) });
  } catch (err) {
    throw new SignerHelperFailed(`The signer at ${url.origin} did not answer (${(err as Error).message}).`);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const error = (body as { error?: unknown } | undefined)?.error;
    throw new SignerHelperFailed(
      `The signer refused (${response.status}${typeof error === 'string' ? `: ${error}` : ''}).`,
    );
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new SignerHelperFailed(`The signer's answer at ${url.pathname} is not as agreed.`);
  return parsed.data;
}

/** A signer whose key is at a helper reached over HTTP at `base` (decision 119). */
export function helperSigner(base: string): CadesSigner {
  let chain: Promise<Uint8Array[]> | undefined;
  return new CadesSigner(
    () =>
      (chain ??= call(new URL('certificates', `${base.replace(/\/+$/, '')}/`), helperCertificates).then((b) =>
        b.certificates.map((c) => Buffer.from(c, 'base64')),
      )),
    async (toSign) => {
      const body: z.input<typeof helperSignRequest> = {
        toSign: toSign.toString('base64'),
        digestAlgorithm: 'SHA-256',
        signatureAlgorithm: 'RSASSA-PKCS1-v1_5',
      };
      const answer = await call(new URL('sign', `${base.replace(/\/+$/, '')}/`), helperSignature, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return Buffer.from(answer.signature, 'base64');
    },
  );
}
