import { and, eq, inArray, ne, sql } from 'drizzle-orm';

import { todayInIndia } from '#shared/format.ts';

import type { DbOrTx } from '#server/db/client.ts';
import { letterMovements, letters } from '#server/db/schema/index.ts';
import type { Actor } from '#server/plugins/auth.ts';

import { visibleLetters } from './letters.policy.ts';

/**
 * What notifications need of letters (issue 17 item 8): the notification source that letters.movements.routes.ts
 * registers.
 */

/** "A letter you marked is overdue": open movements the actor marked whose due date has passed (notifications sweep). */
export async function overdueMarkedBy(db: DbOrTx, actor: Actor) {
  const rows = await db
    .select({ id: letterMovements.id, letterId: letterMovements.letterId, holder: letterMovements.toUserId })
    .from(letterMovements)
    .where(
      and(
        eq(letterMovements.fromUserId, actor.id),
        ne(letterMovements.box, 'closed'),
        sql`${letterMovements.dueDate} is not null and ${letterMovements.dueDate} < ${todayInIndia()}`,
      ),
    )
    .limit(500);
  return rows.map((r) => ({
    kind: 'letter_overdue' as const,
    subjectId: r.letterId,
    sourceId: r.id,
    actorId: r.holder,
  }));
}

/** Letter ID and subject of the letters (of `ids`) this person may see (notifications). */
export async function describeVisibleLetters(db: DbOrTx, actor: Actor, ids: string[]) {
  if (!ids.length) return new Map<string, { ref: string; title: string }>();
  const rows = await db
    .select({ id: letters.id, ref: letters.letterId, title: letters.letterSub })
    .from(letters)
    .where(and(inArray(letters.id, ids), visibleLetters(actor)));
  return new Map(rows.map((r) => [r.id, { ref: r.ref, title: r.title }]));
}
