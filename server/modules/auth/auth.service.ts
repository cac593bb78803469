import argon2 from 'argon2';
import type { RegisterInput } from '#shared/schemas/auth.ts';
import type { z } from 'zod';
import type { registerInput } from '#shared/schemas/auth.ts';
import type { Db } from '#server/db/client.ts';
import { users, type UserRow } from '#server/db/schema/index.ts';
import { conflict, forbidden, unauthorized } from '#server/lib/errors.ts';
import { refusalFor } from '#server/plugins/auth.ts';
import { recordActivity } from '#server/modules/audit/audit.service.ts';
import { findUserByEmail } from '#server/modules/users/users.service.ts';

type RegisterData = z.output<typeof registerInput>;
export type { RegisterInput };

/** argon2id with OWASP's recommended memory cost. */
export const hashPassword = (password: string) =>
  argon2.hash(password, { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 });

// A hash to verify against when the email is unknown, so a wrong email takes as long as a wrong password.
let dummyHash: Promise<string> | undefined;

/** Registers a new member of staff, pending until an admin approves them. Anyone may call it. */
export async function registerUser(db: Db, input: RegisterData): Promise<UserRow> {
  if (await findUserByEmail(db, input.email)) throw conflict('User already exists', 'email');
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
    if (!user) throw conflict('User already exists', 'email');
    await recordActivity(tx, user, `Registered as ${user.email} (requested role ${user.role})`, {
      type: 'user',
      id: user.id,
    });
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
    throw unauthorized('Invalid email or password.');
  }
  const ok = await argon2.verify(user.passwordHash, password).catch(() => false);
  if (!ok) throw unauthorized('Invalid email or password.');
  const refusal = refusalFor(user);
  if (refusal) throw forbidden(refusal.message, { status: refusal.status });
  return user;
}
