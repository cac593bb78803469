import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * A software passkey for the API tests: a real ES256 key pair (node:crypto) that answers the portal's WebAuthn options
 * with the objects a browser would send, built as the WebAuthn Level 3 spec lays them out (§6.1 authenticator data,
 * §6.5.4 attestation 'none', §6.3.3 the assertion's signature over authData ‖ SHA-256(clientDataJSON)). Nothing of
 * @simplewebauthn is imitated: the server checks these bytes with its real code.
 */

const b64url = (bytes: Buffer | Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

// --- The little CBOR (RFC 8949) the attestation object and COSE key need: maps, integers, byte and text strings ---
type Cbor = number | string | Buffer | Map<number | string, Cbor>;
function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}
function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

/** What the portal's options carry that an authenticator reads (PublicKeyCredentialCreation/RequestOptionsJSON). */
interface CreationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

export interface AuthenticatorAnswer {
  /** Override what the browser would put in clientDataJSON (a phishing page's origin, another challenge). */
  origin?: string;
  challenge?: string;
  /** The RP ID the authenticator hashes (default: the options' own). */
  rpId?: string;
  /** User verified (a PIN or fingerprint): the UV flag. Default true. */
  userVerified?: boolean;
}

/** One authenticator holding one credential (a passkey), with its signature counter. */
export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The signature counter: each assertion adds one (set it back to replay an old count). */
  counter = 0;
  private userHandle = '';

  constructor(readonly origin: string) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id() {
    return b64url(this.credentialId);
  }

  private coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return cbor(
      new Map<number, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  private authData(rpId: string, flags: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter >>> 0);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create(): a RegistrationResponseJSON with attestation 'none'. */
  register(options: CreationOptions, answer: AuthenticatorAnswer = {}) {
    this.userHandle = options.user.id;
    const rpId = answer.rpId ?? options.rp.id!;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, this.coseKey()]);
    // UP | UV? | AT
    const flags = 0x01 | (answer.userVerified === false ? 0 : 0x04) | 0x40;
    const authData = this.authData(rpId, flags, attested);
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    const clientDataJSON = this.clientData(
      'webauthn.create',
      answer.challenge ?? options.challenge,
      answer.origin ?? this.origin,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }

  /** navigator.credentials.get(): an AuthenticationResponseJSON signed with this credential's private key. */
  assert(options: RequestOptions, answer: AuthenticatorAnswer = {}) {
    this.counter += 1;
    const rpId = answer.rpId ?? options.rpId!;
    const flags = 0x01 | (answer.userVerified === false ? 0 : 0x04);
    const authenticatorData = this.authData(rpId, flags);
    const clientDataJSON = this.clientData(
      'webauthn.get',
      answer.challenge ?? options.challenge,
      answer.origin ?? this.origin,
    );
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        userHandle: this.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }
}
