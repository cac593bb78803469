import { and, eq, inArray, ne, sql } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { type LetterMovementRow, letterMovements, type LetterRow, letters } from '#server/db/schema/index.ts';

/*
 * Reads of the letters' tables that other modules call (decision 103: a module owns its tables).
 */

/** These letters' Letter ID, subject and classification. */
export async function lettersByIds(
  db: DbOrTx,
  ids: string[],
): Promise<{ id: string; ref: string; sub: string; cls: LetterRow['classification'] }[]> {
  if (!ids.length) return [];
  return db
    .select({ id: letters.id, ref: letters.letterId, sub: letters.letterSub, cls: letters.classification })
    .from(letters)
    .where(inArray(letters.id, ids));
}

/** These movements' due dates and priorities. */
export async function movementsByIds(
  db: DbOrTx,
  ids: string[],
): Promise<Pick<LetterMovementRow, 'id' | 'dueDate' | 'priority'>[]> {
  if (!ids.length) return [];
  return db
    .select({ id: letterMovements.id, dueDate: letterMovements.dueDate, priority: letterMovements.priority })
    .from(letterMovements)
    .where(inArray(letterMovements.id, ids));
}

/** How many Confidential or Secret letters this person holds now (Manage Users: withdrawing a clearance). */
export async function countClassifiedHeldBy(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(letterMovements)
    .where(
      and(
        eq(letterMovements.toUserId, userId),
        ne(letterMovements.box, 'closed'),
        eq(letterMovements.classified, true),
      ),
    );
  return row?.n ?? 0;
}
