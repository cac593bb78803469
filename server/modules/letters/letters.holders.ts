import { and, asc, eq, ne, sql } from 'drizzle-orm';

import type { DbOrTx, Tx } from '#server/db/client.ts';
import { lockOf } from '#server/db/read-view.ts';
import { letterMovements } from '#server/db/schema/index.ts';
import { conflict } from '#server/lib/errors.ts';
import { users } from '#server/modules/users/users.view.ts';

import { isClearedForClassified } from './letters.policy.ts';

/**
 * A letter cannot become Confidential or Secret while someone who is not cleared for it holds it (decision 045):
 * they could then neither receive it nor send it back, while pendency showed them holding it. The same rule as
 * withdrawing a clearance from a holder (admin.service.ts), seen from the letter. The holders' rows are locked (for
 * share), so a clearance withdrawn at the same moment waits for this transaction, or this one reads it withdrawn.
 */
export async function refuseUnclearedHolders(tx: Tx, id: string, classification: string): Promise<void> {
  const holders = await tx
    .select({ id: users.id, name: users.name, role: users.role, cleared: users.classifiedClearance })
    .from(letterMovements)
    .innerJoin(users, eq(users.id, letterMovements.toUserId))
    .where(and(eq(letterMovements.letterId, id), ne(letterMovements.box, 'closed')))
    .orderBy(asc(users.name))
    .for('share', { of: lockOf(users) });
  const uncleared = [...new Map(holders.map((h) => [h.id, h])).values()].filter((h) => !isClearedForClassified(h));
  if (!uncleared.length) return;
  const names = uncleared.map((h) => h.name);
  throw conflict('letters.holder_not_cleared', 'classification', {
    count: names.length,
    names: names.slice(0, -1).join(', '),
    last: names.at(-1)!,
    classification,
  });
}

/** Has the letter been marked to anyone, and was `personId` marked it (or did they mark it)? */
export async function letterInvolvement(db: DbOrTx, letterId: string, personId: string, standsFor: string[] = []) {
  // A delegate is involved in the letters of the officers they stand in for today (`standsFor`), and in
  // those they acted on for an officer.
  const people = sql`array[${sql.join(
    [personId, ...standsFor].map((p) => sql`${p}`),
    sql`, `,
  )}]::uuid[]`;
  const [row] = await db
    .select({
      moved: sql<boolean>`true`,
      involved: sql<boolean>`bool_or(${letterMovements.toUserId} = any(${people}) or ${letterMovements.fromUserId} = any(${people})
        or ${letterMovements.markedBy} = ${personId} or ${letterMovements.receivedBy} = ${personId} or ${letterMovements.endedBy} = ${personId})`,
    })
    .from(letterMovements)
    .where(eq(letterMovements.letterId, letterId))
    .groupBy(letterMovements.letterId);
  return { moved: Boolean(row?.moved), involved: Boolean(row?.involved) };
}
