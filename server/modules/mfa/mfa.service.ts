import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';

import type { SecondFactorsJson } from '#shared/schemas/auth.ts';

import type { Db } from '#server/db/client.ts';
import { recoveryCodes, sessions, userFactors, type UserRow, users } from '#server/db/schema/index.ts';
import { badRequest, conflict, notFound } from '#server/lib/errors.ts';
import type { RequestClient } from '#server/lib/request-client.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { recordAudit, whoAt } from '#server/modules/audit-trail/audit-trail.ts';
import { userObject } from '#server/modules/audit-trail/user-changes.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { hasConfirmedFactor } from './factors.queries.ts';
import { mfaPolicy, secondFactorRequired, type SecondFactorSettings } from './mfa.policy.ts';
import { looksLikeRecoveryCode, recoveryCodesLeft, replaceRecoveryCodes, useRecoveryCode } from './recovery-codes.ts';
import { acceptedTotpStep, decryptTotpSecret, encryptTotpSecret, newTotpSecret, totpEnrolment } from './totp.ts';

/**
 * What the second-factor services work with: plain values a route gives (decision 104), never the Fastify instance.
 * `throttle` counts wrong codes as wrong passwords (app.throttle, decision 014); `jwtSecret` encrypts the
 * authenticator apps' secrets.
 */
export interface FactorDeps {
  db: Db;
  throttle: {
    passwordCheck<T>(
      attempt: { account: string; address: string },
      check: () => Promise<T>,
      wrong: (err: unknown) => boolean,
    ): Promise<T>;
  };
  jwtSecret: string;
}

/** A route's translation of its server into FactorDeps. */
export const factorDeps = (server: {
  db: Db;
  throttle: FactorDeps['throttle'];
  config: { jwtSecret: string };
}): FactorDeps => ({ db: server.db, throttle: server.throttle, jwtSecret: server.config.jwtSecret });

const wrongCode = () => badRequest('auth.second_factor_code_invalid', 'code');

/**
 * Checks a second-factor code of this person, throttled like a password (app.throttle, decision 014): a TOTP code from
 * one of their confirmed authenticator apps (each accepted once, ±1 step), or one of their unused recovery codes
 * (then used up). Answers the kind used; throws 400 `auth.second_factor_code_invalid` (field `code`), or 429 while
 * the person (or the address) must wait. Sign-in, My Account and the step-up before Secret letters call it.
 */
export async function verifySecondFactorCode(
  deps: FactorDeps,
  userId: string,
  code: string,
  address = '',
): Promise<'totp' | 'recovery'> {
  return deps.throttle.passwordCheck(
    // The throttle's account key: the person's id, in a namespace no email can take (no "@").
    { account: `second-factor:${userId}`, address },
    () => checkCode(deps, userId, code),
    (err) => err instanceof Error && (err as { code?: string }).code === 'auth.second_factor_code_invalid',
  );
}

async function checkCode({ db, jwtSecret }: FactorDeps, userId: string, code: string): Promise<'totp' | 'recovery'> {
  if (looksLikeRecoveryCode(code)) {
    if (await useRecoveryCode(db, userId, code)) return 'recovery';
    throw wrongCode();
  }
  const factors = await db
    .select({ id: userFactors.id, secret: userFactors.totpSecret, lastStep: userFactors.lastTotpStep })
    .from(userFactors)
    .where(and(eq(userFactors.userId, userId), eq(userFactors.kind, 'totp'), isNotNull(userFactors.confirmedAt)));
  for (const factor of factors) {
    if (!factor.secret) continue;
    const step = await acceptedTotpStep(decryptTotpSecret(jwtSecret, factor.secret), code, factor.lastStep);
    if (step === null) continue;
    // Accepted once: only the request that moves last_totp_step forward succeeds (two at once with one code: one).
    const [taken] = await db
      .update(userFactors)
      .set({ lastTotpStep: step, lastUsedAt: new Date() })
      .where(
        and(
          eq(userFactors.id, factor.id),
          factor.lastStep === null ? isNull(userFactors.lastTotpStep) : eq(userFactors.lastTotpStep, factor.lastStep),
        ),
      )
      .returning({ id: userFactors.id });
    if (taken) return 'totp';
  }
  throw wrongCode();
}

/**
 * Begins setting up an authenticator app: a new secret, kept (encrypted) on an unconfirmed factor that replaces any
 * earlier unconfirmed one. Answers the secret, its otpauth:// address and QR code. Callers check who may.
 */
export async function beginTotpEnrolment(
  { db, jwtSecret }: Pick<FactorDeps, 'db' | 'jwtSecret'>,
  user: Pick<UserRow, 'id' | 'email'>,
) {
  const secret = newTotpSecret();
  await db.transaction(async (tx) => {
    await tx
      .delete(userFactors)
      .where(and(eq(userFactors.userId, user.id), eq(userFactors.kind, 'totp'), isNull(userFactors.confirmedAt)));
    await tx
      .insert(userFactors)
      .values({ userId: user.id, kind: 'totp', totpSecret: encryptTotpSecret(jwtSecret, secret) });
  });
  return totpEnrolment(secret, user.email);
}

/**
 * Confirms the authenticator app being set up with a code from it (accepted once, like any code), named `label`.
 * The person's first factor comes with their 10 recovery codes, answered once. Throttled like every code.
 */
