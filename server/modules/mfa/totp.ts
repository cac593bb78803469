import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';

/**
 * TOTP (RFC 6238) with otplib: 6 digits, 30-second steps, SHA-1 (what every authenticator app reads from a QR code).
 * A code is accepted in its own step and the one before or after (clock drift), and only once: the caller keeps the
 * last step accepted (user_factors.last_totp_step) and passes it back (decision 064).
 */

/** The name an authenticator app shows above the codes. */
export const TOTP_ISSUER = 'Lab Portal';
const PERIOD = 30;

/** A new secret (20 random bytes, Base32, as authenticator apps expect). */
export const newTotpSecret = (): string => generateSecret();

/** What the enrolment screen shows: the otpauth:// address and its QR code as a PNG data URL. */
export async function totpEnrolment(secret: string, account: string) {
  const otpauthUrl = generateURI({ issuer: TOTP_ISSUER, label: account, secret });
  const qrDataUrl = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
  return { secret, otpauthUrl, qrDataUrl };
}

/**
 * The time step `code` belongs to when it is right for `secret` within ±1 step and later than `lastStep` (a code, or
 * an older one, already accepted is refused); null otherwise.
 */
export async function acceptedTotpStep(secret: string, code: string, lastStep: number | null): Promise<number | null> {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const result = await verify({
    secret,
    token,
    epochTolerance: PERIOD,
    ...(lastStep !== null ? { afterTimeStep: lastStep } : {}),
  });
  if (!result.valid) return null;
  return 'timeStep' in result ? result.timeStep : null;
}

// ---------------------------------------------------------------------------------------------------------------
// The secret at rest: AES-256-GCM under a key derived from the JWT secret with HKDF (decision 064), so a copy of the
// database alone does not give the codes. Stored as "v1.<iv>.<tag>.<ciphertext>", base64url.
// ---------------------------------------------------------------------------------------------------------------

const keys = new Map<string, Buffer>();
function keyFor(jwtSecret: string): Buffer {
  let key = keys.get(jwtSecret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', jwtSecret, 'lab-portal', 'totp-secret-v1', 32));
    keys.set(jwtSecret, key);
  }
  return key;
}

/** Encrypts a TOTP secret for user_factors.totp_secret. */
export function encryptTotpSecret(jwtSecret: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(jwtSecret), iv);
  const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** Decrypts user_factors.totp_secret; throws when it was made under another key or altered. */
export function decryptTotpSecret(jwtSecret: string, stored: string): string {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unknown TOTP secret format');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(jwtSecret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
