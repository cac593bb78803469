import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"; decision 041): a
 * browser that signed in successfully as a person gets a signed cookie naming that account, and its later failures
 * count against the cookie only, so failures from elsewhere (which lock the account for untrusted sources) do not lock
 * the owner's own browser out.
 *
 * The cookie is `<nonce>.<issued>.<signature>`: a random nonce (the key its failures are counted under), the time it
 * was issued (seconds, base 36) and an HMAC-SHA256 of the account's normalised email with both, under a key derived
 * from the JWT secret (the same on every node). The email is not written in the cookie: a cookie is checked against
 * the email typed in, so it is worth nothing for another account.
 */
export const DEVICE_COOKIE = 'lp_device';
/** How long a device stays trusted after its last successful sign-in (each success issues a fresh cookie). */
export const DEVICE_COOKIE_DAYS = 180;
const MAX_AGE_SECONDS = DEVICE_COOKIE_DAYS * 24 * 60 * 60;

/** The cookie signing key: its own key, derived from the JWT secret, so a device cookie is never a valid token part. */
export const deviceCookieKey = (jwtSecret: string) =>
  createHmac('sha256', jwtSecret).update('lab-portal device cookie v1').digest();

const sign = (key: Buffer, account: string, nonce: string, issued: string) =>
  createHmac('sha256', key).update(`${account}\n${nonce}\n${issued}`).digest('base64url');

/** A new device cookie value for this account (its normalised email). */
export function newDeviceCookie(key: Buffer, account: string, now = Date.now()): string {
  const nonce = randomBytes(16).toString('base64url');
  const issued = Math.floor(now / 1000).toString(36);
  return `${nonce}.${issued}.${sign(key, account, nonce, issued)}`;
}

/**
 * The nonce of a device cookie that is valid for this account (signed by us for it, not older than its lifetime), or
 * null: a missing, forged, expired or other account's cookie makes the request an untrusted one.
 */
export function trustedDevice(key: Buffer, account: string, value: string | undefined, now = Date.now()) {
  const parts = value?.split('.');
  if (!parts || parts.length !== 3) return null;
  const [nonce, issued, signature] = parts as [string, string, string];
  const expected = Buffer.from(sign(key, account, nonce, issued));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const age = now / 1000 - parseInt(issued, 36);
  return age >= 0 && age < MAX_AGE_SECONDS ? nonce : null;
}

/** Sets the device cookie after a successful sign-in: httpOnly, SameSite=Strict, sent to the API only. */
export function setDeviceCookie(req: FastifyRequest, reply: FastifyReply, value: string) {
  reply.setCookie(DEVICE_COOKIE, value, {
    httpOnly: true,
    sameSite: 'strict',
    secure: req.protocol === 'https',
    path: '/api/',
    maxAge: MAX_AGE_SECONDS,
  });
}
