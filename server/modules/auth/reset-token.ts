import { createHash, createHmac, hkdfSync } from 'node:crypto';

import { and, eq, gt, isNull } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { passwordResetTokens } from '#server/db/schema/index.ts';

/** How long a "forgot password" link works (decision 077). */
export const RESET_LINK_MINUTES = 30;

// The token of a link is never stored (decision 077): it is the HMAC of its row's id under a key derived from the JWT
// secret, made again when the mail is written, and the row keeps its SHA-256 only. A copy of the database alone (or of
// the mail outbox) gives no working link.
const keys = new Map<string, Buffer>();
function keyFor(jwtSecret: string): Buffer {
  let key = keys.get(jwtSecret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', jwtSecret, 'lab-portal', 'password-reset-link-v1', 32));
    keys.set(jwtSecret, key);
  }
  return key;
}

/** The token of the link of reset request `resetId` (43 characters, base64url). */
export const resetToken = (jwtSecret: string, resetId: string): string =>
  createHmac('sha256', keyFor(jwtSecret)).update(resetId).digest('base64url');

/** What password_reset_tokens.token_hash keeps of a token. */
export const resetTokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Does reset request `resetId` still work (not used, not expired)? The mail of one that does not is not sent. */
export async function resetLinkWorks(db: DbOrTx, resetId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: passwordResetTokens.id })
    .from(passwordResetTokens)
    .where(
      and(
        eq(passwordResetTokens.id, resetId),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return Boolean(row);
}
