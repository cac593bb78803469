import { and, desc, eq, notInArray } from 'drizzle-orm';

import type { PasswordPolicy } from '#server/config.ts';
import type { DbOrTx, Tx } from '#server/db/client.ts';
import { passwordHistory, type UserRow, users } from '#server/db/schema/index.ts';
import { badRequest } from '#server/lib/errors.ts';
import { passwordMatches } from '#server/lib/passwords.ts';

// The optional password policy (decision 117): PASSWORD_MAX_AGE_DAYS and PASSWORD_HISTORY. The users module owns
// `users.password_changed_at` and `password_history`; every way a portal password is set comes through setPassword.

const DAY_MS = 86_400_000;

/**
 * Whether a person must choose a new portal password before their sign-in goes on: PASSWORD_MAX_AGE_DAYS is set and
 * their password is older. An account of the lab's directory or single sign-on has no portal password to age.
 */
export function passwordExpired(
  policy: PasswordPolicy,
  user: Pick<UserRow, 'authSource' | 'passwordHash' | 'passwordChangedAt'>,
  now = new Date(),
): boolean {
  if (!policy.maxAgeDays || user.authSource !== 'local' || !user.passwordHash) return false;
  return now.getTime() - user.passwordChangedAt.getTime() > policy.maxAgeDays * DAY_MS;
}

/**
 * Under PASSWORD_HISTORY = N, refuses (400 `users.password_recently_used` on `newPassword`) a password equal to the
 * current one or to one of the N − 1 before it, each compared with its hash by passwordMatches (argon2), the one
 * password check. Without PASSWORD_HISTORY it refuses nothing.
 */
export async function assertPasswordNotRecent(
  db: DbOrTx,
  policy: PasswordPolicy,
  user: Pick<UserRow, 'id' | 'passwordHash'>,
  password: string,
  field = 'newPassword',
): Promise<void> {
  const count = policy.history;
  if (!count) return;
  const earlier =
    count > 1
      ? await db
          .select({ hash: passwordHistory.passwordHash })
          .from(passwordHistory)
          .where(eq(passwordHistory.userId, user.id))
          .orderBy(desc(passwordHistory.createdAt))
          .limit(count - 1)
      : [];
  for (const hash of [user.passwordHash, ...earlier.map((e) => e.hash)]) {
    if (await passwordMatches(hash, password)) {
      throw badRequest('users.password_recently_used', field, { count });
    }
  }
}

/**
 * Sets a person's portal password (`passwordHash`, already argon2id) in the caller's transaction: when it was set
 * (PASSWORD_MAX_AGE_DAYS counts from it), every earlier session ended, and under PASSWORD_HISTORY the hash it replaces
 * kept, the history trimmed to the N − 1 newest. Answers the saved row.
 */
export async function setPassword(
  tx: Tx,
  policy: PasswordPolicy,
  user: Pick<UserRow, 'id' | 'passwordHash'>,
  passwordHash: string,
  now = new Date(),
): Promise<UserRow> {
  const [saved] = await tx
    .update(users)
    .set({ passwordHash, passwordChangedAt: now, sessionsValidAfter: now })
    .where(eq(users.id, user.id))
    .returning();
  if (policy.history && policy.history > 1 && user.passwordHash) {
    await tx.insert(passwordHistory).values({ userId: user.id, passwordHash: user.passwordHash, createdAt: now });
    const kept = tx
      .select({ id: passwordHistory.id })
      .from(passwordHistory)
      .where(eq(passwordHistory.userId, user.id))
      .orderBy(desc(passwordHistory.createdAt))
      .limit(policy.history - 1);
    await tx
      .delete(passwordHistory)
      .where(and(eq(passwordHistory.userId, user.id), notInArray(passwordHistory.id, kept)));
  }
  return saved!;
}
