import argon2 from 'argon2';
import { eq, lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';

import type { RegisterInput } from '#shared/schemas/auth.ts';
import type { registerInput } from '#shared/schemas/auth.ts';

import type { Db } from '#server/db/client.ts';
import { revokedSessions, type UserRow, users } from '#server/db/schema/index.ts';
import { conflict, forbidden, unauthorized } from '#server/lib/errors.ts';
import { isUuid } from '#server/lib/ids.ts';
import { roleWord } from '#server/modules/audit/activity-words.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { findUserByEmail } from '#server/modules/users/users.queries.ts';
import { type Actor, refusalFor } from '#server/plugins/auth.ts';

import { hashPassword } from './passwords.ts';

type RegisterData = z.output<typeof registerInput>;
export type { RegisterInput };

// A hash to verify against when the email is unknown, so a wrong email takes as long as a wrong password.
let dummyHash: Promise<string> | undefined;

/** Registers a new member of staff, pending until an admin approves them. Anyone may call it. */
export async function registerUser(db: Db, input: RegisterData): Promise<UserRow> {
  if (await findUserByEmail(db, input.email)) throw conflict('auth.user_exists', 'email');
  const passwordHash = await hashPassword(input.password);
  const { personalDetails: p, professionalDetails: q, employmentPeriod: e } = input;
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        email: input.email,
        passwordHash,
        role: input.role,
        status: 'pending',
        about: input.about,
        name: p.name,
        dob: p.dob,
        mobile: p.mobile,
        address: p.address,
        designation: q.designation,
        cadre: q.cadre,
        intercom: q.intercom,
        internetEmail: q.internetEmail,
        dronaEmail: q.dronaEmail,
        pis: q.pis,
        aebasId: q.aebasId,
        employmentFrom: e.from,
        employmentTo: e.to,
      })
      .onConflictDoNothing()
      .returning();
    if (!user) throw conflict('auth.user_exists', 'email');
    await recordActivity(
      tx,
      user,
      'activity.registered',
      { email: user.email, role: roleWord(user.role) },
      { type: 'user', id: user.id },
    );
    return user;
  });
}

/**
 * Checks an email and password. Wrong credentials get one message whichever was wrong; accounts that are pending,
 * rejected or deactivated are told why (decision 003).
 */
export async function verifyLogin(db: Db, email: string, password: string): Promise<UserRow> {
  const user = await findUserByEmail(db, email);
  if (!user) {
    dummyHash ??= hashPassword('not-a-real-password');
    await argon2.verify(await dummyHash, password).catch(() => false);
    throw unauthorized('auth.invalid_credentials');
  }
  const ok = await argon2.verify(user.passwordHash, password).catch(() => false);
  if (!ok) throw unauthorized('auth.invalid_credentials');
  const refusal = refusalFor(user);
  if (refusal) throw forbidden(refusal.code, refusal.params, { status: refusal.status });
  return user;
}

/**
 * Ends the session of this token (sign-out): its id is kept until the token would have expired anyway, and rows
 * past that are swept. An invalid or expired token needs nothing. Anyone may call it with their own token.
 */
export async function revokeSession(app: FastifyInstance, token: string): Promise<void> {
  let payload: { sub?: unknown; sid?: unknown; exp?: unknown };
  try {
    payload = app.jwt.verify(token);
  } catch {
    return;
  }
  const { sub, sid, exp } = payload;
  if (!isUuid(sid) || !isUuid(sub)) return;
  const expiresAt = new Date(typeof exp === 'number' ? exp * 1000 : Date.now() + 24 * 3600 * 1000);
  await app.db.transaction(async (tx) => {
    await tx.delete(revokedSessions).where(lt(revokedSessions.expiresAt, new Date()));
    const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, sub)).limit(1);
    const [revoked] = await tx
      .insert(revokedSessions)
      .values({ id: sid, userId: user ? sub : null, expiresAt })
      .onConflictDoNothing()
      .returning({ id: revokedSessions.id });
    if (user && revoked) await recordActivity(tx, user, 'activity.signed_out');
  });
}

/**
 * "Stay signed in" (issue 16 item 5): ends the session of `token` and starts a new one for `user`, in one transaction
 * with its activity row, so the old token answers 401 from then on. The session is claimed by inserting its id into
 * revoked_sessions: of two refreshes of one token only one gets a new token, the other is told the session expired.
 * The caller has already authenticated `token` (the root hook), so `user` is its approved, active owner.
 */
export async function refreshSession(app: FastifyInstance, token: string, user: UserRow): Promise<string> {
  const { sid, exp } = app.jwt.decode<{ sid: string; exp?: number }>(token) ?? {};
  if (typeof sid !== 'string') throw unauthorized('auth.session_expired');
  const expiresAt = new Date(typeof exp === 'number' ? exp * 1000 : Date.now() + 24 * 3600 * 1000);
  return app.db.transaction(async (tx) => {
    await tx.delete(revokedSessions).where(lt(revokedSessions.expiresAt, new Date()));
    const [revoked] = await tx
      .insert(revokedSessions)
      .values({ id: sid, userId: user.id, expiresAt })
      .onConflictDoNothing()
      .returning({ id: revokedSessions.id });
    if (!revoked) throw unauthorized('auth.session_expired');
    await recordActivity(tx, user, 'activity.stayed_signed_in');
    return app.issueToken(user);
  });
}

/** Ends every session of the account by moving its sessions stamp (decision 003). The signed-in owner calls it. */
export async function endAllSessions(db: Db, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ sessionsValidAfter: new Date() }).where(eq(users.id, actor.id));
    await recordActivity(tx, actor, 'activity.signed_out_everywhere', undefined, { type: 'user', id: actor.id });
  });
}
