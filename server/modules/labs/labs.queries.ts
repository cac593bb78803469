import { eq } from 'drizzle-orm';

import type { DbOrTx } from '#server/db/client.ts';
import { labs } from '#server/db/schema/index.ts';

/*
 * Reads of the labs' tables that other modules call (decision 103: a module owns its tables).
 */

/** The id of a lab (the portal has one), or null before the first lab is made. */
export async function firstLabId(db: DbOrTx): Promise<string | null> {
  const [lab] = await db.select({ id: labs.id }).from(labs).limit(1);
  return lab?.id ?? null;
}

/** Is there a lab with this id? */
export async function labExists(db: DbOrTx, id: string): Promise<boolean> {
  const [lab] = await db.select({ id: labs.id }).from(labs).where(eq(labs.id, id)).limit(1);
  return lab !== undefined;
}

/** The lab's name (the dispatch register's mail says whom a letter is from), or '' before the first lab is made. */
export async function labNameOf(db: DbOrTx): Promise<string> {
  const [lab] = await db.select({ name: labs.name }).from(labs).limit(1);
  return lab?.name ?? '';
}
