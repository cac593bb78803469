import { and, eq, isNotNull } from 'drizzle-orm';

import type { Db } from '#server/db/client.ts';
import { userFactors } from '#server/db/schema/index.ts';

/**
 * The kinds of this person's confirmed second factors ('totp', 'passkey'), each once. Asked at sign-in and on the
 * refusal path of the sign-in hook only, never on an ordinary request (decision 064).
 */
export async function confirmedFactorKinds(db: Db, userId: string): Promise<('totp' | 'passkey')[]> {
  const rows = await db
    .selectDistinct({ kind: userFactors.kind })
    .from(userFactors)
    .where(and(eq(userFactors.userId, userId), isNotNull(userFactors.confirmedAt)));
  return rows.map((r) => r.kind).sort();
}

/** Does this person have a confirmed second factor? */
export const hasConfirmedFactor = async (db: Db, userId: string) => (await confirmedFactorKinds(db, userId)).length > 0;
