import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

import type { UserRow } from '#server/db/schema/index.ts';
import { buildTestApp } from '#server/test/app.ts';
import { authHeaders, TEST_PASSWORD } from '#server/test/factories.ts';
import { SoftwareAuthenticator } from '#server/test/software-authenticator.ts';

// What the passkey tests share (decision 065): the requests' host, the URLs, and the steps of adding and using a passkey.

/** The portal's name in these requests: the RP ID and origin come from the request's host (PORTAL_URL unset). */
export const HOST = 'portal.test';
export const ORIGIN = `http://${HOST}`;
export const URL_OF = {
  registrationOptions: '/api/auth/second-factor/passkey/registration-options',
  register: '/api/auth/second-factor/passkey/register',
  authenticationOptions: '/api/auth/second-factor/passkey/authentication-options',
  verify: '/api/auth/second-factor/passkey/verify',
} as const;

export type Headers = Record<string, string>;
export const post = (app: FastifyInstance, url: string, payload: object, headers: Headers = {}) =>
  app.inject({ method: 'POST', url, payload, headers: { host: HOST, ...headers } });

/** An app whose installation requires directors to pass a second factor (the sign-in then answers a ticket). */
export const mfaApp = () => buildTestApp({ MFA_REQUIRED_ROLES: 'director' });

/** Adds a passkey to `user`'s account from My Account (signed in, no factor yet); answers the authenticator. */
export async function addPasskeySignedIn(
  app: FastifyInstance,
  user: UserRow,
  headers?: Headers,
  label = 'Office laptop',
) {
  const h = headers ?? (await authHeaders(app, user));
  const key = new SoftwareAuthenticator(ORIGIN);
  const options = await post(app, URL_OF.registrationOptions, {}, h);
  expect(options.statusCode).toBe(200);
  const res = await post(app, URL_OF.register, { label, response: key.register(options.json()) }, h);
  expect(res.statusCode).toBe(200);
  return { key, answer: res.json() as { recoveryCodes?: string[] } };
}

/** The password step of a sign-in that needs a second factor: its answer (code, ticket, methods). */
export async function passwordStep(app: FastifyInstance, user: UserRow) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password: TEST_PASSWORD },
    headers: { host: HOST },
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { code: string; ticket: string; methods: string[] };
}

export async function assertionFor(app: FastifyInstance, ticket: string, key: SoftwareAuthenticator) {
  const options = await post(app, URL_OF.authenticationOptions, { ticket });
  expect(options.statusCode).toBe(200);
  return key.assert(options.json());
}
