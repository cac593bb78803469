import { createPrivateKey, createPublicKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';

import forge from 'node-forge';
import { z } from 'zod';

import { ConfigError, refuse, text, variable } from './variables.ts';

/** SIGNING_P12 and SIGNING_P12_PASSWORD: the lab's seal (decision 118; README "Installing the lab's seal"). */
export const signingEnv = z.object({
  SIGNING_P12: text(),
  SIGNING_P12_PASSWORD: text(),
  /** A signer helper (decision 119) on the lab's network that adds an approver's personal signature (decision 122). */
  SIGNER_HELPER_URL: variable((v, ctx) => {
    if (v === undefined) return null;
    if (/^https?:\/\/[^\s/]+/i.test(v) && URL.canParse(v)) return v;
    return refuse(ctx, `SIGNER_HELPER_URL must be an http:// or https:// address (got "${v}").`);
  }),
});

/**
 * The lab's seal (decision 118): the certificate and key of SIGNING_P12, opened with SIGNING_P12_PASSWORD at start.
 * The key stays in this process's memory; the file is read once.
 */
export interface Seal {
  /** The chain, signer first, DER. */
  chain: Uint8Array[];
  key: KeyObject;
  /** The certificate's subject common name, for the signature dictionary's /Name. */
  commonName: string;
  /** The certificate's last day of validity. */
  validTo: Date;
}

/** SIGNING_P12 cannot be opened: a wrong password, no key, no matching certificate, or not RSA. */
export class UnusableSeal extends ConfigError {}

/** Opens a PKCS12 file: its RSA key and the certificate of that key, then the rest of the chain in the file. */
export function openSeal(p12: Buffer, password: string): Seal {
  let bags: { keys: forge.pki.PrivateKey[]; certificates: forge.pki.Certificate[] };
  try {
    const parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(p12.toString('binary')), password);
    const oids = forge.pki.oids as Record<string, string>;
    const of = (name: string) => {
      const bagType = oids[name] ?? name;
      return parsed.getBags({ bagType })[bagType] ?? [];
    };
    bags = {
      keys: [...of('pkcs8ShroudedKeyBag'), ...of('keyBag')].flatMap((b) => b.key ?? []),
      certificates: of('certBag').flatMap((b) => b.cert ?? []),
    };
  } catch (err) {
    const reason = /mac|password|decrypt/i.test(String(err))
      ? 'the password does not open it'
      : 'it is not a PKCS12 file';
    throw new UnusableSeal(`SIGNING_P12 cannot be opened: ${reason}.`);
  }
  const [forgeKey] = bags.keys;
  if (!forgeKey) throw new UnusableSeal('SIGNING_P12 holds no private key.');
  const key = createPrivateKey(forge.pki.privateKeyToPem(forgeKey));
  if (key.asymmetricKeyType !== 'rsa') throw new UnusableSeal('SIGNING_P12 must hold an RSA key.');
  const publicDer = createPublicKey(key).export({ type: 'spki', format: 'der' });
  const certificates = bags.certificates.map((c) => {
    const der = Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(c)).getBytes(), 'binary');
    return { der, x509: new X509Certificate(der) };
  });
  const own = certificates.find((c) => c.x509.publicKey.export({ type: 'spki', format: 'der' }).equals(publicDer));
  if (!own) throw new UnusableSeal('SIGNING_P12 holds no certificate for its private key.');
  return {
    chain: [own.der, ...certificates.filter((c) => c !== own).map((c) => c.der)],
    key,
    commonName: /(?:^|\n)CN=([^\n]*)/.exec(own.x509.subject)?.[1] ?? own.x509.subject,
    validTo: new Date(own.x509.validTo),
  };
}

/** The seal of SIGNING_P12 opened with SIGNING_P12_PASSWORD, or null when SIGNING_P12 is unset (nothing is sealed). */
export function signingConfig(
  env: Pick<z.output<typeof signingEnv>, 'SIGNING_P12' | 'SIGNING_P12_PASSWORD'>,
): Seal | null {
  if (!env.SIGNING_P12) {
    if (env.SIGNING_P12_PASSWORD !== undefined) {
      throw new ConfigError('SIGNING_P12_PASSWORD set without SIGNING_P12: set SIGNING_P12 too, or unset it.');
    }
    return null;
  }
  let p12: Buffer;
  try {
    p12 = readFileSync(env.SIGNING_P12);
  } catch (err) {
    throw new ConfigError(
      `SIGNING_P12 ${env.SIGNING_P12} cannot be read (${(err as NodeJS.ErrnoException).code}). Point it at the lab's seal, a PKCS12 (.p12) file this user may read.`,
    );
  }
  return openSeal(p12, env.SIGNING_P12_PASSWORD ?? '');
}