export async function confirmTotpEnrolment(
  { db, throttle, jwtSecret }: FactorDeps,
  user: Pick<UserRow, 'id'>,
  code: string,
  label: string,
  address = '',
): Promise<{ recoveryCodes?: string[] }> {
  const [pending] = await db
    .select()
    .from(userFactors)
    .where(and(eq(userFactors.userId, user.id), eq(userFactors.kind, 'totp'), isNull(userFactors.confirmedAt)))
    .orderBy(desc(userFactors.createdAt))
    .limit(1);
  if (!pending?.totpSecret) throw conflict('auth.second_factor_no_enrolment');
  const secret = decryptTotpSecret(jwtSecret, pending.totpSecret);
  const step = await throttle.passwordCheck(
    { account: `second-factor:${user.id}`, address },
    async () => (await acceptedTotpStep(secret, code, null)) ?? Promise.reject(wrongCode()),
    (err) => (err as { code?: string }).code === 'auth.second_factor_code_invalid',
  );
  return db.transaction(async (tx) => {
    const first = !(await hasConfirmedFactor(tx, user.id));
    const [confirmed] = await tx
      .update(userFactors)
      .set({ confirmedAt: new Date(), lastTotpStep: step, lastUsedAt: new Date(), label: label || 'Authenticator app' })
      .where(and(eq(userFactors.id, pending.id), isNull(userFactors.confirmedAt)))
      .returning({ id: userFactors.id });
    if (!confirmed) throw conflict('auth.second_factor_no_enrolment');
    await recordActivity(tx, user, 'activity.own_authenticator_added');
    return first ? { recoveryCodes: await replaceRecoveryCodes(tx, user.id) } : {};
  });
}

/**
 * Marks the actor's current session as having passed the second factor `kind` just now (a session begun before it was
 * asked, or the step-up before Secret letters with a passkey, decision 066), with its activity row and the audit
 * trail's event: `second_factor` for a session that had passed none, else `step_up` (decision 069).
 */
export async function passSecondFactorInSession(
  db: Db,
  client: RequestClient,
  actor: Actor,
  kind: 'totp' | 'passkey' | 'recovery',
) {
  if (!actor.session) return;
  await db.transaction(async (tx) => {
    await recordAudit(tx, whoAt(client, actor), {
      action: actor.session!.secondFactor ? 'step_up' : 'second_factor',
      object: userObject(actor),
      outcome: 'success',
      details: { method: kind },
    });
    await tx
      .update(sessions)
      .set({ secondFactor: kind, verifiedAt: new Date() })
      .where(eq(sessions.id, actor.session!.id));
    await recordActivity(
      tx,
      actor,
      kind === 'passkey' ? 'activity.identity_confirmed_passkey' : 'activity.identity_confirmed_code',
    );
  });
}

/** The person's second factors (confirmed ones) and unused recovery codes, for My Account → Security. */
export async function listSecondFactors(
  db: Db,
  settings: SecondFactorSettings,
  actor: Actor,
): Promise<SecondFactorsJson> {
  const rows = await db
    .select()
    .from(userFactors)
    .where(and(eq(userFactors.userId, actor.id), isNotNull(userFactors.confirmedAt)))
    .orderBy(userFactors.createdAt);
  return {
    required: secondFactorRequired(settings, actor),
    factors: rows.map((f) => ({
      id: f.id,
      kind: f.kind,
      label: f.label,
      createdAt: f.createdAt.toISOString(),
      lastUsedAt: f.lastUsedAt?.toISOString() ?? null,
    })),
    recoveryCodesLeft: await recoveryCodesLeft(db, actor.id),
  };
}

/**
 * Removes one of the actor's factors. Not their last confirmed one while the installation requires one of them; with
 * the last one go their recovery codes (a recovery code stands in for a factor, not for none).
 */
export async function removeSecondFactor(db: Db, settings: SecondFactorSettings, actor: Actor, factorId: string) {
  await db.transaction(async (tx) => {
    const [factor] = await tx.select().from(userFactors).where(eq(userFactors.id, factorId)).for('update').limit(1);
    if (!factor) throw notFound('auth.second_factor_not_found');
    mfaPolicy.authorize(actor, 'mfa.own_factor', factor);
    const confirmed = await tx
      .select({ id: userFactors.id })
      .from(userFactors)
      .where(and(eq(userFactors.userId, actor.id), isNotNull(userFactors.confirmedAt)));
    const last = factor.confirmedAt !== null && confirmed.length === 1;
    if (last && secondFactorRequired(settings, actor)) throw conflict('auth.second_factor_last_required');
    await tx.delete(userFactors).where(eq(userFactors.id, factorId));
    if (last) await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, actor.id));
    if (factor.confirmedAt) await recordActivity(tx, actor, 'activity.own_second_factor_removed');
  });
}

/** Gives the actor 10 new recovery codes (the old ones stop working); they must have a factor. */
export async function renewRecoveryCodes(db: Db, actor: Actor): Promise<string[]> {
  return db.transaction(async (tx) => {
    if (!(await hasConfirmedFactor(tx, actor.id))) throw conflict('auth.second_factor_none');
    const codes = await replaceRecoveryCodes(tx, actor.id);
    await recordActivity(tx, actor, 'activity.own_recovery_codes_renewed');
    return codes;
  });
}

/**
 * An admin's reset of another person's second factor (decision 065): their factors and recovery codes go, every
 * session of theirs ends, and the activity log records it. They set up a new one at their next sign-in. Callers
 * check the actor may (mfaPolicy 'mfa.reset_other').
 */
export async function resetSecondFactor(db: Db, actor: Actor, userId: string) {
  await db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update').limit(1);
    if (!user) throw notFound('users.not_found');
    await tx.delete(userFactors).where(eq(userFactors.userId, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.update(users).set({ sessionsValidAfter: new Date() }).where(eq(users.id, userId));
    await tx
      .update(sessions)
      .set({ endedAt: new Date() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt)));
    await recordActivity(
      tx,
      actor,
      'activity.user_second_factor_reset',
      { email: user.email },
      { type: 'user', id: userId },
    );
  });
}
