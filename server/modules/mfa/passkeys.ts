import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, eq, gt, isNotNull, lt, notInArray, sql } from 'drizzle-orm';

import type { PasskeyAuthenticationResponse, PasskeyRegistrationResponse } from '#shared/schemas/passkeys.ts';

import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { userFactors, type UserRow, webauthnChallenges, type WebauthnPurpose } from '#server/db/schema/index.ts';
import { badRequest, conflict } from '#server/lib/errors.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';

import { hasConfirmedFactor } from './factors.queries.ts';
import { replaceRecoveryCodes } from './recovery-codes.ts';

/**
 * What a passkey ceremony works with (plain values a route gives, decision 104): the database, the relying party the
 * request speaks for (relyingParty), and where a refused answer is logged.
 */
export interface Ceremony {
  db: Db;
  rp: RelyingParty;
  log: { info: (obj: object, msg: string) => void };
}

/** How long a challenge may be answered (the browser's own time-out is shorter: CEREMONY_TIMEOUT_MS). */
export const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;
/** How long the browser lets the person touch their authenticator. */
const CEREMONY_TIMEOUT_MS = 2 * 60 * 1000;
/** Unanswered challenges kept per person and purpose (a second tab, a retry); older ones are dropped. */
const LIVE_CHALLENGES = 5;
/** The name authenticators show beside the person's account. */
const RP_NAME = 'Lab Portal';

/** The WebAuthn relying party a request speaks for: its RP ID (a host name) and the one origin answers must come from. */
export interface RelyingParty {
  id: string;
  origin: string;
}

/**
 * PORTAL_URL's host name and origin when set; else the request's own (Fastify reads X-Forwarded-Host and -Proto only
 * from a TRUST_PROXY proxy). A page served under another name cannot use a passkey made here: the browser binds each
 * passkey to its RP ID and writes the page's origin into what the authenticator signs (decision 065).
 */
export function relyingParty(
  config: Pick<Config, 'portalUrl'>,
  req: { hostname: string; protocol: string; host: string },
): RelyingParty {
  if (config.portalUrl) {
    const url = new URL(config.portalUrl);
    return { id: url.hostname, origin: url.origin };
  }
  return { id: req.hostname, origin: `${req.protocol}://${req.host}` };
}

const notVerified = () => badRequest('auth.passkey_not_verified');
const challengeGone = () => badRequest('auth.passkey_challenge_expired');

/** Keeps a new challenge for this person and purpose; drops expired ones, and this person's oldest beyond a few. */
async function keepChallenge(db: Db, userId: string, purpose: WebauthnPurpose, challenge: string) {
  await db.transaction(async (tx) => {
    await tx.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, sql`now()`));
    const live = tx
      .select({ challenge: webauthnChallenges.challenge })
      .from(webauthnChallenges)
      .where(and(eq(webauthnChallenges.userId, userId), eq(webauthnChallenges.purpose, purpose)))
      .orderBy(sql`${webauthnChallenges.createdAt} desc`)
      .limit(LIVE_CHALLENGES - 1);
    await tx
      .delete(webauthnChallenges)
      .where(
        and(
          eq(webauthnChallenges.userId, userId),
          eq(webauthnChallenges.purpose, purpose),
          notInArray(webauthnChallenges.challenge, live),
        ),
      );
    await tx
      .insert(webauthnChallenges)
      .values({ challenge, userId, purpose, expiresAt: new Date(Date.now() + CHALLENGE_LIFETIME_MS) });
  });
}

/**
 * Takes the challenge an answer signed (read from its clientDataJSON) out of the store: it must have been handed to
 * this person for this purpose and not have expired. Deleted whatever the answer's fate, so it is used once.
 */
async function useChallenge(db: Db, userId: string, purpose: WebauthnPurpose, clientDataJSON: string): Promise<string> {
  let challenge: unknown;
  try {
    challenge = (JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown })
      .challenge;
  } catch {
    throw badRequest('auth.passkey_response_invalid');
  }
  if (typeof challenge !== 'string' || !challenge) throw badRequest('auth.passkey_response_invalid');
  const [kept] = await db
    .delete(webauthnChallenges)
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.userId, userId),
        eq(webauthnChallenges.purpose, purpose),
      ),
    )
    .returning({ expiresAt: webauthnChallenges.expiresAt });
  if (!kept || kept.expiresAt.getTime() <= Date.now()) throw challengeGone();
  return challenge;
}

/** This person's passkeys (confirmed), as WebAuthn names them: credential ids and the transports their browsers gave. */
async function passkeysOf(db: Db, userId: string) {
  return db
    .select()
    .from(userFactors)
    .where(and(eq(userFactors.userId, userId), eq(userFactors.kind, 'passkey'), isNotNull(userFactors.confirmedAt)));
}

/** Does this person have a passkey? (The sign-in's code prompt offers it first.) */
export async function hasPasskey(db: Db, userId: string): Promise<boolean> {
  return (await passkeysOf(db, userId)).length > 0;
}

/**
 * The options for adding a passkey to this person's account (navigator.credentials.create()): a fresh challenge kept
 * for 5 minutes, their existing passkeys excluded (an authenticator is not registered twice), user verification and
 * a discoverable credential preferred, attestation 'none'. Callers check who may (mfaPolicy 'mfa.manage_own', or a
 * sign-in ticket at enrolment).
 */
