import { createHmac } from 'node:crypto';

import { eq, sql } from 'drizzle-orm';

import type { Db } from '#server/db/client.ts';
import { portalSettings } from '#server/db/schema/index.ts';

export const JWT_FINGERPRINT_KEY = 'jwt_secret_fingerprint';

/** An HMAC-SHA256 of a fixed label keyed with the secret: equal for equal secrets, and says nothing about the secret. */
export const jwtSecretFingerprint = (secret: string) =>
  createHmac('sha256', secret).update('lab-portal/jwt-secret-fingerprint/v1').digest('hex');

/** This node's JWT secret is not the one the other nodes use. */
export class JwtSecretMismatchError extends Error {}

/**
 * Nodes on one database must sign and check tokens with one secret, or a sign-in on one node is refused by the next
 * (decision 052). The first node records its secret's fingerprint in portal_settings; a node with another secret is
 * refused at start, unless the operator rotates the secret on purpose (JWT_SECRET_ROTATE=true records the new one).
 */
export async function checkJwtSecret(
  db: Db,
  secret: string,
  opts: { rotate?: boolean } = {},
): Promise<'recorded' | 'matched' | 'rotated'> {
  const fingerprint = jwtSecretFingerprint(secret);
  if (opts.rotate) {
    await db
      .insert(portalSettings)
      .values({ key: JWT_FINGERPRINT_KEY, value: fingerprint })
      .onConflictDoUpdate({ target: portalSettings.key, set: { value: fingerprint, updatedAt: sql`now()` } });
    return 'rotated';
  }
  // Two nodes starting together on a new database: one insert wins, the other compares with it.
  const inserted = await db
    .insert(portalSettings)
    .values({ key: JWT_FINGERPRINT_KEY, value: fingerprint })
    .onConflictDoNothing()
    .returning({ key: portalSettings.key });
  if (inserted.length) return 'recorded';
  const [recorded] = await db
    .select({ value: portalSettings.value })
    .from(portalSettings)
    .where(eq(portalSettings.key, JWT_FINGERPRINT_KEY));
  if (recorded?.value === fingerprint) return 'matched';
  throw new JwtSecretMismatchError(
    'JWT_SECRET is not the secret the other nodes of this portal use (the database holds the fingerprint of theirs). ' +
      'Every node on one database needs the same JWT_SECRET, or a sign-in on one node is refused by another. ' +
      "Set this node's JWT_SECRET to the others' value. To change the secret on purpose, stop every node, start one " +
      'with JWT_SECRET_ROTATE=true and the new secret (everybody signs in again), then the others with the new secret.',
  );
}
