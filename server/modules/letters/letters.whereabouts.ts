import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { letterMovements } from '#server/db/schema/index.ts';
import { users } from '#server/modules/users/users.view.ts';

/**
 * Where a letter is now (decision 099): who holds it — marked to them and not yet received, or received — or, when
 * nobody does and its last action was a closing, who closed it and when. Shown on the letter's card to whoever may see
 * the letter (letters.view), who may read its whole dak trail already (GET /api/dac/{id}/movements): it tells nothing
 * the trail does not. Copies for information are nobody's holding (decision 079) and are left out.
 */
export interface Whereabouts {
  holders: {
    id: string;
    name: string;
    designation: string;
    status: 'pending' | 'received';
    markedAt: Date;
    receivedAt: Date | null;
  }[];
  closed: { id: string; name: string; at: Date } | null;
}

/** The whereabouts of the letters of one page that have moved (`moved`), by letter id: two small indexed reads. */
export async function loadWhereabouts(db: DbOrTx, moved: string[]): Promise<Map<string, Whereabouts>> {
  const found = new Map<string, Whereabouts>(moved.map((id) => [id, { holders: [], closed: null }]));
  if (!moved.length) return found;
  const open = await db
    .select({
      letterId: letterMovements.letterId,
      id: users.id,
      name: users.name,
      designation: users.designation,
      box: letterMovements.box,
      markedAt: letterMovements.markedAt,
      receivedAt: letterMovements.receivedAt,
    })
    .from(letterMovements)
    .innerJoin(users, eq(users.id, letterMovements.toUserId))
    .where(and(inArray(letterMovements.letterId, moved), ne(letterMovements.box, 'closed')))
    .orderBy(letterMovements.markedAt, letterMovements.id);
  for (const r of open) {
    found.get(r.letterId)?.holders.push({
      id: r.id,
      name: r.name,
      designation: r.designation,
      status: r.box === 'received' ? 'received' : 'pending',
      markedAt: r.markedAt,
      receivedAt: r.receivedAt,
    });
  }
  const idle = moved.filter((id) => !found.get(id)?.holders.length);
  if (!idle.length) return found;
  // The last action on each letter nobody holds: a closing says who closed it; a pull back or a return says nothing.
  const last = await db
    .selectDistinctOn([letterMovements.letterId], {
      letterId: letterMovements.letterId,
      outcome: letterMovements.outcome,
      endedAt: letterMovements.endedAt,
      // Who closed it: the holder, or the delegate who closed it for them (decision 078).
      byId: sql<string>`coalesce(${letterMovements.endedBy}, ${letterMovements.toUserId})`,
      byName: sql<string>`(select ${users.name} from ${users} where ${users.id} = coalesce(${letterMovements.endedBy}, ${letterMovements.toUserId}))`,
    })
    .from(letterMovements)
    .where(and(inArray(letterMovements.letterId, idle), eq(letterMovements.forInformation, false)))
    .orderBy(letterMovements.letterId, desc(sql`coalesce(${letterMovements.endedAt}, ${letterMovements.markedAt})`));
  for (const r of last) {
    if (r.outcome === 'closed' && r.endedAt) {
      found.get(r.letterId)!.closed = { id: r.byId, name: r.byName, at: r.endedAt };
    }
  }
  return found;
}
