import { and, eq, isNotNull, type SQL, sql } from 'drizzle-orm';

import type { Db } from '#server/db/client.ts';
import { recoveryCodes, userFactors } from '#server/db/schema/index.ts';

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

/**
 * The person's confirmed factor kinds and whether an unused recovery code is left, as columns of the sign-in hook's one
 * query (server/app.ts hands them to the auth plugin; decision 104): the step-up methods of a refusal and the wording
 * of the second factor's refusal need no query of their own.
 */
export const factorFacts = (userId: SQL) => ({
  factorKinds: sql<string[]>`array(select distinct f.kind::text from ${userFactors} f
    where f.user_id = ${userId} and f.confirmed_at is not null order by 1)`,
  recoveryLeft: sql<boolean>`exists(select 1 from ${recoveryCodes} r where r.user_id = ${userId} and r.used_at is null)`,
});
