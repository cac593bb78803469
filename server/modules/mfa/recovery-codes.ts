import { createHash, randomInt } from 'node:crypto';

import { and, count, eq, isNull } from 'drizzle-orm';

import type { Db } from '#server/db/client.ts';
import { recoveryCodes } from '#server/db/schema/index.ts';

/** How many recovery codes a person gets at a time (decision 065). */
export const RECOVERY_CODE_COUNT = 10;

// Lower-case letters and digits without the look-alikes (0/o, 1/l/i): 32 signs, 5 bits each.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 10;

/** A recovery code as printed: "abcde-fghij" (50 random bits). */
export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** A code as typed (any case, spaces, dashes) in the one form that is hashed. */
export const normaliseRecoveryCode = (typed: string) => typed.toLowerCase().replace(/[\s-]/g, '');

/** Does this typed code look like a recovery code (rather than a 6-digit TOTP code)? */
export const looksLikeRecoveryCode = (typed: string) => normaliseRecoveryCode(typed).length === LENGTH;

/**
 * The stored form of a code: SHA-256. NOTE: not argon2 as passwords are: a recovery code is 50 random bits made by
 * the server, not a person's choice, so a slow hash adds nothing a guesser could not already not afford, and a plain
 * hash finds the code in one indexed query instead of ten argon2 checks per attempt (decision 064).
 */
const hashOf = (typed: string) => createHash('sha256').update(normaliseRecoveryCode(typed)).digest('hex');

/**
 * Replaces the person's recovery codes with 10 new ones (the old ones stop working), in `db` (the caller's
 * transaction). Answers the codes, shown once: only their hashes are kept.
 */
export async function replaceRecoveryCodes(db: Db, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await db.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashOf(code) })));
  return codes;
}

/**
 * Uses one of the person's recovery codes: true when `typed` is one not used before, which is then used (one UPDATE,
 * so two requests with the same code cannot both succeed).
 */
export async function useRecoveryCode(db: Db, userId: string, typed: string): Promise<boolean> {
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashOf(typed)), isNull(recoveryCodes.usedAt)),
    )
    .returning({ id: recoveryCodes.id });
  return used.length > 0;
}

/** How many unused recovery codes the person has. */
export async function recoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return row?.n ?? 0;
}
