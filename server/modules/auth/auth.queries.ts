import { lt } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { passwordResetTokens } from '#server/db/schema/index.ts';

/*
 * Reads and writes of the auth module's tables that other modules call (decision 103: a module owns its tables).
 */

/** Removes the reset links that expired before this time (the mail module's nightly sweep). */
export async function deleteResetTokensExpiredBefore(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(passwordResetTokens).where(lt(passwordResetTokens.expiresAt, before));
}