export async function passkeyRegistrationOptions(
  { db, rp }: Pick<Ceremony, 'db' | 'rp'>,
  user: Pick<UserRow, 'id' | 'email' | 'name'>,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await passkeysOf(db, user.id);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    // The user handle: the account's id (16 bytes), never the email (an authenticator may show or keep it).
    userID: Buffer.from(user.id.replace(/-/g, ''), 'hex'),
    userName: user.email,
    userDisplayName: user.name,
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((f) => ({ id: f.credentialId!, transports: f.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await keepChallenge(db, user.id, 'registration', options.challenge);
  return options;
}

/**
 * Verifies the browser's answer to passkeyRegistrationOptions (challenge used once, this origin and RP ID, attestation
 * 'none' accepted) and keeps the passkey, confirmed, named `label` ("Passkey" when blank), with its activity row. The
 * person's first factor comes with their 10 recovery codes, answered once. Throws 400 `auth.passkey_*`, or 409 when
 * the authenticator's credential is already registered. Callers check who may.
 */
export async function addPasskey(
  { db, rp, log }: Ceremony,
  user: Pick<UserRow, 'id'>,
  label: string,
  response: PasskeyRegistrationResponse,
): Promise<{ factorId: string; recoveryCodes?: string[] }> {
  const expectedChallenge = await useChallenge(db, user.id, 'registration', response.response.clientDataJSON);
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: response as Parameters<typeof verifyRegistrationResponse>[0]['response'],
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      // Preferred, not required: a security key without a PIN still proves possession (the password is the first factor).
      requireUserVerification: false,
    });
  } catch (err) {
    log.info({ err: (err as Error).message }, 'passkey registration refused');
    throw notVerified();
  }
  if (!verified.verified) throw notVerified();
  const { credential } = verified.registrationInfo;
  return db.transaction(async (tx) => {
    const [clash] = await tx
      .select({ id: userFactors.id })
      .from(userFactors)
      .where(eq(userFactors.credentialId, credential.id))
      .limit(1);
    if (clash) throw conflict('auth.passkey_already_registered');
    const first = !(await hasConfirmedFactor(tx, user.id));
    const name = label || 'Passkey';
    const [factor] = await tx
      .insert(userFactors)
      .values({
        userId: user.id,
        kind: 'passkey',
        label: name,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? response.response.transports ?? [],
        confirmedAt: new Date(),
      })
      .returning({ id: userFactors.id });
    await recordActivity(tx, user, 'activity.own_passkey_added', { label: name });
    return {
      factorId: factor!.id,
      ...(first ? { recoveryCodes: await replaceRecoveryCodes(tx, user.id) } : {}),
    };
  });
}

/**
 * The options for signing with one of this person's passkeys (navigator.credentials.get()): a fresh challenge kept
 * for 5 minutes, their passkeys allowed, user verification preferred. For the sign-in's second step, and for a fresh
 * check of a signed-in person (step-up, with verifyPasskeyAssertion). Throws 409 `auth.passkey_none` when they have
 * no passkey.
 */
export async function passkeyAssertionOptions(
  { db, rp }: Pick<Ceremony, 'db' | 'rp'>,
  userId: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const passkeys = await passkeysOf(db, userId);
  if (passkeys.length === 0) throw conflict('auth.passkey_none');
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: 'preferred',
    allowCredentials: passkeys.map((f) => ({ id: f.credentialId!, transports: f.transports })),
  });
  await keepChallenge(db, userId, 'authentication', options.challenge);
  return options;
}

/**
 * Verifies a passkey's signed answer to passkeyAssertionOptions for this person: the challenge handed to them (used
 * once, unexpired), a passkey of theirs, this origin and RP ID, the signature with its stored public key, and a
 * signature counter above the stored one (a cloned authenticator's replay is refused; authenticators that keep no
 * counter send 0 every time). The counter moves forward only if no other answer moved it first. Answers the factor
 * used. Throws 400 `auth.passkey_*`. Used by the sign-in's second step and by the step-up check of a signed-in person.
 */
export async function verifyPasskeyAssertion(
  { db, rp, log }: Ceremony,
  userId: string,
  response: PasskeyAuthenticationResponse,
): Promise<{ factorId: string }> {
  const expectedChallenge = await useChallenge(db, userId, 'authentication', response.response.clientDataJSON);
  const [factor] = await db
    .select()
    .from(userFactors)
    .where(
      and(
        eq(userFactors.userId, userId),
        eq(userFactors.kind, 'passkey'),
        isNotNull(userFactors.confirmedAt),
        eq(userFactors.credentialId, response.id),
      ),
    )
    .limit(1);
  if (!factor?.publicKey) throw badRequest('auth.passkey_unknown');
  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response: response as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: factor.credentialId!,
        publicKey: new Uint8Array(factor.publicKey),
        counter: factor.counter,
        transports: factor.transports,
      },
      requireUserVerification: false,
    });
    if (!verified.verified) throw new Error('not verified');
    newCounter = verified.authenticationInfo.newCounter;
  } catch (err) {
    log.info({ err: (err as Error).message }, 'passkey assertion refused');
    throw notVerified();
  }
  // Compare and set: of two answers that passed with one counter value, only the first moves it (the other is refused).
  const [moved] = await db
    .update(userFactors)
    .set({ counter: newCounter, lastUsedAt: new Date() })
    .where(
      and(
        eq(userFactors.id, factor.id),
        eq(userFactors.counter, factor.counter),
        newCounter === 0 ? sql`true` : gt(sql`${newCounter}::bigint`, userFactors.counter),
      ),
    )
    .returning({ id: userFactors.id });
  if (!moved) throw notVerified();
  return { factorId: factor.id };
}
