import { and, asc, desc, eq, gte, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '#server/db/client.ts';
import { labItems, labs, type LabRow } from '#server/db/schema/index.ts';

/** The single lab, or undefined before one is created (spec §3: only one lab exists). */
export async function findOnlyLab(db: DbOrTx): Promise<LabRow | undefined> {
  const [lab] = await db.select().from(labs).orderBy(asc(labs.createdAt)).limit(1);
  return lab;
}

export type LabDocumentKind = 'notice' | 'circular';

/**
 * The lab's notices and circulars, newest first. With `currentOnly`, items whose 'valid until' date has passed are
 * left out (News Flash and the latest box); the Notices & Circular tab lists them all.
 */
export async function listLabDocuments(db: DbOrTx, labId: string, opts: { currentOnly?: boolean } = {}) {
  const kinds = or(eq(labItems.kind, 'notice'), eq(labItems.kind, 'circular'));
  const current = opts.currentOnly ? or(isNull(labItems.validUntil), gte(labItems.validUntil, sql`current_date`)) : undefined;
  return db
    .select()
    .from(labItems)
    .where(and(eq(labItems.labId, labId), kinds, current))
    .orderBy(desc(labItems.createdAt), desc(labItems.id));
}
